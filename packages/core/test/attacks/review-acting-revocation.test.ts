/**
 * Security review of JWT session revocation, the plugins' word on every sign-in and acting
 * sessions: races between a sign-in and what ends sessions, the millisecond edge of the cut, a
 * sign-out in an acting session, the actor losing their own session while acting, the app's `jwt`
 * callback, and a storage outage in a plugin's check. Each test performs the attack and asserts the
 * secure outcome.
 */
import { changePassword, deleteUser, revokeOtherSessions, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage } from "@sesame/testing"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, oidc, signIn as oauthSignIn, startIdp } from "../oauth/harness.js"
import { CookieJar, csrfToken, frozenClock, origin, request, send } from "../helpers.js"
import { actingApp, actor, postJson, signInAs, who } from "../modules/acting-app.js"
import { email, owner as signUpOwner, password, passwordApp as makePasswordApp, post, sessionEmail, type PasswordApp } from "./password-owner.js"

const advance = frozenClock("2030-01-01T09:00:00Z")
const hour = 3_600_000

// ---------------------------------------------------------------------------------------------
// JWT revocation with the password provider (as packages/core/test/attacks/jwt-revocation.test.ts)

/** The app with JWT sessions (`session.revocation`, cache 0) or database sessions, and `extra` over it. */
function passwordApp(extra: Partial<AuthConfig> = {}, strategy: "jwt" | "database" = "jwt"): PasswordApp {
  return makePasswordApp({ strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}) }, MemoryAdapter(), extra)
}

/** The owner signed up, confirmed and signed in; a second passes after (the clock is frozen otherwise). */
const owner = (app: PasswordApp) => signUpOwner(app, () => advance(1_000))

