/**
 * signIn and signOut from the app's own routes in a real Fastify app, over a listening server and
 * through `inject`: the redirect and cookies they write, the errors they throw to the route
 * (rejected credentials, another site's post, also from a look-alike or sibling origin), an error
 * the route lets go answered by Fastify with its status, `redirectTo` held to the app's origin,
 * `redirect: false` (the app's boolean, never a posted field), an OpenID provider (the dev IdP, a
 * real oidc-provider), and a sign-out that is not undone by a session renewed earlier in the same
 * request.
 */
import formbody from "@fastify/formbody"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { BadRequest, CredentialsSignin, getSession, sessionHook, signIn, signOut } from "@sesame/fastify"
import { alice, aliceCredentials, appWith, config, cookieLine, CookieJar, send, signInAlice, transports, type Served } from "./helpers.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startDevIdp({
    clients: [{ client_id: "fastify-test", client_secret: "fastify-test-client-secret-0123456789", redirect_uris: ["http://127.0.0.1/auth/callback/dev-idp"] }],
    accounts: [{ id: "grace", email: "grace@example.com", name: "Grace Hopper" }],
  })
})

afterAll(async () => {
  await idp.close()
})

/** The configuration of these tests: Alice's credentials and the dev IdP. */
function actionsConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return config({
    providers: [aliceCredentials(), { id: "dev-idp", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "fastify-test", clientSecret: "fastify-test-client-secret-0123456789" }],
    ...overrides,
  })
}

type Fields = Record<string, string | undefined>

/** The app: its own sign-in and sign-out routes, as an app writes them, answering what signIn throws. */
async function actionsApp(options: AuthConfig) {
  const app = await appWith(options)
  await app.register(formbody)
  app.addHook("onRequest", sessionHook(options))
  app.post<{ Body: Fields }>("/login", async (request, reply) => {
    const body = request.body
    try {
      await signIn(request, reply, options, body.provider, { username: body.username, password: body.password, redirectTo: body.redirectTo ?? "/account" })
      return reply
    } catch (error) {
      if (error instanceof CredentialsSignin) return reply.code(401).send(`refused: ${error.code}`)
      if (error instanceof BadRequest) return reply.code(error.status).send("another site's post")
      throw error
    }
  })
  app.post<{ Body: Fields }>("/login/quiet", async (request, reply) => {
    const url = await signIn(request, reply, options, "credentials", { username: request.body.username, password: request.body.password, redirect: false })
    return { url }
  })
  // Errors let go: Fastify's error handling answers with their status.
  app.post("/logout", async (request, reply) => {
    await signOut(request, reply, options, { redirectTo: "/" })
    return reply
  })
  return app
}

function login(served: Served, form: Record<string, string>, headers: Record<string, string> = {}, jar = new CookieJar()) {
  return send(served, "/login", { jar, form: { provider: "credentials", ...form }, headers })
}

