/**
 * Three app instances, three processes on three loopback ports, sharing one store: a session
 * started through one is valid on the others, and a sign-out through one ends it everywhere; and
 * password guesses spread over the instances are counted together by the sign-in throttle. The
 * same for password accounts (the `Password()` provider): a confirmation or reset link sent by
 * one instance works once, on any of them; a reset through one ends the account's sessions and
 * the old password on all; guesses at one account are throttled together.
 * Run once against PostgreSQL (schema created by the real `sesame migrate`, as a deployment would)
 * and once against Redis, when @sesame/adapter-redis exists in the workspace.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testSchema } from "../../../packages/adapter-pg/test/database.js"
import { sesame } from "../../../packages/cli/test/run.js"
import { Browser, startInstance, type Instance } from "./instances.js"

const secret = `shared-secret-${crypto.randomUUID()}`

/**
 * The checks, for instances already started on one store; `sessionRows`, when given, counts the
 * sessions stored.
 */
function sharesSessions(instances: () => Instance[], sessionRows?: () => Promise<number>) {
  const expectStored = async (n: number) => {
    if (sessionRows) expect(await sessionRows()).toBe(n)
  }
  /** Where a refused sign-in through `origin` goes: the sign-in page, as for a wrong password. */
  const wrong = (origin: string) => {
    const url = new URL(`${origin}/auth/signin`)
    url.searchParams.set("callbackUrl", `${origin}/welcome`)
    url.searchParams.set("error", "CredentialsSignin")
    url.searchParams.set("code", "credentials")
    return url.href
  }
  const someone = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`
  /** An emailed link's path, to open it on any instance (the link names the origin of the instance that sent it). */
  const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`
  /** A password account for `email`, signed up through `signUpAt` and confirmed through `confirmAt`; returns the browser, signed in. */
  const account = async (signUpAt: Instance, confirmAt: Instance, email: string, password: string) => {
    const browser = new Browser()
    await browser.submit(signUpAt.origin, "/auth/signup", { email, password })
    const mail = await signUpAt.mail(email)
    expect(mail.kind).toBe("verify-email")
    await browser.submit(confirmAt.origin, pathOf(mail.url), { password })
    expect(browser.cookies.has("sesame.session-token")).toBe(true)
    return browser
  }

  it("a session started on one instance is valid on the others; a sign-out on one ends it everywhere", async () => {
    const [a, b, c] = instances().map((i) => i.origin) as [string, string, string]
    const browser = new Browser()
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`

    const signIn = await browser.signIn(a, email)
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(`${a}/welcome`)
    expect(browser.cookies.has("sesame.session-token")).toBe(true)
    for (const origin of [a, b, c]) expect((await browser.session(origin))?.user?.email).toBe(email)
    await expectStored(1)

    // A second browser signs in through another instance: the same user, a second session.
    const other = new Browser()
    await other.signIn(b, email)
    expect((await other.session(c))?.user?.email).toBe(email)
    await expectStored(2)

    const signOut = await browser.signOut(c)
    expect(signOut.status).toBe(302)
    for (const origin of [a, b, c]) expect(await browser.session(origin)).toBeNull()
    // The old cookie, replayed on another instance, is worth nothing either.
    const replay = new Browser()
    replay.cookies.set("sesame.session-token", signIn.headers.getSetCookie().find((x) => x.startsWith("sesame.session-token="))!.split(";")[0]!.split("=")[1]!)
    expect(await replay.session(b)).toBeNull()
    // The other browser's session is untouched.
    for (const origin of [a, b, c]) expect((await other.session(origin))?.user?.email).toBe(email)
    await expectStored(1)
  })

  it("password guesses spread over the instances are throttled together", async () => {
    const all = instances().map((i) => i.origin)
    const email = `grace-${crypto.randomUUID().slice(0, 8)}@example.com`
    // Five free failures, round-robin over the three instances.
    for (let i = 0; i < 5; i++) {
      const origin = all[i % 3]!
      const guess = await new Browser().signIn(origin, email, `guess ${i}`)
      expect(guess.headers.get("location")).toBe(wrong(origin))
      expect(guess.headers.get("retry-after")).toBeNull()
    }
    // The next attempt waits wherever it lands, even with the right password; nothing else is told.
    for (const origin of all) {
      const refused = await new Browser().signIn(origin, email)
      expect(refused.headers.get("location")).toBe(wrong(origin))
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    }
  })

  it("a password account: signed up on one instance, confirmed on another, signed in on a third", async () => {
    const [a, b, c] = instances() as [Instance, Instance, Instance]
    const email = someone("ada")
    const password = "correct horse battery"
    const browser = new Browser()

    const signUp = await browser.submit(a.origin, "/auth/signup", { name: "Ada", email, password })
    expect(signUp.headers.get("location")).toBe(`${a.origin}/auth/signup?sent=1`)
    expect(browser.cookies.has("sesame.session-token")).toBe(false)
    const mail = await a.mail(email)
    expect(mail.kind).toBe("verify-email")
    // Not confirmed yet, as every instance sees it (C sends a new link, which stays unused).
    const early = await new Browser().signIn(c.origin, email, password, "password")
    expect(new URL(early.headers.get("location")!).searchParams.get("error")).toBe("EmailNotVerified")

    // The link, opened on B: its page, then its form with the account's password (the POST with
    // the page's CSRF token). Only whoever chose the password can confirm: a wrong one keeps the link.
    const wrong = await browser.submit(b.origin, pathOf(mail.url), { password: "not the password" })
    expect(new URL(wrong.headers.get("location")!).searchParams.get("error")).toBe("wrong-password")
    const confirmed = await browser.submit(b.origin, pathOf(mail.url), { password })
    expect(confirmed.status).toBe(302)
    // The link names A's origin as where to go; B sends the new user to its own home instead.
    expect(confirmed.headers.get("location")).toBe(`${b.origin}/`)
    for (const { origin } of [a, b, c]) expect((await browser.session(origin))?.user?.email).toBe(email)
    // Used once: the same link on C is refused.
    const replay = await new Browser().submit(c.origin, pathOf(mail.url), { password })
    expect(replay.headers.get("location")).toBe(`${c.origin}/auth/error?error=Verification`)

    const other = new Browser()
    const signIn = await other.signIn(c.origin, email, password, "password")
    expect(signIn.headers.get("location")).toBe(`${c.origin}/welcome`)
    for (const { origin } of [a, b, c]) expect((await other.session(origin))?.user?.email).toBe(email)
  })

  it("a forgotten password asked on one instance and reset on another: the old password, its sessions and the link are spent on all", async () => {
    const [a, b, c] = instances() as [Instance, Instance, Instance]
    const email = someone("grace")
    const oldPassword = "correct horse battery"
    const newPassword = "a brand new passphrase"
    const before = await account(a, a, email, oldPassword)

    const asked = await new Browser().submit(b.origin, "/auth/forgot-password", { email })
    expect(asked.headers.get("location")).toBe(`${b.origin}/auth/forgot-password?sent=1`)
    const mail = await b.mail(email)
    expect(mail.kind).toBe("reset-password")

    const reset = await new Browser().submit(c.origin, pathOf(mail.url), { password: newPassword })
    expect(reset.headers.get("location")).toBe(`${c.origin}/auth/signin?notice=PasswordReset`)
    // Whoever knew the old password is out, wherever they were signed in.
    for (const { origin } of [a, b, c]) expect(await before.session(origin)).toBeNull()
    const old = await new Browser().signIn(a.origin, email, oldPassword, "password")
    expect(old.headers.get("location")).toBe(wrong(a.origin))
    const fresh = new Browser()
    const signIn = await fresh.signIn(a.origin, email, newPassword, "password")
    expect(signIn.headers.get("location")).toBe(`${a.origin}/welcome`)
    expect((await fresh.session(b.origin))?.user?.email).toBe(email)

    // The link, replayed on A, is refused and changes nothing.
    const replay = await new Browser().submit(a.origin, pathOf(mail.url), { password: "yet another passphrase" })
    expect(replay.headers.get("location")).toBe(`${a.origin}/auth/error?error=Verification`)
    expect((await new Browser().signIn(b.origin, email, newPassword, "password")).headers.get("location")).toBe(`${b.origin}/welcome`)
  })

  it("password guesses at one password account, spread over the instances, are throttled together", async () => {
    const all = instances()
    const email = someone("linus")
    const password = "correct horse battery"
    await account(all[0]!, all[1]!, email, password)
    // Five free failures, round-robin over the three instances.
    for (let i = 0; i < 5; i++) {
      const origin = all[i % 3]!.origin
      const guess = await new Browser().signIn(origin, email, `guess number ${i}`, "password")
      expect(guess.headers.get("location")).toBe(wrong(origin))
      expect(guess.headers.get("retry-after")).toBeNull()
    }
    // The sixth, on the third instance, must wait, even with the right password; nothing else is told.
    const third = all[2]!.origin
    const refused = await new Browser().signIn(third, email, password, "password")
    expect(refused.headers.get("location")).toBe(wrong(third))
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(0)
    // Once the wait is over, the right password gets in, through another instance.
    await sleep(retryAfter * 1000)
    const first = all[0]!.origin
    expect((await new Browser().signIn(first, email, password, "password")).headers.get("location")).toBe(`${first}/welcome`)
  })
}

describe("three instances sharing PostgreSQL", () => {
  const schema = testSchema("multi")
  const pool = schema.pool()
  let instances: Instance[] = []

  beforeAll(async () => {
    await schema.create()
    const migrated = await sesame(["migrate", "--adapter", "pg", "--url", schema.url])
    expect(migrated.stderr).toBe("")
    instances = await Promise.all([1, 2, 3].map(() => startInstance({ DATABASE_URL: schema.url, AUTH_SECRET: secret })))
  })
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()))
    await schema.drop()
  })

  sharesSessions(
    () => instances,
    async () => (await pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM sesame_sessions`)).rows[0]!.n,
  )
})

