/**
 * Threat: a stolen session that never ends. A session is extended on every use (`maxAge` is an
 * idle limit), so whoever holds a stolen cookie keeps it alive for ever by using it. With
 * `session.absoluteMaxAge`, a session ends that long after its sign-in whatever its use, for JWT
 * and database sessions alike, and an app's `jwt` callback cannot move the sign-in time.
 */
import { describe, expect, it, vi } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter, type Adapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { decode, encode, getToken } from "@sesame/core/jwt"
import { aliceCredentials, CookieJar, jwtConfig, request, secret, send, signInAlice, frozenClock } from "../helpers.js"

const hour = 3_600_000
const day = 24 * hour
const limit = 8 * 60 * 60 // seconds
const cookieName = "sesame.session-token"

const advance = frozenClock("2030-01-01T09:00:00Z")

async function readSession(config: AuthConfig, jar: CookieJar) {
  const response = await send(config, "/auth/session", { jar })
  return { response, body: (await response.json()) as { user?: { email?: string }; expires?: string } | null }
}

function sessionSetCookie(response: Response): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${cookieName}=`))
}

function expectCleared(response: Response, jar: CookieJar) {
  expect(sessionSetCookie(response)).toMatch(/^sesame\.session-token=; Path=\/; Max-Age=0/)
  expect(jar.get(cookieName)).toBeUndefined()
}

/** The `Expires` attribute of the session cookie a response set, in ms. */
function cookieExpiry(response: Response): number {
  const header = sessionSetCookie(response)!
  return Date.parse(/Expires=([^;]+)/.exec(header)![1]!)
}

describe("JWT sessions with absoluteMaxAge", () => {
  const config = (overrides: Partial<AuthConfig> = {}) => jwtConfig({ session: { absoluteMaxAge: limit }, ...overrides })

  it("a session kept alive by a read every hour still ends absoluteMaxAge after sign-in; no expiry goes past it", async () => {
    const app = config()
    const jar = new CookieJar()
    const signedInAt = Date.now()
    const end = signedInAt + limit * 1000
    await signInAlice(app, jar)
    const sealed = await decode({ token: jar.get(cookieName), secret, salt: cookieName })
    expect(sealed?.auth_time).toBe(Math.floor(signedInAt / 1000))
    expect(sealed?.exp).toBeLessThanOrEqual(end / 1000)

    for (let i = 1; i < 8; i++) {
      advance(hour)
      const { response, body } = await readSession(app, jar)
      expect(body?.user?.email).toBe("alice@example.com")
      // Before the limit it works as without the option, but nothing outlives the limit.
      expect(Date.parse(body!.expires!)).toBe(end)
      expect(cookieExpiry(response)).toBe(end)
      const token = await decode({ token: jar.get(cookieName), secret, salt: cookieName })
      expect(token?.auth_time).toBe(Math.floor(signedInAt / 1000))
      expect(token?.exp).toBeLessThanOrEqual(end / 1000)
    }
    // The thief's copy of the latest cookie, used at the limit: signed out.
    const stolen = jar.header()
    advance(hour)
    const { response, body } = await readSession(app, jar)
    expect(body).toBeNull()
    expectCleared(response, jar)
    const replay = await Auth(request("/auth/session", { cookie: stolen }), app)
    expect(await replay.json()).toBeNull()
  })

  it("a jwt callback returning a later auth_time, or a fresh token without it, cannot extend the session", async () => {
    const later = config({ callbacks: { jwt: ({ token }) => ({ ...token, auth_time: Math.floor(Date.now() / 1000) + 1000 }) } })
    const fresh = config({ callbacks: { jwt: ({ token }) => ({ sub: token.sub, name: token.name, email: token.email }) } })
    for (const app of [later, fresh]) {
      const jar = new CookieJar()
      const end = Date.now() + limit * 1000
      await signInAlice(app, jar)
      for (let i = 1; i < 8; i++) {
        advance(hour)
        const { body } = await readSession(app, jar)
        expect(body?.user?.email).toBe("alice@example.com")
        expect(Date.parse(body!.expires!)).toBe(end)
      }
      advance(hour)
      const { response, body } = await readSession(app, jar)
      expect(body).toBeNull()
      expectCleared(response, jar)
    }
  })

  it("an update (POST session) cannot extend it either", async () => {
    const app = config({ callbacks: { jwt: ({ token, session }) => (session ? { ...token, ...(session as object) } : token) } })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    advance(7 * hour)
    const { csrfToken } = (await (await send(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const updated = await send(app, "/auth/session", { jar, json: { csrfToken, data: { auth_time: Math.floor(Date.now() / 1000) } } })
    expect(((await updated.json()) as { user?: { email?: string } }).user?.email).toBe("alice@example.com")
    advance(hour)
    expect((await readSession(app, jar)).body).toBeNull()
  })

  it("a token without auth_time (made before the option) ends at its next read", async () => {
    const app = config()
    const old = await encode({ token: { sub: "1", name: "Alice", email: "alice@example.com" }, secret, salt: cookieName })
    const jar = new CookieJar()
    jar.cookies.set(cookieName, old)
    const { response, body } = await readSession(app, jar)
    expect(body).toBeNull()
    expectCleared(response, jar)
    // Without the option the same token is a session.
    const jar2 = new CookieJar()
    jar2.cookies.set(cookieName, old)
    expect((await readSession(jwtConfig(), jar2)).body?.user?.email).toBe("alice@example.com")
  })

  it("getToken with absoluteMaxAge refuses a token past it; without the option it still reads it", async () => {
    const app = config({ session: { absoluteMaxAge: limit, maxAge: 30 * 24 * 60 * 60 }, jwt: { maxAge: 30 * 24 * 60 * 60 } })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const req = () => request("/anything", { jar })
    expect((await getToken({ req: req(), secret, absoluteMaxAge: limit }))?.sub).toBe("1")
    advance(7 * hour)
    await readSession(app, jar)
    expect((await getToken({ req: req(), secret, absoluteMaxAge: limit }))?.sub).toBe("1")
    // The token itself expires at the limit, so look just before and after it with a longer-lived token.
    const sealed = await encode({ token: { sub: "1", auth_time: Math.floor(Date.now() / 1000) - limit }, secret, salt: cookieName, maxAge: day / 1000 })
    const late = request("/anything", { cookie: `${cookieName}=${sealed}` })
    expect(await getToken({ req: late, secret, absoluteMaxAge: limit })).toBeNull()
    expect((await getToken({ req: late, secret }))?.sub).toBe("1")
    const noAuthTime = await encode({ token: { sub: "1" }, secret, salt: cookieName })
    expect(await getToken({ req: request("/x", { cookie: `${cookieName}=${noAuthTime}` }), secret, absoluteMaxAge: limit })).toBeNull()
  })

  it("without the option nothing changes: a session used daily lives past 30 days", async () => {
    const app = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    for (let i = 0; i < 40; i++) {
      advance(day)
      const { response, body } = await readSession(app, jar)
      expect(body?.user?.email).toBe("alice@example.com")
      expect(cookieExpiry(response)).toBe(Date.now() + 30 * day)
    }
  })

  it("is validated: a positive number of seconds", async () => {
    for (const bad of [0, -1, Number.NaN, "8h" as never]) {
      const errors: Error[] = []
      const app = jwtConfig({ session: { absoluteMaxAge: bad }, logger: { error: (e) => void errors.push(e) } })
      const res = await Auth(request("/auth/session"), app)
      expect(res.status).toBe(500)
      expect(errors[0]?.message).toMatch(/session\.absoluteMaxAge.*positive number of seconds/)
    }
  })
})

describe("database sessions with absoluteMaxAge", () => {
  function dbConfig(adapter: Adapter, session: AuthConfig["session"] = { absoluteMaxAge: limit, updateAge: 0 }): AuthConfig {
    return { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], session }
  }

  it("a session read every hour (and extended each time) ends at createdAt + absoluteMaxAge and is deleted", async () => {
    const adapter: MemoryAdapterInstance = MemoryAdapter()
    const app = dbConfig(adapter)
    const jar = new CookieJar()
    const end = Date.now() + limit * 1000
    const signIn = await signInAlice(app, jar)
    expect(cookieExpiry(signIn)).toBe(end)
    const stored = () => [...adapter.tables.sessions.values()]
    expect(stored()[0]!.expires.getTime()).toBe(end)

    for (let i = 1; i < 8; i++) {
      advance(hour)
      const { body } = await readSession(app, jar)
      expect(body?.user?.email).toBe("alice@example.com")
      expect(Date.parse(body!.expires!)).toBe(end)
      expect(stored()[0]!.expires.getTime()).toBe(end)
    }
    const stolen = jar.header()
    advance(hour)
    const { response, body } = await readSession(app, jar)
    expect(body).toBeNull()
    expectCleared(response, jar)
    expect(stored()).toEqual([])
    expect(await (await Auth(request("/auth/session", { cookie: stolen }), app)).json()).toBeNull()
  })

  it("extends by maxAge as before while the limit is far, never past it", async () => {
    const adapter = MemoryAdapter()
    const app = dbConfig(adapter, { absoluteMaxAge: 10 * 24 * 60 * 60, maxAge: 2 * 24 * 60 * 60, updateAge: 0 })
    const jar = new CookieJar()
    const end = Date.now() + 10 * day
    await signInAlice(app, jar)
    advance(day)
    const first = await readSession(app, jar)
    expect(Date.parse(first.body!.expires!)).toBe(Date.now() + 2 * day)
    expect(cookieExpiry(first.response)).toBe(Date.now() + 2 * day)
    for (let i = 0; i < 8; i++) {
      advance(day)
      const { body } = await readSession(app, jar)
      expect(Date.parse(body!.expires!)).toBe(Math.min(Date.now() + 2 * day, end))
    }
    advance(day)
    expect((await readSession(app, jar)).body).toBeNull()
  })

  it("without the option nothing changes: a session used daily lives past 30 days", async () => {
    const adapter = MemoryAdapter()
    const app = dbConfig(adapter, {})
    const jar = new CookieJar()
    await signInAlice(app, jar)
    for (let i = 0; i < 40; i++) {
      advance(day)
      expect((await readSession(app, jar)).body?.user?.email).toBe("alice@example.com")
    }
  })

  it("is a configuration error with an adapter that does not store createdAt (no listSessionsByUserId)", async () => {
    const { listSessionsByUserId: _omitted, ...withoutManagement } = MemoryAdapter()
    const errors: Error[] = []
    const app: AuthConfig = { ...dbConfig(withoutManagement), logger: { error: (e) => void errors.push(e) } }
    const res = await Auth(request("/auth/session"), app)
    expect(res.status).toBe(500)
    expect(errors[0]?.message).toMatch(/listSessionsByUserId \(for `session.absoluteMaxAge` with database sessions/)
    // The same adapter is fine without the option.
    const jar = new CookieJar()
    const plain = dbConfig(withoutManagement, {})
    expect((await signInAlice(plain, jar)).status).toBe(302)
  })
})