describe.each(transports)("signIn and signOut, reached by $label", ({ serve }) => {
  it("signs in with credentials: a 303 to redirectTo on the app's origin, the session cookie set", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const jar = new CookieJar()
    const response = await login(served, { username: "alice", password: alice.password }, { origin: served.origin, "sec-fetch-site": "same-origin" }, jar)
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${served.origin}/account`)
    expect(response.headers.get("cache-control")).toBe("private, no-store")
    expect(cookieLine(response.headers.getSetCookie())).toMatch(/HttpOnly/)
    expect(((await (await send(served, "/auth/session", { jar })).json()) as { user: { email: string } }).user.email).toBe(alice.email)
  })

  it("throws CredentialsSignin to the route for a wrong password, writing nothing", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const response = await login(served, { username: "alice", password: "wrong" }, { origin: served.origin })
    expect(response.status).toBe(401)
    expect(await response.text()).toBe("refused: credentials")
    expect(cookieLine(response.headers.getSetCookie())).toBeUndefined()
  })

  it("refuses another site's post (login CSRF) with BadRequest 403, and writes no session", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const own = new URL(served.origin)
    for (const headers of [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
      { origin: "null", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: `http://${own.hostname}.evil.example` },
      // The app's loopback host under another name, or another port of it: another origin.
      { origin: own.hostname === "localhost" ? "http://127.0.0.1" : "http://localhost" },
      { origin: `http://${own.hostname}:${Number(own.port) + 1}` },
    ] as Record<string, string>[]) {
      const response = await login(served, { username: "alice", password: alice.password }, headers)
      expect(response.status).toBe(403)
      expect(await response.text()).toBe("another site's post")
      expect(cookieLine(response.headers.getSetCookie())).toBeUndefined()
    }
  })

  it("keeps redirectTo on the app's origin: another origin becomes the app's own", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    for (const redirectTo of ["https://evil.example/phish", "//evil.example/phish"]) {
      const response = await login(served, { username: "alice", password: alice.password, redirectTo }, { origin: served.origin })
      expect(response.status).toBe(303)
      expect(new URL(response.headers.get("location")!).origin).toBe(served.origin)
    }
  })

  it("a posted `redirect=false` field, passed on in a FormData, does not stop the redirect", async () => {
    const options = actionsConfig()
    const app = await appWith(options)
    await app.register(formbody)
    app.post<{ Body: Record<string, string> }>("/login/form", async (request, reply) => {
      const form = new FormData()
      for (const [key, value] of Object.entries(request.body)) form.set(key, value)
      await signIn(request, reply, options, "credentials", form)
      return reply
    })
    const served = await serve(app)
    const response = await send(served, "/login/form", { form: { username: "alice", password: alice.password, redirect: "false" }, headers: { origin: served.origin } })
    expect(response.status).toBe(303)
    expect(cookieLine(response.headers.getSetCookie())).toMatch(/HttpOnly/)
  })

  it("with redirect: false, returns the URL and lets the route answer; the cookie is set", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const response = await send(served, "/login/quiet", { form: { username: "alice", password: alice.password } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${served.origin}/` })
    expect(cookieLine(response.headers.getSetCookie())).toMatch(/HttpOnly/)
  })

  it("a session read after a sign-in in the same request does not undo the new session cookie", async () => {
    const options = actionsConfig()
    const app = await appWith(options)
    await app.register(formbody)
    app.post<{ Body: Fields }>("/login/then-read", async (request, reply) => {
      await signIn(request, reply, options, "credentials", { username: request.body.username, password: request.body.password, redirect: false })
      return { before: await getSession(request, reply, options) }
    })
    const served = await serve(app)
    // The request's own (planted) cookie is no good: its read, after the sign-in, would clear it; the sign-in's cookie stands.
    const response = await send(served, "/login/then-read", { form: { username: "alice", password: alice.password }, headers: { cookie: "sesame.session-token=planted" } })
    expect(await response.json()).toEqual({ before: null })
    const lines = response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/Max-Age=0/i)
  })

  it("without a provider, sends the browser to the sign-in page with the way back", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const response = await send(served, "/login", { form: { redirectTo: "/account" } })
    expect(response.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
  })

  it("signs in with an OpenID provider: a 303 to its authorization endpoint, the check cookies set", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const response = await login(served, { provider: "dev-idp" }, { origin: served.origin })
    expect(response.status).toBe(303)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("client_id")).toBe("fastify-test")
    expect(location.searchParams.get("redirect_uri")).toBe(`${served.origin}/auth/callback/dev-idp`)
    expect(location.searchParams.get("code_challenge")).toBeTruthy()
    expect(cookieLine(response.headers.getSetCookie(), "sesame.pkce.code_verifier")).toMatch(/HttpOnly/)
  })

  it("signs out: a 303 to redirectTo, the session cookie cleared", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const response = await send(served, "/logout", { jar, method: "POST", headers: { origin: served.origin } })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${served.origin}/`)
    expect(jar.cookies.has("sesame.session-token")).toBe(false)
    expect(await (await send(served, "/auth/session", { jar })).json()).toBeNull()
  })

  it("refuses another site's sign-out post: the BadRequest the route lets go is Fastify's 403, and the session stays", async () => {
    const served = await serve(await actionsApp(actionsConfig()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const response = await send(served, "/logout", { jar, method: "POST", headers: { origin: "https://evil.example" } })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ statusCode: 403 })
    expect(jar.cookies.has("sesame.session-token")).toBe(true)
  })

  it("a sign-out is not undone by the session a hook renewed earlier in the request", async () => {
    const served = await serve(await actionsApp(actionsConfig({ session: { updateAge: 0 } })))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const response = await send(served, "/logout", { jar, method: "POST", headers: { origin: served.origin } })
    const lines = response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/Max-Age=0/i)
  })
})
