/**
 * `sesame(config)`: the auth resource route answers every request as the core's `Auth()` does,
 * through React Router's server runtime (a resource route's `Response` goes out as it is).
 */
import { raw } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { sesame } from "@sesame/react-router"
import { appFor, appOf, call, config, CookieJar, cookieNames, liveSessionCookies, origin, users } from "./helpers.js"

const alice = { username: "alice", password: users.alice.password }

async function csrf(app: (request: Request) => Promise<Response>, jar: CookieJar): Promise<string> {
  return ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
}

describe("the auth resource route", () => {
  it("answers the session (null signed out), the CSRF token, the providers and the built-in sign-in page", async () => {
    const app = appOf(config())
    expect(await (await call(app, "/auth/session")).json()).toBeNull()
    expect((await (await call(app, "/auth/csrf")).json()) as object).toHaveProperty("csrfToken")
    expect(Object.keys((await (await call(app, "/auth/providers")).json()) as object)).toEqual(["credentials"])
    const page = await call(app, "/auth/signin")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("content-security-policy")).toContain("default-src")
  })

  it("signs in through the credentials callback (the built-in page's form), and the session endpoint then names the user", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const answer = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(app, jar), ...alice, callbackUrl: `${origin}/dashboard` } })
    expect(answer.status).toBe(302)
    expect(answer.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect(((await (await call(app, "/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  it("signs out through the endpoint: the cookie is cleared", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(app, jar), ...alice } })
    const answer = await call(app, "/auth/signout", { jar, form: { csrfToken: await csrf(app, jar) } })
    expect(answer.status).toBe(302)
    expect(cookieNames(answer)).toContain("sesame.session-token")
    expect(await (await call(app, "/auth/session", { jar })).json()).toBeNull()
  })

  it("answers HEAD with the loader, without a body", async () => {
    const answer = await call(appOf(config()), "/auth/session", { method: "HEAD" })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe("")
  })

  it("refuses a wrong password at the endpoint with the error page's redirect and no session", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const answer = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(app, jar), username: "alice", password: "wrong" } })
    expect(answer.headers.get("location")).toContain("error=CredentialsSignin")
    expect(liveSessionCookies(answer)).toEqual([])
  })

  it("a route at another path than the base path gets the core's 400 naming it, not a 500", async () => {
    const auth = config()
    const app = appFor({}, { "routes/login-api": { path: "login-api/*", module: sesame(auth) } })
    const answer = await call(app, "/login-api/session")
    expect(answer.status).toBe(400)
    expect(await answer.text()).toContain("/login-api/session")
  })

  it("follows basePath: a resource route at /identity/* with basePath \"/identity\"", async () => {
    const auth = config({ basePath: "/identity" })
    const app = appFor({}, { "routes/identity": { path: "identity/*", module: sesame(auth) } })
    expect((await call(app, "/identity/session")).status).toBe(200)
  })

  it("throws a TypeError for a configuration that is not an object, when the route is made", () => {
    expect(() => sesame(undefined as never)).toThrow(TypeError)
    expect(() => sesame(null as never)).toThrow(/configuration object/)
  })

  it("answers with a Response even when the configuration carries the core's `raw`", async () => {
    const app = appFor({}, { "routes/auth": { path: "auth/*", module: sesame(config({ raw })) } })
    const answer = await call(app, "/auth/csrf")
    expect(answer.status).toBe(200)
    expect((await answer.json()) as object).toHaveProperty("csrfToken")
  })
})
