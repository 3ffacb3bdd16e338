/**
 * `signIn(c, …)` and `signOut(c, …)` from the app's own routes: the redirect and its cookies, the
 * errors thrown to the route (and answered 401 / 403 when it lets them through), and the attacks:
 * another site's post (login CSRF, forced sign-out), a `redirectTo` to another site, a posted
 * `redirect` field.
 */
import { Hono } from "hono"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { sessionMiddleware, signIn, signOut, type SesameVariables } from "@sesame/hono"
import { appFor, call, config, CookieJar, cookieNames, origin, signInAlice, users } from "./helpers.js"

type Users = { user: { name: string } | null }
const alice = { username: "alice", password: users.alice.password }

let idp: DevIdp
beforeAll(async () => {
  idp = await startDevIdp({
    clients: [{ client_id: "hono-test", client_secret: "hono-test-client-secret-0123456789abcdef", redirect_uris: [`${origin}/auth/callback/dev-idp`] }],
    accounts: [{ id: "grace", email: "grace@example.com", name: "Grace Hopper" }],
  })
})
afterAll(() => idp?.close())

describe("signIn(c, 'credentials', form)", () => {
  it("signs in from the app's own form: a 303 to redirectTo, with the session cookie", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    const signedIn = await signInAlice(app, jar)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe(`${origin}/account/profile`)
    expect(cookieNames(signedIn)).toContain("sesame.session-token")
    expect(((await (await call(app, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("returns to the page the form was on when there is no redirectTo, and to / without one", async () => {
    const app = appFor(config())
    const fromPage = await call(app, "/login", { form: alice, headers: { referer: `${origin}/pricing?plan=pro` } })
    expect(fromPage.headers.get("location")).toBe(`${origin}/pricing?plan=pro`)
    expect((await call(app, "/login", { form: alice })).headers.get("location")).toBe(`${origin}/`)
  })

  it("throws CredentialsSignin for a wrong password, which the route answers itself", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    const refused = await signInAlice(app, jar, "wrong password")
    expect(refused.status).toBe(401)
    expect(await refused.text()).toBe("wrong credentials")
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("uncaught, a refused sign-in is answered 401 by Hono's default error handler, not 500", async () => {
    const app = appFor(config())
    const refused = await call(app, "/login-uncaught", { form: { ...alice, password: "wrong password" } })
    expect(refused.status).toBe(401)
    expect(await refused.text()).toBe("Sign-in failed. Check the details you entered.")
    expect(cookieNames(refused)).not.toContain("sesame.session-token")
  })

  it("refuses another site's post (login CSRF) with BadRequest 403, while the same site's works", async () => {
    const app = appFor(config())
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://localhost:3000.evil.example" },
      { "sec-fetch-site": "cross-site", origin: "" },
      { "sec-fetch-site": "cross-site", origin: "null" },
      { "sec-fetch-site": "same-site", origin: "" },
    ]
    for (const headers of crossSite) {
      const jar = new CookieJar()
      const refused = await call(app, "/login", { jar, form: alice, headers })
      expect(refused.status).toBe(403)
      const body = await refused.text()
      expect(JSON.parse(body)).toMatchObject({ error: "BadRequest" })
      // The refusal names origins, never a stack.
      expect(body).not.toMatch(/\bat .*\.(ts|js):\d+/)
      expect(jar.get("sesame.session-token")).toBeUndefined()
    }
    expect((await call(app, "/login", { form: alice, headers: { origin, "sec-fetch-site": "same-origin" } })).status).toBe(303)
  })

  it("hands the route the core's error to catch: BadRequest, with its status", async () => {
    const app = new Hono<{ Variables: SesameVariables }>()
    app.use("*", sessionMiddleware(config()))
    app.post("/login", async (c) => {
      try {
        return await signIn(c, "credentials", await c.req.formData())
      } catch (error) {
        const { type, status } = error as { type?: string; status?: number }
        return c.text(`caught ${type} ${status}`, 400)
      }
    })
    expect(await (await call(app, "/login", { form: alice, headers: { origin: "https://evil.example" } })).text()).toBe("caught BadRequest 403")
  })

  it("never follows a redirectTo to another site", async () => {
    const app = appFor(config())
    for (const redirectTo of ["https://evil.example/account", "//evil.example/account", "javascript:alert(1)"]) {
      const signedIn = await call(app, "/login", { form: { ...alice, redirectTo } })
      expect(signedIn.status).toBe(303)
      expect(new URL(signedIn.headers.get("location")!).origin).toBe(origin)
    }
  })

  it("lets no posted `redirect` field change the answer; redirect: false in the route's code returns the URL", async () => {
    const app = appFor(config())
    const posted = await call(app, "/login", { form: { ...alice, redirect: "false" } })
    expect(posted.status).toBe(303)
    const quiet = new Hono<{ Variables: SesameVariables }>()
    quiet.use("*", sessionMiddleware(config()))
    quiet.post("/parsed", async (c) => signIn(c, "credentials", await c.req.parseBody()))
    quiet.post("/login", async (c) => {
      const url = await signIn(c, "credentials", { ...(await c.req.parseBody()), redirect: false, redirectTo: "/welcome" })
      return c.json({ url })
    })
    expect((await call(quiet, "/parsed", { form: { ...alice, redirect: "false" } })).status).toBe(303)
    const jar = new CookieJar()
    const answered = await call(quiet, "/login", { jar, form: alice })
    expect(await answered.json()).toEqual({ url: `${origin}/welcome` })
    expect(jar.get("sesame.session-token")).toBeDefined()
  })

  it("without a provider, sends the browser to the sign-in page", async () => {
    const app = new Hono<{ Variables: SesameVariables }>()
    app.use("*", sessionMiddleware(config()))
    app.post("/choose", (c) => signIn(c, undefined, { redirectTo: "/after" }))
    const answer = await call(app, "/choose", { form: {} })
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fafter`)
  })

  it("without a Sesame middleware on the request, throws a TypeError saying what to add", async () => {
    const app = new Hono()
    app.post("/login", (c) => signIn(c, "credentials", alice))
    app.onError((error, c) => c.text(`${error.name}: ${error.message}`, 500))
    expect(await (await call(app, "/login", { form: {} })).text()).toMatch(/^TypeError: signIn\(c, …\) needs Sesame's configuration on the request/)
  })
})

describe("signIn(c, 'dev-idp'): OpenID Connect", () => {
  it("answers a 303 to the provider's authorization endpoint, with the checks' cookies and the authorization parameters", async () => {
    const app = new Hono<{ Variables: SesameVariables }>()
    const auth = config({
      providers: [{ id: "dev-idp", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "hono-test", clientSecret: "hono-test-client-secret-0123456789abcdef" }],
    })
    app.use("*", sessionMiddleware(auth))
    app.post("/login/dev-idp", (c) => signIn(c, "dev-idp", { redirectTo: "/account" }, { login_hint: "grace" }))
    const answer = await call(app, "/login/dev-idp", { form: {} })
    expect(answer.status).toBe(303)
    const location = new URL(answer.headers.get("location")!)
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/dev-idp`)
    expect(location.searchParams.get("login_hint")).toBe("grace")
    expect(location.searchParams.get("code_challenge_method")).toBe("S256")
    expect(cookieNames(answer)).toEqual(expect.arrayContaining(["sesame.pkce.code_verifier", "sesame.callback-url"]))
  })
})

describe("signOut(c)", () => {
  it("signs out: a 303 to redirectTo, the session cookie cleared", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const signedOut = await call(app, "/logout", { jar, form: {} })
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get("location")).toBe(`${origin}/`)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(app, "/", { jar })).json()).toEqual({ user: null })
  })

  it("refuses another site's post (a forced sign-out) with 403, and the session stays", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const refused = await call(app, "/logout", { jar, form: {}, headers: { origin: "https://evil.example" } })
    expect(refused.status).toBe(403)
    expect(jar.get("sesame.session-token")).toBeDefined()
    expect(((await (await call(app, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("with redirect: false, returns the URL and the route's own response carries the cleared cookie", async () => {
    const app = new Hono<{ Variables: SesameVariables }>()
    const auth = config()
    app.use("*", sessionMiddleware(auth))
    app.post("/login", async (c) => signIn(c, "credentials", await c.req.formData()))
    app.post("/api/logout", async (c) => c.json({ next: await signOut(c, { redirect: false, redirectTo: "/bye" }) }))
    const jar = new CookieJar()
    await call(app, "/login", { jar, form: alice })
    const answer = await call(app, "/api/logout", { jar, form: {} })
    expect(await answer.json()).toEqual({ next: `${origin}/bye` })
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })
})
