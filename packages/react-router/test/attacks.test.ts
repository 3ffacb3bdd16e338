/**
 * Attacks on the integration, each beside the legitimate request it must not break: a forged
 * `Host` or `X-Forwarded-Host` in a redirect, another site's post to the app's sign-in action
 * (login CSRF), an open redirect through `redirectTo` or `callbackUrl`, the guard's path read
 * another way than React Router routes it (case, percent-encoding, doubled slashes, the `.data`
 * suffix), `//evil.example`, and a session cookie sealed by another app.
 */
import { describe, expect, it } from "vitest"
import { authorize, sesame, sessionMiddleware, signIn } from "@sesame/react-router"
import { appFor, appOf, call, config, CookieJar, cookieNames, liveSessionCookies, origin, rendered, signInAlice, singleFetchRedirect, users } from "./helpers.js"

type Args = { request: Request; context: unknown }
const alice = { username: "alice", password: users.alice.password }

describe("attacks", () => {
  it("fails: the guard's redirect is a path when the host is not the app's, absolute on a trusted one", async () => {
    const app = appOf(config())
    const forgeries: Record<string, string>[] = [{ "x-forwarded-host": "evil.example" }, { host: "evil.example", "x-forwarded-host": "evil.example" }]
    for (const headers of forgeries) {
      const refused = await call(app, "http://evil.example/dashboard", { headers })
      expect(refused.status).toBe(303)
      expect(refused.headers.get("location")).not.toContain("evil.example")
      expect(refused.headers.get("location")).toMatch(/^\/auth\/signin\?callbackUrl=%2Fdashboard$/)
      const thrown = await call(app, "http://evil.example/account", { headers })
      expect(thrown.headers.get("location")).not.toContain("evil.example")
    }
    expect((await call(app, "/dashboard")).headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fdashboard`)
  })

  it("fails: signIn's redirect to the app is never on a forged X-Forwarded-Host", async () => {
    const answer = await call(appOf(config()), "/login", { form: alice, headers: { "x-forwarded-host": "evil.example" } })
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location") ?? "").not.toContain("evil.example")
  })

  it("fails (login CSRF): another site's post to the sign-in action is a 4xx with no session cookie, never a 500; the same site's signs in", async () => {
    const app = appOf(config())
    // React Router refuses a post whose Origin is another site's before the action runs.
    const foreignOrigin = await call(app, "/login", { form: alice, headers: { origin: "https://evil.example" } })
    expect(foreignOrigin.status).toBe(400)
    expect(liveSessionCookies(foreignOrigin)).toEqual([])
    // Without an Origin, the browser's Sec-Fetch-Site says it: the core refuses, and the action throws its 403.
    for (const path of ["/login", "/login.data"]) {
      const crossSite = await app(new Request(`${origin}${path}`, { method: "POST", headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(alice) }))
      expect(crossSite.status, path).toBe(403)
      expect(liveSessionCookies(crossSite), path).toEqual([])
    }
    const page = await app(new Request(`${origin}/login`, { method: "POST", headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(alice) }))
    expect((await rendered(page)).errors?.root).toMatchObject({ status: 403 })
    const sameSite = await call(app, "/login", { form: alice, headers: { "sec-fetch-site": "same-origin" } })
    expect(liveSessionCookies(sameSite)).toHaveLength(1)
  })

  it("fails: signIn's redirectTo to another site lands on the app", async () => {
    const auth = config()
    const app = appFor(
      { middleware: [sessionMiddleware(auth)] },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/away": { path: "away", module: { action: (args: Args) => signIn(args, "credentials", { ...alice, redirectTo: "https://evil.example/phish" }) } } },
    )
    const answer = await call(app, "/away", { form: {} })
    expect(answer.status).toBe(303)
    expect(new URL(answer.headers.get("location")!).origin).toBe(origin)
  })

  it("fails: the endpoint's callbackUrl to another site lands on the app", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    const answer = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, ...alice, callbackUrl: "https://evil.example/phish" } })
    expect(new URL(answer.headers.get("location")!).origin).toBe(origin)
  })

  it("fails: the guard is not passed by another spelling of a protected path that React Router routes to it", async () => {
    const auth = config()
    const dashboard = { path: "dashboard", module: { default: () => null, loader: () => ({ secret: "the dashboard" }) } }
    const open = appFor({}, { "routes/dashboard": dashboard })
    const guarded = appFor({ middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })] }, { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/dashboard": dashboard })
    const passThrough = appFor({ middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })] }, { "routes/dashboard": dashboard }, { passThrough: true })
    const spellings = ["/dashboard", "/Dashboard", "/DASHBOARD", "/%64ashboard", "/%2564ashboard", "//dashboard", "/dashboard/", "/dashboard.data", "/Dashboard.data", "/%64ashboard.data"]
    let routed = 0
    for (const path of spellings) {
      // Without the guard, React Router serves the page for this spelling (the attack is real)…
      const served = await call(open, path)
      if (served.status === 200 && (served.headers.get("content-type") ?? "").includes("html") && JSON.stringify(await rendered(served)).includes("the dashboard")) routed++
      // …and with it, neither a document nor a data request gets through.
      for (const app of [guarded, passThrough]) {
        const answer = await call(app, path)
        const body = await answer.text()
        expect(body, path).not.toContain("the dashboard")
        // The guard's redirect (a document's 303, a data request's 202), or React Router's 404 for a spelling it does not route.
        expect([202, 303, 404], path).toContain(answer.status)
        if (served.status === 200) expect([202, 303], path).toContain(answer.status)
      }
    }
    // Case and one round of percent-encoding reach the page in React Router: the guard was tested on real bypasses.
    expect(routed).toBeGreaterThanOrEqual(4)
    const jar = new CookieJar()
    await call(guarded, "/auth/callback/credentials", { jar, form: { csrfToken: ((await (await call(guarded, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken, ...alice } })
    expect(JSON.stringify(await rendered(await call(guarded, "/Dashboard", { jar })))).toContain("the dashboard")
  })

  it("fails: a request for //evil.example/x is sent back to the path /evil.example/x on the app, never protocol-relative", async () => {
    const auth = config()
    const app = appFor({ middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/"], redirectTo: undefined })] }, { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/x": { path: "*", module: { default: () => null } } })
    const refused = await app(new Request(`${origin}//evil.example/x?y=1`))
    expect(refused.status).toBe(303)
    const location = new URL(refused.headers.get("location")!)
    expect(location.origin).toBe(origin)
    expect(location.searchParams.get("callbackUrl")).toBe("/evil.example/x?y=1")
    const data = await app(new Request(`${origin}//evil.example/x.data`))
    expect(new URL((await singleFetchRedirect(data))!.redirect).searchParams.get("callbackUrl")).toBe("/evil.example/x")
  })

  it("fails: a cookie from an app with another secret is no session here, and is cleared; the app's own is", async () => {
    const other = appOf(config({ secret: "another-secret-0123456789-abcdefghijklmnopqrs" }))
    const app = appOf(config())
    const jar = new CookieJar()
    await signInAlice(other, jar)
    const page = await call(app, "/", { jar })
    expect((await rendered(page)).loaderData.root).toEqual({ user: null })
    expect(cookieNames(page)).toContain("sesame.session-token")
    expect(liveSessionCookies(page)).toEqual([])
    expect((await call(app, "/dashboard", { jar })).status).toBe(303)
    const own = new CookieJar()
    await signInAlice(app, own)
    expect((await rendered(await call(app, "/", { jar: own }))).loaderData.root).toMatchObject({ user: { name: "Alice" } })
  })
})
