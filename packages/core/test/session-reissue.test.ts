/**
 * When a read of a JWT session re-issues the token (a new JWE and `Set-Cookie`), and when it is a
 * decryption only: the `updateAge` rule both strategies share, a `jwt` callback that changes the
 * claims, an update, a rotated secret; and a database session's extension under the same rule.
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { decode, encode } from "@sesame/core/jwt"
import { describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, frozenClock, jwtConfig, request, secret, send, signInAlice } from "./helpers.js"

const cookie = "sesame.session-token"
const hour = 3600_000
const day = 24 * hour

const advance = frozenClock("2026-03-01T09:00:00Z")

async function claims(jar: CookieJar) {
  return (await decode({ token: jar.get(cookie), secret, salt: cookie }))!
}

/** `GET session`: the body, and whether the response set the session cookie. */
async function read(config: AuthConfig, jar: CookieJar) {
  const response = await send(config, "/auth/session", { jar })
  const reissued = response.headers.getSetCookie().some((line) => line.startsWith(`${cookie}=`))
  return { session: await response.json(), reissued }
}

/** Signs alice in, then reads every 40 minutes: each read extends the session, which stays alive. */
async function expectKeptAliveBy40MinuteReads(config: AuthConfig) {
  const jar = new CookieJar()
  await signInAlice(config, jar)
  for (let i = 0; i < 5; i++) {
    advance(40 * 60_000)
    const { session, reissued } = await read(config, jar)
    expect(reissued).toBe(true)
    expect(session?.user.email).toBe("alice@example.com")
  }
}

