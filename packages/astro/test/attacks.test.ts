/**
 * Attacks on an app of the README's shape, each beside the legitimate flow that still works: a
 * forged `Host` / `X-Forwarded-Host` in a redirect, another site's post to the auth endpoint and to
 * the app's sign-in (login CSRF), a `callbackUrl` / `redirectTo` to another origin, a way back of
 * `//evil.example`, a session cookie sealed for another configuration, and a shared cache keeping
 * a visitor's renewed cookie.
 */
import { describe, expect, it } from "vitest"
import { authorize, signIn } from "@sesame/astro"
import { call, config, contextFor, CookieJar, cookieNames, liveSessionCookies, origin, siteFor, signInAlice, users, type Site } from "./helpers.js"
import { request } from "../../core/test/helpers.js"

const alice = { username: "alice", password: users.alice.password }

async function csrf(site: Site, jar: CookieJar): Promise<string> {
  return ((await (await call(site, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
}

describe("a forged Host or X-Forwarded-Host written into a redirect", () => {
  it("fails: the guard's redirect is a path when the host is not the app's, absolute on a trusted one", async () => {
    const site = siteFor(config())
    const forgeries: Record<string, string>[] = [{ host: "evil.example" }, { "x-forwarded-host": "evil.example" }, { host: "evil.example", "x-forwarded-host": "evil.example" }]
    for (const headers of forgeries) {
      const refused = await site.onRequest!(contextFor(request("http://evil.example/dashboard", { headers }), {}), async () => new Response("dashboard"))
      expect((refused as Response).headers.get("location")).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/dashboard")}`)
    }
    // The legitimate flow: the app's own host (a loopback one here), absolute.
    expect((await call(site, "/dashboard")).headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
    // On the app's own host, a forged X-Forwarded-Host beside it changes nothing.
    const forged = await call(site, "/dashboard", { headers: { "x-forwarded-host": "evil.example" } })
    expect(forged.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
  })

  it("fails: signIn's redirect to the app is never on a forged X-Forwarded-Host", async () => {
    const site = siteFor(config())
    const answer = await call(site, "/login", { form: alice, headers: { "x-forwarded-host": "evil.example" } })
    expect(answer.headers.get("location") ?? "").not.toContain("evil.example")
  })
})

describe("another site's post", () => {
  it("fails on the auth endpoint: a cross-site post to the credentials callback sets no session, while the same site's does", async () => {
    const site = siteFor(config())
    const jar = new CookieJar()
    const token = await csrf(site, jar)
    const forged = await call(site, "/auth/callback/credentials", { jar, form: { csrfToken: token, ...alice }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(liveSessionCookies(forged)).toEqual([])
    expect(jar.get("sesame.session-token")).toBeUndefined()
    const legitimate = await call(site, "/auth/callback/credentials", { jar, form: { csrfToken: token, ...alice } })
    expect(liveSessionCookies(legitimate)).toHaveLength(1)
  })

  it("fails on the app's sign-in (login CSRF): signIn throws BadRequest 403 for another site's post, with no session cookie", async () => {
    const app: Site = { ...siteFor(config()), endpoints: { "/login-raw": { POST: async (context) => signIn(context, "credentials", alice) } } }
    const posts: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }]
    for (const headers of posts) {
      const refused = call(app, "/login-raw", { method: "POST", headers })
      await expect(refused).rejects.toMatchObject({ type: "BadRequest", status: 403 })
    }
    const answer = await call(app, "/login-raw", { form: {} })
    expect(liveSessionCookies(answer)).toHaveLength(1)
  })
})

describe("a way back to another origin", () => {
  it("fails: signIn's redirectTo to another site lands on the app", async () => {
    const app: Site = { ...siteFor(config()), endpoints: { "/login-away": { POST: (context) => signIn(context, "credentials", { ...alice, redirectTo: "https://evil.example/phish" }) } } }
    const answer = await call(app, "/login-away", { form: {} })
    expect(answer.status).toBe(303)
    expect(new URL(answer.headers.get("location")!).origin).toBe(origin)
    expect(liveSessionCookies(answer)).toHaveLength(1)
  })

  it("fails: the endpoint's callbackUrl to another site lands on the app", async () => {
    const site = siteFor(config())
    const jar = new CookieJar()
    const answer = await call(site, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(site, jar), ...alice, callbackUrl: "https://evil.example/phish" } })
    expect(answer.status).toBe(302)
    expect(new URL(answer.headers.get("location")!).origin).toBe(origin)
  })

  it("fails: a request for //evil.example/x is sent back to the path /evil.example/x on the app, never protocol-relative", async () => {
    const auth = config()
    const site: Site = { ...siteFor(auth), onRequest: authorize(auth, { protect: ["/"] }) }
    const refused = await site.onRequest!(contextFor(new Request(`${origin}//evil.example/x?y=1`), {}), async () => new Response("page"))
    const location = new URL((refused as Response).headers.get("location")!)
    expect(location.origin).toBe(origin)
    expect(location.searchParams.get("callbackUrl")).toBe("/evil.example/x?y=1")
    // The legitimate way back: the page asked for.
    const back = await call(site, "/dashboard?tab=keys")
    expect(new URL(back.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/dashboard?tab=keys")
  })
})

describe("a session cookie sealed for another configuration", () => {
  it("fails: a cookie from an app with another secret is no session here, and is cleared; the app's own is", async () => {
    const other = siteFor(config({ secret: "another-secret-0123456789-abcdefghijklmnopqrstuvwxyz" }))
    const planted = new CookieJar()
    await signInAlice(other, planted)
    expect(planted.get("sesame.session-token")).toBeDefined()
    const cookie = `sesame.session-token=${planted.cookies.get("sesame.session-token")}`
    const site = siteFor(config())
    expect((await call(site, "/dashboard", { cookie })).status).toBe(303)
    const home = await call(site, "/", { cookie })
    expect(await home.json()).toEqual({ user: null })
    expect(home.headers.getSetCookie()).toEqual([expect.stringMatching(/^sesame\.session-token=;.*Max-Age=0/i)])
    const own = new CookieJar()
    await signInAlice(site, own)
    expect(await (await call(site, "/dashboard", { jar: own })).text()).toBe("dashboard of Alice")
  })
})

describe("a shared cache keeping a visitor's renewed session cookie", () => {
  it("fails: an endpoint that says public and gets the renewed cookie is made private, no-store; without a cookie it stays public", async () => {
    const auth = config({ session: { updateAge: 0 } })
    const base = siteFor(auth)
    const site: Site = { ...base, endpoints: { ...base.endpoints, "/logo.svg": { GET: () => new Response("<svg/>", { headers: { "cache-control": "public, max-age=86400" } }) } } }
    expect((await call(site, "/logo.svg")).headers.get("cache-control")).toBe("public, max-age=86400")
    const jar = new CookieJar()
    await signInAlice(site, jar)
    const logo = await call(site, "/logo.svg", { jar })
    expect(cookieNames(logo)).toEqual(["sesame.session-token"])
    expect(logo.headers.get("cache-control")).toBe("private, no-store")
  })
})
