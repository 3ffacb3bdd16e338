/**
 * Three app instances, three processes on three loopback ports, sharing one store: a session
 * started through one is valid on the others, and a sign-out through one ends it everywhere; and
 * password guesses spread over the instances are counted together by the sign-in throttle.
 * Run once against PostgreSQL (schema created by the real `sesame migrate`, as a deployment would)
 * and once against Redis, when @sesame/adapter-redis exists in the workspace.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
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
    const wrong = (origin: string) => {
      const url = new URL(`${origin}/auth/signin`)
      url.searchParams.set("callbackUrl", `${origin}/welcome`)
      url.searchParams.set("error", "CredentialsSignin")
      url.searchParams.set("code", "credentials")
      return url.href
    }
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