describe("JWT sessions: re-issued only when they must change", () => {
  it("within updateAge (default one day) a read is a decryption: no Set-Cookie, the same token and expiry", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = jar.get(cookie)
    const { exp } = await claims(jar)
    for (const step of [0, hour, 6 * hour, 14 * hour]) {
      advance(step)
      const { session, reissued } = await read(config, jar)
      expect(reissued).toBe(false)
      expect(session.user.email).toBe("alice@example.com")
      expect(Date.parse(session.expires)).toBe(exp! * 1000)
    }
    expect(jar.get(cookie)).toBe(token)
  })

  it("once updateAge has passed since the token was issued, the read re-issues it with a new expiry, then not again for updateAge", async () => {
    const config = jwtConfig({ session: { updateAge: 3600 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const first = await claims(jar)
    advance(hour)
    const due = await read(config, jar)
    expect(due.reissued).toBe(true)
    const second = await claims(jar)
    expect(second.iat).toBe(first.iat! + 3600)
    expect(second.exp).toBe(first.exp! + 3600)
    expect(second.jti).not.toBe(first.jti)
    expect(Date.parse(due.session.expires)).toBeGreaterThanOrEqual(second.exp! * 1000)
    advance(hour - 1000)
    expect((await read(config, jar)).reissued).toBe(false)
    advance(1000)
    expect((await read(config, jar)).reissued).toBe(true)
  })

  it("with updateAge 0 every read re-issues", async () => {
    const config = jwtConfig({ session: { updateAge: 0 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const seen = new Set([(await claims(jar)).jti])
    for (let i = 0; i < 3; i++) {
      expect((await read(config, jar)).reissued).toBe(true)
      seen.add((await claims(jar)).jti)
    }
    expect(seen.size).toBe(4)
  })

  it("an idle session still ends at the token's expiry: reads that re-issue nothing do not extend it", async () => {
    const config = jwtConfig({ session: { maxAge: 10 * day / 1000 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const stolen = jar.header()
    advance(10 * day + 20_000)
    const replay = await Auth(request("/auth/session", { cookie: stolen }), config)
    expect(await replay.json()).toBeNull()
  })

  it("a jwt callback that returns other claims (a new object, or the same one changed in place) forces a re-issue; the same claims do not", async () => {
    let version = 1
    const changing = jwtConfig({ callbacks: { jwt: ({ token }) => ({ ...token, version }) } })
    const jar = new CookieJar()
    await signInAlice(changing, jar)
    expect((await claims(jar)).version).toBe(1)
    expect((await read(changing, jar)).reissued).toBe(false)
    version = 2
    expect((await read(changing, jar)).reissued).toBe(true)
    expect((await claims(jar)).version).toBe(2)
    expect((await read(changing, jar)).reissued).toBe(false)

    const inPlace = jwtConfig({
      callbacks: {
        jwt: ({ token }) => {
          token.visits = typeof token.visits === "number" ? token.visits + 1 : 1
          return token
        },
      },
    })
    const jar2 = new CookieJar()
    await signInAlice(inPlace, jar2)
    expect((await read(inPlace, jar2)).reissued).toBe(true)
    expect((await read(inPlace, jar2)).reissued).toBe(true)
    expect((await claims(jar2)).visits).toBe(3)
  })

  it("an update (POST session) re-issues with the new claims", async () => {
    const config = jwtConfig({ callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const csrf = await csrfToken(config, jar)
    const response = await send(config, "/auth/session", { jar, json: { csrfToken: csrf, data: { theme: "dark" } } })
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${cookie}=`))).toBe(true)
    expect((await claims(jar)).theme).toBe("dark")

    // Even when the callback keeps the claims as they were: an update is how a client asks for a
    // fresh expiry (`update()` with no data).
    const plain = jwtConfig({ session: { updateAge: 3600 } })
    const jar2 = new CookieJar()
    await signInAlice(plain, jar2)
    const first = await claims(jar2)
    advance(60_000)
    const csrf2 = await csrfToken(plain, jar2)
    await send(plain, "/auth/session", { jar: jar2, json: { csrfToken: csrf2 } })
    const second = await claims(jar2)
    expect(second.jti).not.toBe(first.jti)
    expect(second.exp).toBe(first.exp! + 60)
  })

  it("a token made under an older secret of the rotation list is re-issued under the newest; one made under the newest is not", async () => {
    const old = "old-secret-0123456789-abcdefghijkl"
    const rotated = jwtConfig({ secret: [secret, old] })
    const jar = new CookieJar()
    jar.cookies.set(cookie, await encode({ token: { sub: "1", name: "Alice", email: "alice@example.com" }, secret: old, salt: cookie }))
    const first = await read(rotated, jar)
    expect(first.reissued).toBe(true)
    expect(first.session.user.name).toBe("Alice")
    expect(await decode({ token: jar.get(cookie), secret: old, salt: cookie })).toBeNull()
    expect((await claims(jar)).sub).toBe("1")
    expect((await read(rotated, jar)).reissued).toBe(false)
  })

  it("with a session cookie shorter-lived than the token (session.maxAge < jwt.maxAge), a session in use is re-issued before its cookie lapses, and says when that is", async () => {
    const config = jwtConfig({ session: { maxAge: 3600 }, jwt: { maxAge: 30 * 24 * 3600 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    let cookieEnds = Date.now() + 3600_000
    for (let i = 0; i < 7; i++) {
      advance(10 * 60_000)
      // The browser still holds the cookie only if the last one it was given has not expired.
      expect(cookieEnds).toBeGreaterThan(Date.now())
      const response = await send(config, "/auth/session", { jar })
      const line = response.headers.getSetCookie().find((l) => l.startsWith(`${cookie}=`))
      if (line) cookieEnds = Date.parse(/Expires=([^;]+)/.exec(line)![1]!)
      expect((await response.json())?.user.email).toBe("alice@example.com")
    }

    // A read that re-issues nothing says when the cookie ends, not when the token would.
    const longer = jwtConfig({ session: { maxAge: 2 * 24 * 3600, updateAge: 24 * 3600 }, jwt: { maxAge: 30 * 24 * 3600 } })
    const jar2 = new CookieJar()
    await signInAlice(longer, jar2)
    const { iat } = await claims(jar2)
    advance(hour)
    const { session, reissued } = await read(longer, jar2)
    expect(reissued).toBe(false)
    expect(Date.parse(session.expires)).toBe(iat! * 1000 + 2 * day)
  })

  it("with maxAge shorter than updateAge, a session in use is re-issued before it lapses", async () => {
    const config = jwtConfig({ session: { maxAge: 3600 } })
    await expectKeptAliveBy40MinuteReads(config)
  })
})

describe("database sessions: the same rule", () => {
  it("with maxAge shorter than updateAge, a session in use is extended before it lapses", async () => {
    const adapter = MemoryAdapter()
    const config = jwtConfig({ adapter, session: { strategy: "database", maxAge: 3600 }, providers: [aliceCredentials({ createUser: true })] })
    await expectKeptAliveBy40MinuteReads(config)
  })
})
