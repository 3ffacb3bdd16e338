import { describe, expect, it, vi } from "vitest"
import { decode } from "@sesame/core/jwt"
import { CookieJar, home, jwtConfig, origin, secret, send, signInAlice } from "./helpers.js"

describe("signIn callback", () => {
  it("false sends the user to the error page with AccessDenied, and starts no session", async () => {
    const config = jwtConfig({ callbacks: { signIn: () => false } })
    const jar = new CookieJar()
    const res = await signInAlice(config, jar)
    expect(res.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("a throw is AccessDenied too", async () => {
    const config = jwtConfig({
      logger: { error: () => {} },
      callbacks: {
        signIn: () => {
          throw new Error("no")
        },
      },
    })
    const res = await signInAlice(config, new CookieJar())
    expect(res.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
  })

  it("a string redirects there (same origin only, by default)", async () => {
    const jar = new CookieJar()
    const res = await signInAlice(jwtConfig({ callbacks: { signIn: () => "/not-yet" } }), jar)
    expect(res.headers.get("location")).toBe(`${origin}/not-yet`)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    const evil = await signInAlice(jwtConfig({ callbacks: { signIn: () => "https://evil.example" } }), new CookieJar())
    expect(evil.headers.get("location")).toBe(home)
  })

  it("receives the user, the credentials account and the submitted fields", async () => {
    const signIn = vi.fn(() => true)
    await signInAlice(jwtConfig({ callbacks: { signIn } }), new CookieJar())
    expect(signIn).toHaveBeenCalledWith({
      user: { id: "1", name: "Alice", email: "alice@example.com" },
      account: { provider: "credentials", type: "credentials", providerAccountId: "1" },
      credentials: expect.objectContaining({ username: "alice" }),
    })
    const fields = (signIn.mock.calls[0] as unknown as [{ credentials: Record<string, unknown> }])[0].credentials
    expect(fields).not.toHaveProperty("csrfToken")
  })
})

describe("jwt and session callbacks", () => {
  it("jwt runs on sign-in with user and account, and its claims reach the session callback", async () => {
    const jwt = vi.fn(({ token, user }) => (user ? { ...token, role: "admin" } : token))
    const session = vi.fn(({ session, token }) => ({ ...session, role: token.role, userId: token.sub }))
    const config = jwtConfig({ callbacks: { jwt, session } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(jwt).toHaveBeenCalledWith(
      expect.objectContaining({
        trigger: "signIn",
        isNewUser: false,
        user: expect.objectContaining({ id: "1" }),
        account: expect.objectContaining({ provider: "credentials" }),
        factors: ["credentials"],
        token: {
          name: "Alice",
          email: "alice@example.com",
          picture: null,
          sub: "1",
          auth_time: expect.any(Number),
          factors: ["credentials"],
          // The session's id and start (ms), for `session.revocation`.
          sid: expect.stringMatching(/^[\w-]{22}$/),
          started_at: expect.any(Number),
        },
      }),
    )
    const body = await (await send(config, "/auth/session", { jar })).json()
    expect(body).toMatchObject({ role: "admin", userId: "1", user: { name: "Alice" } })
  })

  it("jwt returning null on sign-in starts no session; on read it ends the session", async () => {
    const refuse = jwtConfig({ callbacks: { jwt: () => null } })
    const jar = new CookieJar()
    await signInAlice(refuse, jar)
    expect(jar.get("sesame.session-token")).toBeUndefined()

    let allow = true
    const config = jwtConfig({ callbacks: { jwt: ({ token }) => (allow ? token : null) } })
    const jar2 = new CookieJar()
    await signInAlice(config, jar2)
    allow = false
    const res = await send(config, "/auth/session", { jar: jar2 })
    expect(await res.json()).toBeNull()
    expect(jar2.get("sesame.session-token")).toBeUndefined()
  })

  it("a session callback that throws fails closed: null, cookie cleared, error logged", async () => {
    const errors: Error[] = []
    let fail = false
    const config = jwtConfig({
      logger: { error: (e) => errors.push(e) },
      callbacks: {
        session: ({ session }) => {
          if (fail) throw new Error("boom")
          return session
        },
      },
    })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    fail = true
    const res = await send(config, "/auth/session", { jar })
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(errors.map((e) => e.name)).toContain("JWTSessionError")
  })
})

describe("events", () => {
  it("signIn, session and signOut are sent with their messages", async () => {
    const events = { signIn: vi.fn(), session: vi.fn(), signOut: vi.fn() }
    const config = jwtConfig({ events })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(events.signIn).toHaveBeenCalledWith({
      user: expect.objectContaining({ id: "1", email: "alice@example.com" }),
      account: { provider: "credentials", type: "credentials", providerAccountId: "1" },
      isNewUser: false,
    })
    await send(config, "/auth/session", { jar })
    expect(events.session).toHaveBeenCalledWith({ session: expect.objectContaining({ user: expect.anything() }), token: expect.objectContaining({ sub: "1" }) })
    const { csrfToken } = await (await send(config, "/auth/csrf", { jar })).json()
    await send(config, "/auth/signout", { jar, form: { csrfToken } })
    expect(events.signOut).toHaveBeenCalledTimes(1)
  })

  it("an event that throws is logged and does not break the flow", async () => {
    const errors: Error[] = []
    const boom = () => {
      throw new Error("event failed")
    }
    const config = jwtConfig({ logger: { error: (e) => errors.push(e) }, events: { signIn: boom, session: boom, signOut: boom } })
    const jar = new CookieJar()
    const res = await signInAlice(config, jar)
    expect(res.headers.get("location")).toBe(home)
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
    expect(errors.filter((e) => e.name === "EventError")).toHaveLength(2)
    const token = await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" })
    expect(token?.sub).toBe("1")
  })
})
