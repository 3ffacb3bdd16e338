/**
 * Threat: a JWT session outlives what should have ended it. The red team's case: someone signs in
 * with a password they stole; the owner resets it; the thief's JWT, which no server stores, kept
 * working until it expired. With `session.revocation`, each user has a "sessions valid after" time
 * in the store, checked at every read through a short cache (`session/revocation.ts`), and set by a
 * password reset or change, "sign out everywhere else", `deleteUser` and a plugin that ends a
 * user's sessions (a ban). Each attack is beside the legitimate flow it must not break: the owner
 * signs in again at once, the session that made the change stays.
 */
import { Auth, changePassword, deleteUser, modelsOf, revokeOtherSessions, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"
import { encode } from "@sesame/core/jwt"
import { describe, expect, it } from "vitest"
import { CookieJar, frozenClock, origin, request, secret, send } from "../helpers.js"
import { sessionRevocationModel } from "../../src/session/revocation.js"
import { email, owner as signUpOwner, password, passwordApp, post, sessionEmail, signIn as signInOwner, type PasswordApp } from "./password-owner.js"

const advance = frozenClock("2030-01-01T09:00:00Z")
const cookieName = "sesame.session-token"
type App = PasswordApp

/** An app with the password provider and JWT sessions; `revocation` as given (on, cache 0, by default). */
function app(revocation: NonNullable<AuthConfig["session"]>["revocation"] = { cache: 0 }, adapter = MemoryAdapter(), extra: Partial<AuthConfig> = {}): App {
  return passwordApp({ strategy: "jwt", revocation }, adapter, extra)
}

/** A second instance of the same app: its own configuration object (its own cache), the same store. */
function instance(of: App, revocation: NonNullable<AuthConfig["session"]>["revocation"]): AuthConfig {
  return { ...of.config, session: { strategy: "jwt", revocation } }
}

/** A second browser holding the same cookies (a stolen copy). */
function copyOf(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

/** The owner signed up, confirmed and signed in; a second passes after each sign-in (the clock is frozen otherwise). */
const owner = (app: App) => signUpOwner(app, () => advance(1_000))
const signIn = (config: AuthConfig, typed: string) => signInOwner(config, typed, () => advance(1_000))

/** Resets the owner's password through the emailed link. */
async function reset(app: App, newPassword: string): Promise<void> {
  await post(app.config, "/auth/forgot-password/password", { email })
  const link = new URL(app.mails.filter((m) => m.kind === "reset-password").at(-1)!.url)
  const done = await post(app.config, "/auth/reset-password/password", { token: link.searchParams.get("token")!, email, password: newPassword })
  expect(done.location).toBe(`${origin}/auth/signin?notice=PasswordReset`)
}

describe("a password reset", () => {
  it("ends the JWT session a thief started with the old password; the owner signs in again at once", async () => {
    const victim = app()
    await owner(victim)
    const thief = await signIn(victim.config, password)
    expect(await sessionEmail(victim.config, thief)).toBe(email)

    await reset(victim, "the owner's new passphrase")

    // Refused at its next read, and its cookie cleared.
    const response = await send(victim.config, "/auth/session", { jar: thief })
    expect(await response.json()).toBeNull()
    expect(thief.get(cookieName)).toBeUndefined()
    // The old password no longer signs in; the new one does, a millisecond after the reset (one
    // started in the very millisecond of a cut is ended with it: which came first is not known).
    expect((await post(victim.config, "/auth/callback/password", { email, password })).location).toContain("error=CredentialsSignin")
    advance(1)
    const again = await signIn(victim.config, "the owner's new passphrase")
    expect(await sessionEmail(victim.config, again)).toBe(email)
    expect(victim.errors.filter((e) => e.name !== "CredentialsSignin")).toEqual([])
  })

  it("is refused on another instance within the cache bound, and at once on the instance that reset", async () => {
    const victim = app({ cache: 30 })
    const other = instance(victim, { cache: 30 })
    await owner(victim)
    const thief = await signIn(victim.config, password)
    // The other instance reads the session first, and believes what it read for 30 seconds.
    expect(await sessionEmail(other, thief)).toBe(email)
    advance(1_000)
    await reset(victim, "the owner's new passphrase")

    expect(await sessionEmail(victim.config, copyOf(thief))).toBeNull()
    advance(10_000)
    expect(await sessionEmail(other, copyOf(thief))).toBe(email)
    advance(20_000)
    // 31 s after the other instance read the user: it asks the store again.
    expect(await sessionEmail(other, thief)).toBeNull()
  })

  it("without session.revocation, leaves JWT sessions alone (the documented default)", async () => {
    const victim = app(false)
    await owner(victim)
    const thief = await signIn(victim.config, password)
    await reset(victim, "the owner's new passphrase")
    expect(await sessionEmail(victim.config, thief)).toBe(email)
  })
})

describe("the owner's own changes keep the session that made them", () => {
  it("changePassword ends the other browser's JWT session, not this one", async () => {
    const victim = app()
    const mine = await owner(victim)
    const thief = await signIn(victim.config, password)
    const result = await changePassword(request("/", { jar: mine }), victim.config, { currentPassword: password, newPassword: "a brand new passphrase" })
    expect(result).toEqual({ changed: true, sessionsEnded: 0 })
    expect(await sessionEmail(victim.config, thief)).toBeNull()
    expect(await sessionEmail(victim.config, mine)).toBe(email)
  })

  it("revokeOtherSessions signs every other browser out, this one stays, also after a re-issue", async () => {
    const victim = app()
    const mine = await owner(victim)
    const laptop = await signIn(victim.config, password)
    const phone = await signIn(victim.config, password)
    expect(await revokeOtherSessions(request("/", { jar: mine }), victim.config)).toBe(0)
    expect(await sessionEmail(victim.config, laptop)).toBeNull()
    expect(await sessionEmail(victim.config, phone)).toBeNull()
    // A day later the token is re-issued (updateAge): it keeps its session id, and stays.
    advance(25 * 3_600_000)
    const reissued = await send(victim.config, "/auth/session", { jar: mine })
    expect(reissued.headers.getSetCookie().some((c) => c.startsWith(`${cookieName}=ey`))).toBe(true)
    expect(await sessionEmail(victim.config, mine)).toBe(email)
  })

  it("a thief who copied the kept session's cookie keeps it: the session, not the browser, is kept", async () => {
    const victim = app()
    const mine = await owner(victim)
    const copied = copyOf(mine)
    await revokeOtherSessions(request("/", { jar: mine }), victim.config)
    expect(await sessionEmail(victim.config, copied)).toBe(email)
  })

  it("revokeOtherSessions with JWT sessions and no session.revocation says it cannot", async () => {
    const victim = app(false)
    const mine = await owner(victim)
    await expect(revokeOtherSessions(request("/", { jar: mine }), victim.config)).rejects.toMatchObject({ type: "UnsupportedStrategy" })
  })
})

describe("a deleted user's JWT sessions", () => {
  it("end everywhere, and stay ended once the user's row is gone", async () => {
    const victim = app()
    const mine = await owner(victim)
    const other = await signIn(victim.config, password)
    const id = (await victim.adapter.getUserByEmail(email))!.id
    expect(await deleteUser(request("/", { jar: mine }), victim.config)).toEqual({ deleted: true })
    expect(await victim.adapter.getUser(id)).toBeNull()
    expect(await victim.adapter.store.findOne(sessionRevocationModel, { userId: id })).not.toBeNull()
    expect(await sessionEmail(victim.config, other)).toBeNull()
    expect(await sessionEmail(victim.config, mine)).toBeNull()
  })
})

describe("a plugin that ends a user's sessions (a ban)", () => {
  const banning: SesameModule = {
    id: "banning",
    api: {
      async ban(req, userId: string) {
        return req.users!.endSessions(userId)
      },
    },
  }

  it("ends their JWT sessions", async () => {
    const victim = app({ cache: 0 }, MemoryAdapter(), { plugins: [banning] })
    const mine = await owner(victim)
    const id = (await victim.adapter.getUserByEmail(email))!.id
    const { callModuleApi } = await import("@sesame/core")
    await callModuleApi(request("/"), victim.config, "ban", id)
    expect(await sessionEmail(victim.config, mine)).toBeNull()
  })
})

describe("tokens made before session.revocation existed", () => {
  it("count from their sign-in: one signed in before the cut is refused, and an app's claim named sid cannot spare it", async () => {
    const victim = app()
    const mine = await owner(victim)
    const id = (await victim.adapter.getUserByEmail(email))!.id
    const signedInAt = Math.floor(Date.now() / 1000)
    advance(60_000)
    await revokeOtherSessions(request("/", { jar: mine }), victim.config)
    // An older token: no `sid`, no `started_at`, signed in a minute before the cut.
    const old = await encode({ token: { sub: id, email, auth_time: signedInAt }, secret, salt: cookieName })
    const jar = new CookieJar()
    jar.cookies.set(cookieName, old)
    expect(await sessionEmail(victim.config, jar)).toBeNull()
  })
})

describe("reads while the store is down", () => {
  it("answer 503 and keep the cookie: could not ask is not ended", async () => {
    const adapter = MemoryAdapter()
    const victim = app({ cache: 0 }, adapter)
    const mine = await owner(victim)
    const findOne = adapter.store.findOne
    adapter.store.findOne = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))
    try {
      const response = await send(victim.config, "/auth/session", { jar: mine })
      expect(response.status).toBe(503)
      expect(mine.get(cookieName)).toBeDefined()
    } finally {
      adapter.store.findOne = findOne
    }
    expect(await sessionEmail(victim.config, mine)).toBe(email)
  })
})