const root = join(import.meta.dirname, "..", "..", "..")
const hasRedisAdapter = existsSync(join(root, "packages", "adapter-redis", "package.json"))

/** The few ioredis calls this test needs (ioredis comes with @sesame/adapter-redis, when present). */
interface RedisClient {
  keys(pattern: string): Promise<string[]>
  del(...keys: string[]): Promise<number>
  quit(): Promise<unknown>
}

describe.skipIf(!hasRedisAdapter)(
  hasRedisAdapter ? "three instances sharing Redis" : "three instances sharing Redis (skipped: packages/adapter-redis is not in this workspace)",
  () => {
    const url = process.env.SESAME_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
    const prefix = `sesame-multi-${crypto.randomUUID().slice(0, 8)}:`
    let redis: RedisClient
    let instances: Instance[] = []

    beforeAll(async () => {
      // A variable specifier: ioredis is only installed alongside @sesame/adapter-redis.
      const ioredis = "ioredis"
      const { default: Redis } = (await import(ioredis)) as { default: new (url: string) => RedisClient }
      redis = new Redis(url)
      instances = await Promise.all([1, 2, 3].map(() => startInstance({ REDIS_URL: url, REDIS_PREFIX: prefix, AUTH_SECRET: secret })))
    })
    afterAll(async () => {
      await Promise.all(instances.map((i) => i.stop()))
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
    })

    // The key layout is the Redis adapter's own: what is checked here is what every instance sees.
    sharesSessions(() => instances)
  },
)