describe("JWT revocation races", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) a password change that lands while a thief's sign-in with the old password is under way ends the thief's session`, async () => {
      let changeNow: (() => Promise<void>) | undefined
      const app = passwordApp(
        {
          callbacks: {
            // The app's own callback, awaited between the password check and the session: the owner's
            // change (another request) lands here.
            async signIn() {
              const run = changeNow
              changeNow = undefined
              if (run) await run()
              return true
            },
          },
        },
        strategy,
      )
      const mine = await owner(app)
      changeNow = async () => {
        const result = await changePassword(request("/", { jar: mine }), app.config, { currentPassword: password, newPassword: "a brand new passphrase" })
        expect(result).toMatchObject({ changed: true })
        advance(5)
      }
      const thief = await post(app.config, "/auth/callback/password", { email, password })
      expect(changeNow).toBeUndefined()
      expect(await sessionEmail(app.config, thief.jar)).toBeNull()
      // The owner's own session stays.
      expect(await sessionEmail(app.config, mine)).toBe(email)
    })
  }

  it("a thief's JWT session started in the very millisecond of 'sign out everywhere else' is ended with the others", async () => {
    const app = passwordApp()
    const mine = await owner(app)
    // The clock does not move between the thief's sign-in and the owner's cut.
    const thief = await post(app.config, "/auth/callback/password", { email, password })
    expect(await sessionEmail(app.config, thief.jar)).toBe(email)
    await revokeOtherSessions(request("/", { jar: mine }), app.config)
    expect(await sessionEmail(app.config, mine)).toBe(email)
    expect(await sessionEmail(app.config, thief.jar)).toBeNull()
  })

  it("an app's jwt callback cannot move a session's start past the cut (started_at and sid are Sesame's)", async () => {
    const app = passwordApp({ callbacks: { jwt: ({ token }) => ({ ...token, started_at: Date.now() + 10 * 365 * 86_400_000, sid: "shared", auth_time: 9_999_999_999 }) } })
    const mine = await owner(app)
    const other = await post(app.config, "/auth/callback/password", { email, password })
    advance(1_000)
    // A re-issue (POST session) lets the callback run again on the token.
    await send(app.config, "/auth/session", { jar: other.jar, json: { csrfToken: await csrfToken(app.config, other.jar), data: {} } })
    advance(1_000)
    await revokeOtherSessions(request("/", { jar: mine }), app.config)
    expect(await sessionEmail(app.config, other.jar)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// Acting sessions (as packages/core/test/modules/acting.test.ts)

describe("acting sessions under attack", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) a sign-out in an acting session signs the browser out for good: the kept session does not come back`, async () => {
      const config = actingApp(strategy)
      const jar = await signInAs(config, "alice@example.com")
      expect(await postJson(config, jar, "/auth/act/start")).toEqual({ started: true })
      await send(config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(config, jar) } })
      expect(await who(config, jar)).toBeNull()
      // Whoever uses this browser next.
      expect(await postJson(config, jar, "/auth/act/stop")).toEqual({ restored: false })
      expect(await who(config, jar)).toBeNull()
    })

    it(`(${strategy}) an acting session ends when the actor's own sessions are ended`, async () => {
      const config = actingApp(strategy)
      const jar = await signInAs(config, "alice@example.com")
      await postJson(config, jar, "/auth/act/start")
      expect(await who(config, jar)).toBe("bob@example.com")
      advance(1_000)
      // The actor's sessions are ended (a password reset, a suspension, their account deleted).
      const { callModuleApi } = await import("@sesame/core")
      await callModuleApi(request("/"), config, "endSessionsOf", "alice")
      expect(await who(config, jar)).toBeNull()
    })

    it(`(${strategy}) an acting session ends when the user's sessions are ended`, async () => {
      const config = actingApp(strategy)
      const jar = await signInAs(config, "alice@example.com")
      await postJson(config, jar, "/auth/act/start")
      advance(1_000)
      const { callModuleApi } = await import("@sesame/core")
      await callModuleApi(request("/"), config, "endSessionsOf", "bob")
      expect(await who(config, jar)).toBeNull()
    })

    it(`(${strategy}) a session cookie and a kept-session cookie swapped do not open as each other`, async () => {
      const config = actingApp(strategy)
      const jar = await signInAs(config, "alice@example.com")
      await postJson(config, jar, "/auth/act/start")
      const keptName = [...jar.cookies.keys()].find((name) => name.startsWith("sesame.kept-session"))!
      const kept = jar.cookies.get(keptName)!
      const acting = jar.cookies.get("sesame.session-token")!
      // The kept cookie as a session: nobody.
      const swapped = new CookieJar()
      swapped.cookies.set("sesame.session-token", kept)
      expect(await who(config, swapped)).toBeNull()
      // The acting session as a kept cookie: stopping brings back nothing (and not the acting user).
      const other = await signInAs(config, "bob@example.com")
      await send(config, "/auth/signout", { jar: other, form: { csrfToken: await csrfToken(config, other) } })
      other.cookies.set(keptName, acting)
      expect(await postJson(config, other, "/auth/act/stop")).toEqual({ restored: false })
      expect(await who(config, other)).toBeNull()
    })
  }

  it("the app's jwt callback on an update cannot drop the acting mark or extend it", async () => {
    const config = actingApp("jwt", {
      callbacks: { jwt: ({ token, trigger }) => (trigger === "update" ? { sub: token.sub, email: token.email, act: { by: "x", until: Number.MAX_SAFE_INTEGER } } : token) },
    })
    const jar = await signInAs(config, "alice@example.com")
    await postJson(config, jar, "/auth/act/start")
    await send(config, "/auth/session", { jar, json: { csrfToken: await csrfToken(config, jar), data: { x: 1 } } })
    expect(await deleteUser(request("/", { jar }), config)).toEqual({ deleted: false, reason: "SignInTooOld" })
    advance(hour + 1_000)
    expect(await who(config, jar)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// A plugin's check on every sign-in during a storage outage

describe("checkSignIn during a storage outage", () => {
  it("answers 503 (could not ask), not a refusal that reads as 'access denied'", async () => {
    const storage = outage(MemoryAdapter())
    const memory = storage.adapter as unknown as ReturnType<typeof MemoryAdapter>
    const checker: SesameModule = {
      id: "checker",
      models: [{ name: "checkerRow", table: "checker_rows", primaryKey: ["id"], fields: { id: { type: "string" } } }],
      async checkSignIn(_params, context) {
        storage.down()
        try {
          await context.store!.findOne({ name: "checkerRow", table: "checker_rows", primaryKey: ["id"], fields: { id: { type: "string" } } }, { id: "x" })
          return true
        } finally {
          storage.up()
        }
      },
    }
    const config = actingApp("database", { adapter: memory, plugins: [checker] })
    const jar = new CookieJar()
    const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "alice@example.com" } })
    expect(response.status).toBe(503)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })
})

