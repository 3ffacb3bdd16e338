/**
 * getSession and requireSession: reading the session on the server through the configured prefix,
 * and failing closed.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import { getSession, requireSession, SolidAuth } from "@sesame/solid-start"
import { aliceCredentials, config, CookieJar, request, signInAlice } from "./helpers.js"

describe("getSession", () => {
  it("is null without a session cookie", async () => {
    expect(await getSession(request("/"), config())).toBeNull()
  })

  it("returns the session of a signed-in request", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const session = await getSession(request("/account", { jar }), options)
    expect(session?.user).toEqual({ name: "Alice", email: "alice@example.com", image: null })
    expect(typeof session?.expires).toBe("string")
  })

  it("goes through the session callback, as GET <prefix>/session does", async () => {
    const options = config({ callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) } })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect((await getSession(request("/", { jar }), options))?.user?.id).toBe("1")
  })

  it("honours a non-default prefix: the session is read under it, not under /api/auth", async () => {
    const options = config({ prefix: "/my/auth" })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar, "/my/auth")
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")
  })

  it("reads a database session through the adapter", async () => {
    const adapter = MemoryAdapter()
    const options = config({ adapter, providers: [aliceCredentials({ createUser: true })] })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect(adapter.tables.sessions.size).toBe(1)
    expect((await getSession(request("/", { jar }), options))?.user?.email).toBe("alice@example.com")
  })

  it("reads the session of a POST with a body (a server function call)", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const post = new Request("http://localhost:3000/_server?id=x", {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/json", "x-auth-return-redirect": "1" },
      body: JSON.stringify({ a: 1 }),
    })
    expect((await getSession(post, options))?.user?.name).toBe("Alice")
  })

  it("fails closed: a tampered cookie, a session from another secret and a broken configuration give null", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const cookie = jar.header()
    const tampered = cookie.replace(/(sesame\.session-token=[^;]{20})./, (_, head: string) => `${head}${head.endsWith("A") ? "B" : "A"}`)
    expect(tampered).not.toBe(cookie)
    expect(await getSession(request("/", { headers: { cookie: tampered } }), options)).toBeNull()
    expect(await getSession(request("/", { jar }), config({ secret: "another-secret-0123456789-abcdefghijklmnopqrst" }))).toBeNull()
    const silent = { error: () => {}, warn: () => {}, debug: () => {} }
    expect(await getSession(request("/", { jar }), config({ logger: silent, session: { maxAge: -1 } }))).toBeNull()
    expect(await getSession(request("/", { jar }), config({ logger: silent, trustHost: false }))).toBeNull()
  })

  it("fails closed on an answer that is not a session object: an empty body, an array", async () => {
    for (const session of [() => undefined, () => ["not", "a", "session"]]) {
      const options = config({ callbacks: { session: session as never } })
      const jar = new CookieJar()
      await signInAlice(SolidAuth(options), jar)
      expect(await getSession(request("/", { jar }), options)).toBeNull()
    }
  })
})

describe("requireSession", () => {
  it("returns the session when there is a user", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect((await requireSession(request("/account", { jar }), options, "/signin")).user.email).toBe("alice@example.com")
  })

  it("throws a 302 Response to the fixed path when there is no session", async () => {
    const thrown = await requireSession(request("/account"), config(), "/signin?from=account").catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("/signin?from=account")
  })

  it("throws the redirect when the session has no user", async () => {
    const options = config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const thrown = await requireSession(request("/account", { jar }), options, "/signin").catch((e: unknown) => e)
    expect((thrown as Response).headers.get("location")).toBe("/signin")
  })

  it("refuses a redirect target that is not a path on this site", async () => {
    for (const target of ["https://evil.example/", "//evil.example/", "/\\evil.example", "signin"]) {
      await expect(requireSession(request("/"), config(), target)).rejects.toThrow(TypeError)
    }
  })
})
