import { createHash } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import { Auth, listSessions, revokeOtherSessions, revokeSession, type AuthConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { UnsupportedStrategy } from "@sesame/core/errors"
import { aliceCredentials, CookieJar, csrfToken, home, jwtConfig, origin, recordingLogger, request, secret, send, signInAlice, frozenClock } from "./helpers.js"

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")
const day = 86_400_000

function dbConfig(adapter: MemoryAdapterInstance, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], ...overrides }
}

const advance = frozenClock("2026-01-01T12:00:00Z")

describe("database sessions", () => {
  it("is the default with an adapter: the cookie is a 256-bit random token, only its SHA-256 is stored", async () => {
    const adapter = MemoryAdapter()
    const jar = new CookieJar()
    const res = await signInAlice(dbConfig(adapter), jar)
    const token = jar.get("sesame.session-token")!
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = [...adapter.tables.sessions.values()]
    expect(stored).toHaveLength(1)
    expect(stored[0]!.sessionToken).toBe(sha256(token))
    for (const value of Object.values(stored[0]!)) expect(String(value)).not.toContain(token)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("sesame.session-token="))!
    expect(cookie).toContain(`Expires=${new Date(Date.now() + 30 * day).toUTCString()}`)
  })

  it("reads the session with getSessionAndUser; the session callback receives the user", async () => {
    const adapter = MemoryAdapter()
    const session = vi.fn(({ session, user, token }) => ({ ...session, user: { ...session.user, id: user.id }, sub: token.sub }))
    const config = dbConfig(adapter, { callbacks: { session } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const body = await (await send(config, "/auth/session", { jar })).json()
    const userId = [...adapter.tables.users.keys()][0]
    expect(body).toEqual({
      user: { name: "Alice", email: "alice@example.com", image: null, id: userId },
      expires: new Date(Date.now() + 30 * day).toISOString(),
      sub: userId,
    })
    expect(session).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: userId, emailVerified: null }) }))
  })

  it("extends expires by maxAge at most once per updateAge, re-sending the cookie only then", async () => {
    const adapter = MemoryAdapter()
    const updateSession = vi.spyOn(adapter, "updateSession")
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const signedInAt = Date.now()

    advance(60 * 60_000)
    const early = await send(config, "/auth/session", { jar })
    expect((await early.json()).expires).toBe(new Date(signedInAt + 30 * day).toISOString())
    expect(early.headers.getSetCookie()).toEqual([])
    expect(updateSession).not.toHaveBeenCalled()

    advance(day)
    const later = await send(config, "/auth/session", { jar })
    expect((await later.json()).expires).toBe(new Date(Date.now() + 30 * day).toISOString())
    expect(updateSession).toHaveBeenCalledTimes(1)
    expect(later.headers.getSetCookie()[0]).toContain(`Expires=${new Date(Date.now() + 30 * day).toUTCString()}`)
    expect([...adapter.tables.sessions.values()][0]!.expires.getTime()).toBe(Date.now() + 30 * day)

    advance(60_000)
    await send(config, "/auth/session", { jar })
    expect(updateSession).toHaveBeenCalledTimes(1)
  })

  it("with updateAge 0, extends on every read", async () => {
    const adapter = MemoryAdapter()
    const updateSession = vi.spyOn(adapter, "updateSession")
    const config = dbConfig(adapter, { session: { updateAge: 0 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    for (let i = 1; i <= 3; i++) {
      advance(1000)
      await send(config, "/auth/session", { jar })
      expect(updateSession).toHaveBeenCalledTimes(i)
    }
  })

  it("removes an expired session and clears the cookie", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter, { session: { maxAge: 3600 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    advance(3600_000 + 1000)
    const res = await send(config, "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(adapter.tables.sessions.size).toBe(0)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("an active session never expires; an idle one expires after maxAge", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter, { session: { maxAge: (2 * day) / 1000, updateAge: 0 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    for (let i = 0; i < 5; i++) {
      advance(day)
      expect(await (await send(config, "/auth/session", { jar })).json()).not.toBeNull()
    }
    advance(2 * day + 1000)
    expect(await (await send(config, "/auth/session", { jar })).json()).toBeNull()
  })

  it("sign-out deletes the session and sends signOut with it", async () => {
    const adapter = MemoryAdapter()
    const signOut = vi.fn()
    const config = dbConfig(adapter, { events: { signOut } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const stored = [...adapter.tables.sessions.values()][0]!
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/signout", { jar, form: { csrfToken: token } })
    expect(res.headers.get("location")).toBe(home)
    expect(adapter.tables.sessions.size).toBe(0)
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ sessionToken: stored.sessionToken }) })
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("an update reaches the session callback as newSession with trigger update", async () => {
    const adapter = MemoryAdapter()
    const session = vi.fn(({ session, trigger, newSession }) => (trigger === "update" ? { ...session, note: (newSession as { note: string }).note } : session))
    const config = dbConfig(adapter, { callbacks: { session } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/session", { jar, json: { csrfToken: token, data: { note: "hello" } } })
    expect((await res.json()).note).toBe("hello")
    expect(session).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "update", newSession: { note: "hello" } }))
  })

  it("sends the session event with the session", async () => {
    const adapter = MemoryAdapter()
    const sessionEvent = vi.fn()
    const config = dbConfig(adapter, { events: { session: sessionEvent } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    await send(config, "/auth/session", { jar })
    expect(sessionEvent).toHaveBeenCalledWith({ session: expect.objectContaining({ user: expect.objectContaining({ email: "alice@example.com" }) }) })
  })

  it("honours generateSessionToken, storing only its hash", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter, { session: { generateSessionToken: () => "custom-token-value-1234567890" } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(jar.get("sesame.session-token")).toBe("custom-token-value-1234567890")
    expect([...adapter.tables.sessions.keys()]).toEqual([sha256("custom-token-value-1234567890")])
  })

  it("replaces a planted session cookie at sign-in, and deletes the session the browser had", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const first = jar.get("sesame.session-token")
    await signInAlice(config, jar)
    expect(jar.get("sesame.session-token")).not.toBe(first)
    expect(adapter.tables.sessions.size).toBe(1)
    const planted = new CookieJar()
    planted.cookies.set("sesame.session-token", "attacker-chosen-token")
    await signInAlice(config, planted)
    expect(planted.get("sesame.session-token")).not.toBe("attacker-chosen-token")
  })

  it("answers null for unknown or absurd tokens and clears the cookie", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter)
    for (const value of ["unknown-token", "x".repeat(600)]) {
      const res = await send(config, "/auth/session", { cookie: `sesame.session-token=${value}` })
      expect(await res.json()).toBeNull()
      expect(res.headers.getSetCookie()[0]).toMatch(/^sesame\.session-token=; Path=\/; Max-Age=0/)
    }
  })

  it("during a database outage answers null but keeps the cookie", async () => {
    const adapter = MemoryAdapter()
    const errors: Error[] = []
    const config = dbConfig(adapter, { logger: { error: (e) => errors.push(e) } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    vi.spyOn(adapter, "getSessionAndUser").mockRejectedValueOnce(new Error("connection refused"))
    const res = await send(config, "/auth/session", { jar })
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(errors.map((e) => e.name)).toContain("SessionTokenError")
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
  })

  it("explicit jwt strategy with an adapter writes a JWT and no session row", async () => {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter, { session: { strategy: "jwt" } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(jar.get("sesame.session-token")!.split(".")).toHaveLength(5)
    expect(adapter.tables.sessions.size).toBe(0)
  })
})

describe("credentials with database sessions", () => {
  it("signs a known user in (by id, then email) without creating anyone", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "db-alice", email: "alice@example.com", emailVerified: null, name: "Alice (db)", image: null })
    const createUser = vi.fn()
    const config = dbConfig(adapter, { providers: [aliceCredentials()], events: { createUser } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const body = await (await send(config, "/auth/session", { jar })).json()
    expect(body.user.name).toBe("Alice (db)")
    expect([...adapter.tables.sessions.values()][0]!.userId).toBe("db-alice")
    expect(createUser).not.toHaveBeenCalled()
  })

  it("says at start, once, that a provider without createUser signs in only the adapter's users; the refusal's log names the fix, the visitor's page nothing", async () => {
    const warned = async (overrides: Partial<AuthConfig>) => {
      const { lines, logger } = recordingLogger()
      const config = dbConfig(MemoryAdapter(), { logger, ...overrides })
      // The first request resolves the configuration, as an integration's first does.
      await send(config, "/auth/providers")
      return { lines, config }
    }
    const { lines, config } = await warned({ providers: [aliceCredentials()] })
    expect(lines).toEqual(["credentials-users-not-created"])
    const res = await signInAlice(config, new CookieJar())
    expect(res.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(lines.slice(1).join("\n")).toContain("Set `createUser: true` on the provider")
    // The visitor's page says only that the sign-in was refused.
    const page = await (await send(config, "/auth/error?error=AccessDenied")).text()
    expect(page).not.toMatch(/createUser|adapter|does not know/)

    // A choice made either way, or sessions that store nothing, say nothing.
    for (const quiet of [
      { providers: [aliceCredentials({ createUser: true })] },
      { providers: [aliceCredentials({ createUser: false })] },
      { providers: [aliceCredentials()], session: { strategy: "jwt" as const } },
    ]) {
      expect((await warned(quiet)).lines).toEqual([])
    }
  })

  it("refuses an unknown user unless the provider sets createUser, which creates it once", async () => {
    const refusing = MemoryAdapter()
    const res = await signInAlice(dbConfig(refusing, { providers: [aliceCredentials()], logger: { error: () => {} } }), new CookieJar())
    expect(res.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(refusing.tables.users.size).toBe(0)

    const adapter = MemoryAdapter()
    const events = { createUser: vi.fn(), signIn: vi.fn() }
    const config = dbConfig(adapter, { events })
    await signInAlice(config, new CookieJar())
    await signInAlice(config, new CookieJar())
    expect(adapter.tables.users.size).toBe(1)
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.signIn.mock.calls.map((c) => (c[0] as { isNewUser: boolean }).isNewUser)).toEqual([true, false])
    expect(adapter.tables.sessions.size).toBe(2)
  })
})

describe("adapter validation", () => {
  it("names the missing methods for the configured features", async () => {
    const { getSessionAndUser: _g, updateSession: _u, ...partial } = MemoryAdapter()
    const errors: Error[] = []
    const config = dbConfig(partial as MemoryAdapterInstance, { logger: { error: (e) => errors.push(e) } })
    const res = await Auth(request("/auth/session"), config)
    expect(res.status).toBe(500)
    expect(errors[0]!.name).toBe("MissingAdapterMethods")
    expect(errors[0]!.message).toContain("getSessionAndUser (for database sessions)")
    expect(errors[0]!.message).toContain("updateSession (for database sessions)")
  })

  it("a method missing when called fails the operation as a configuration error, never a crash", async () => {
    const adapter = MemoryAdapter()
    const errors: Error[] = []
    const config = dbConfig(adapter, { logger: { error: (e) => errors.push(e) } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const methods = adapter as unknown as Record<string, unknown>
    delete methods.createSession
    const res = await signInAlice(config, new CookieJar())
    expect(res.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
    expect(errors.at(-1)!.name).toBe("MissingAdapterMethods")
    expect(errors.at(-1)!.message).toContain('"createSession"')
  })
})

describe("session management", () => {
  async function twoDevices() {
    const adapter = MemoryAdapter()
    const config = dbConfig(adapter)
    const laptop = new CookieJar()
    const phone = new CookieJar()
    await signInAlice(config, laptop)
    advance(60_000)
    const phoneRequest = request("/auth/csrf", { jar: phone, headers: { "user-agent": "Phone/1.0" } })
    phone.apply(await Auth(phoneRequest, config))
    const { csrfToken: token } = await (await send(config, "/auth/csrf", { jar: phone })).json()
    await send(config, "/auth/callback/credentials", {
      jar: phone,
      headers: { "user-agent": "Phone/1.0" },
      form: { csrfToken: token, username: "alice", password: "correct horse" },
    })
    return { adapter, config, laptop, phone }
  }

  it("lists the user's sessions, marks the current one, and reveals no token or hash", async () => {
    const { adapter, config, laptop, phone } = await twoDevices()
    const sessions = (await listSessions(request("/", { jar: laptop }), config))!
    expect(sessions).toHaveLength(2)
    expect(sessions.map((s) => s.current).sort()).toEqual([false, true])
    expect(sessions[0]).toMatchObject({ userAgent: "Phone/1.0", current: false, createdAt: new Date(Date.now()) })
    const serialised = JSON.stringify(sessions)
    for (const secretValue of [laptop.get("sesame.session-token")!, phone.get("sesame.session-token")!, ...adapter.tables.sessions.keys()]) {
      expect(serialised).not.toContain(secretValue)
    }
    expect(await listSessions(request("/"), config)).toBeNull()
  })

  it("revokes one session by id, and only the user's own", async () => {
    const { config, laptop, phone } = await twoDevices()
    const phoneSession = (await listSessions(request("/", { jar: laptop }), config))!.find((s) => !s.current)!
    const stranger = new CookieJar()
    const bob = aliceCredentials({ id: "bob", authorize: () => ({ id: "bob", email: "bob@example.com", name: "Bob" }) })
    const withBob = { ...config, providers: [...config.providers, bob] }
    const token = await csrfToken(withBob, stranger)
    await send(withBob, "/auth/callback/bob", { jar: stranger, form: { csrfToken: token } })
    expect(await revokeSession(request("/", { jar: stranger }), withBob, phoneSession.id)).toBe(false)
    expect(await (await send(config, "/auth/session", { jar: phone })).json()).not.toBeNull()
    expect(await revokeSession(request("/", { jar: laptop }), config, phoneSession.id)).toBe(true)
    expect(await (await send(config, "/auth/session", { jar: phone })).json()).toBeNull()
    expect(await (await send(config, "/auth/session", { jar: laptop })).json()).not.toBeNull()
  })

  it("signs out everywhere else", async () => {
    const { config, laptop, phone } = await twoDevices()
    expect(await revokeOtherSessions(request("/", { jar: laptop }), config)).toBe(1)
    expect(await (await send(config, "/auth/session", { jar: phone })).json()).toBeNull()
    expect(await (await send(config, "/auth/session", { jar: laptop })).json()).not.toBeNull()
    expect(await revokeOtherSessions(request("/"), config)).toBe(0)
  })

  it("needs database sessions", async () => {
    await expect(listSessions(request("/"), jwtConfig())).rejects.toBeInstanceOf(UnsupportedStrategy)
  })
})