describe("the configuration", () => {
  it("refuses session.revocation with an adapter that has no generic store (Auth.js's), naming why", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const errors: Error[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: withoutStore as Adapter,
      providers: [],
      session: { strategy: "jwt", revocation: true },
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    }
    const response = await Auth(new Request(`${origin}/auth/session`), config)
    expect(response.status).toBe(500)
    expect(errors.map((e) => e.message).join(" ")).toMatch(/generic store.*Auth\.js/)
    // The same adapter without the option serves JWT sessions as the spec describes.
    const plain = await Auth(new Request(`${origin}/auth/session`), { ...config, session: { strategy: "jwt" } })
    expect(plain.status).toBe(200)
  })

  it("refuses a cache that is not a number of seconds", async () => {
    const broken = app({ cache: -1 })
    const response = await Auth(new Request(`${origin}/auth/session`), broken.config)
    expect(response.status).toBe(500)
    expect(broken.errors.map((e) => e.message).join(" ")).toMatch(/session\.revocation\.cache/)
  })

  it("hands the model to migrate only when the option is on", () => {
    expect(modelsOf({ plugins: [] })).toEqual([])
    expect(modelsOf({ plugins: [], session: { revocation: true } })).toEqual([sessionRevocationModel])
    expect(modelsOf({ plugins: [], session: { revocation: false } })).toEqual([])
  })

  it("changes nothing with database sessions, which end by being deleted", async () => {
    const victim = app({ cache: 0 }, MemoryAdapter(), {})
    victim.config.session = { strategy: "database", revocation: true }
    const mine = await owner(victim)
    const other = await signIn(victim.config, password)
    // The browser that confirmed the address was signed in too.
    expect(await revokeOtherSessions(request("/", { jar: mine }), victim.config)).toBe(2)
    expect(await sessionEmail(victim.config, other)).toBeNull()
    expect(await sessionEmail(victim.config, mine)).toBe(email)
    expect(await victim.adapter.store.count(sessionRevocationModel, {})).toBe(0)
  })
})