describe("an acting session's check during a storage outage", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) answers 503 and keeps the cookie: "could not ask" is not "ended"`, async () => {
      const storage = outage(MemoryAdapter())
      const memory = storage.adapter as unknown as ReturnType<typeof MemoryAdapter>
      const model = { name: "holdRow", table: "hold_rows", primaryKey: ["id"], fields: { id: { type: "string" } } } as const
      let failing = false
      const checked: SesameModule = {
        ...actor(),
        models: [model],
        // The module's own lookup meets the outage; everything else of the request still reaches the store.
        async actingHolds(_part, context) {
          if (failing) storage.down()
          try {
            await context.store!.findOne(model, { id: "x" })
            return true
          } finally {
            storage.up()
          }
        },
      }
      const config = actingApp(strategy, { adapter: memory, plugins: [checked] })
      const jar = await signInAs(config, "alice@example.com")
      await postJson(config, jar, "/auth/act/start")
      const acting = jar.get("sesame.session-token")
      failing = true
      expect((await send(config, "/auth/session", { jar })).status).toBe(503)
      expect(jar.get("sesame.session-token")).toBe(acting)
      failing = false
      expect(await who(config, jar)).toBe("bob@example.com")
    })
  }
})

// ---------------------------------------------------------------------------------------------
// A deletion whose "sessions valid after" write fails

/** `adapter` (an outage's) that goes down right after `method` succeeds once. */
function downAfter<A extends object>(adapter: A, method: string, down: () => void): A {
  let done = false
  return new Proxy(adapter, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown
      if (typeof value !== "function") return value
      if (property === "withUserFields") return (...args: unknown[]) => downAfter((value as (...a: unknown[]) => A).apply(object, args), method, down)
      if (property === method && !done) {
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => unknown).apply(object, args)
          done = true
          down()
          return result
        }
      }
      return (value as (...a: unknown[]) => unknown).bind(object)
    },
  })
}

describe("deleting a user during a storage outage", () => {
  it("a JWT session of the deleted user on another device does not outlive a deletion whose cut could not be written", async () => {
    const storage = outage(MemoryAdapter())
    const adapter = downAfter(storage.adapter, "deleteUser", () => storage.down())
    const app = passwordApp({ adapter: adapter as never })
    const mine = await owner(app)
    const { jar: other } = await post(app.config, "/auth/callback/password", { email, password })
    expect(await sessionEmail(app.config, other)).toBe(email)
    // The user's row goes; the storage fails before the cut is written.
    const outcome = await deleteUser(request("/", { jar: mine }), app.config).then(
      (result) => result,
      (error: unknown) => ({ error: (error as Error).name }),
    )
    storage.up()
    // The user tries again, as a 503 asks: the user is already gone.
    const retried = await deleteUser(request("/", { jar: mine }), app.config).catch((error: unknown) => ({ error: (error as Error).name }))
    expect([outcome, retried]).toBeDefined()
    // The deleted user's session on the other device must not still be signed in.
    expect(await sessionEmail(app.config, other)).toBeNull()
  })
})

describe("checkSignIn's URL", () => {
  for (const target of ["//evil.example/x", "https://evil.example/", "javascript:alert(1)", "/\\evil.example", "http://localhost:3000@evil.example/", " https://evil.example", "HTTPS://evil.example", "\\\\evil.example", "http:evil.example"]) {
    it(`never sends the browser off-site: ${JSON.stringify(target)}`, async () => {
      const redirecting: SesameModule = { id: "redirecting", checkSignIn: () => target }
      const config = actingApp("database", { plugins: [redirecting] })
      const jar = new CookieJar()
      const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "alice@example.com" } })
      const location = response.headers.get("location") ?? ""
      expect(new URL(location, origin).origin).toBe(origin)
      expect(jar.get("sesame.session-token")).toBeUndefined()
    })
  }

  it("a truthy answer that is not true refuses", async () => {
    for (const answer of [1, {}, [], "true"] as unknown[]) {
      const config = actingApp("database", { plugins: [{ id: "odd", checkSignIn: () => answer as never }] })
      const jar = new CookieJar()
      await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "alice@example.com" } })
      expect(jar.get("sesame.session-token"), JSON.stringify(answer)).toBeUndefined()
    }
  })
})

describe("a sign-in from inside an acting session", () => {
  let idp: DevIdp
  beforeAll(async () => {
    idp = await startIdp({ clients: [client("dev")] })
  })
  afterAll(() => idp?.close())

  for (const strategy of ["jwt", "database"] as const) {
    it(`(${strategy}) an OAuth sign-in links nothing to the acted-as user and leaves no plain session of theirs`, async () => {
      const config = actingApp(strategy)
      config.providers.push(oidc(idp))
      const jar = await signInAs(config, "alice@example.com")
      expect(await postJson(config, jar, "/auth/act/start")).toEqual({ started: true })
      // The IdP account "bob", linked to no one: linking goes by who is signed in, here the acted-as user.
      await oauthSignIn(config, jar, "dev", { query: { login_hint: "bob" } })
      const adapter = config.adapter as ReturnType<typeof MemoryAdapter>
      expect.soft([...adapter.tables.accounts.values()].filter((a) => a.userId === "bob" && a.provider === "dev")).toEqual([])
      expect(await deleteUser(request("/", { jar }), config)).toMatchObject({ deleted: false })
    })
  }
})
