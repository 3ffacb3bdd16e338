/**
 * The guards: `authorize` (middleware over a list of paths) and `requireSession(args)` (thrown
 * from a loader), for a document, a client-side navigation's `.data` request, a JSON client and a
 * resource route; `allow`; `redirectTo`; options checked when the guard is made.
 */
import { describe, expect, it } from "vitest"
import { authorize, requireSession, sesame, sessionMiddleware } from "@sesame/react-router"
import { appFor, appOf, call, config, CookieJar, origin, rendered, signInAlice, singleFetchRedirect, users } from "./helpers.js"

type Args = { request: Request; context: unknown }
const json = { accept: "application/json" }
const signInAt = (callbackUrl: string) => `${origin}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`

/** An app whose root guards `/dashboard` with `options`, and whose `/admin` loader calls `requireSession(args, options)`. */
function guarded(options: Parameters<typeof authorize>[1]) {
  const auth = config()
  return appFor(
    { middleware: [sessionMiddleware(auth), authorize(auth, options)] },
    {
      "routes/auth": { path: "auth/*", module: sesame(auth) },
      "routes/dashboard": { path: "dashboard", module: { default: () => null, loader: () => ({ ok: true }) } },
      "routes/signin": { path: "signin", module: { default: () => null } },
      "routes/admin": { path: "admin", module: { default: () => null, ErrorBoundary: () => null, loader: async (args: Args) => ({ email: (await requireSession(args, { allow: options.allow })).user.email }) } },
    },
  )
}

describe("authorize", () => {
  it("sends a visitor without a session from a protected page to the sign-in page with the way back (303, private), before any loader runs", async () => {
    const answer = await call(appOf(config()), "/dashboard?tab=keys")
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe(signInAt("/dashboard?tab=keys"))
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
  })

  it("turns a client-side navigation's .data request into React Router's redirect to the sign-in page, coming back to the page (not to .data)", async () => {
    const answer = await call(appOf(config()), "/dashboard.data?_routes=routes%2Fdashboard")
    expect(answer.status).toBe(202)
    // React Router's browser router loads Sesame's page as a document: it is a resource route, not a page of the app.
    expect(await singleFetchRedirect(answer)).toMatchObject({ redirect: signInAt("/dashboard"), status: 303, reload: true })
    // To a page of the app's own (redirectTo), the navigation stays client-side.
    const own = await call(guarded({ protect: ["/dashboard"], redirectTo: "/signin" }), "/dashboard.data")
    expect(await singleFetchRedirect(own)).toMatchObject({ redirect: "/signin", status: 303, reload: false })
  })

  it("answers a JSON client 401 with the core's body, and protects what is below the path, not its siblings", async () => {
    const app = appOf(config())
    const refused = await call(app, "/dashboard/keys", { headers: json })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    expect((await call(app, "/about")).status).toBe(200)
    expect((await call(app, "/dashboards")).status).toBe(404)
  })

  it("lets a signed-in user through to the page's loader", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const page = await call(app, "/dashboard", { jar })
    expect(page.status).toBe(200)
    expect((await rendered(page)).loaderData["routes/dashboard"]).toEqual({ name: "Alice" })
  })

  it("with allow: a signed-in user it refuses gets 403 (plain text, or JSON for a JSON client), one it lets through the page", async () => {
    const app = guarded({ protect: ["/dashboard"], allow: (session) => session.user.email === "bob@example.com" })
    const jar = new CookieJar()
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await token(app, jar), username: "alice", password: users.alice.password } })
    const page = await call(app, "/dashboard", { jar })
    expect(page.status).toBe(403)
    expect(await page.text()).toBe("Access denied.")
    const api = await call(app, "/dashboard", { jar, headers: json })
    expect(await api.json()).toEqual({ error: "Forbidden", message: "Access denied." })
    const allowed = guarded({ protect: ["/dashboard"], allow: (session) => session.user.email === "alice@example.com" })
    const jar2 = new CookieJar()
    await call(allowed, "/auth/callback/credentials", { jar: jar2, form: { csrfToken: await token(allowed, jar2), username: "alice", password: users.alice.password } })
    expect((await call(allowed, "/dashboard", { jar: jar2 })).status).toBe(200)
  })

  it("with redirectTo: sends the visitor to that path on this site", async () => {
    const answer = await call(guarded({ protect: ["/dashboard"], redirectTo: "/signin" }), "/dashboard")
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe("/signin")
  })

  it("protects the whole app with \"/\", except the auth route (how a visitor signs in)", async () => {
    const app = guarded({ protect: ["/"], redirectTo: "/auth/signin" })
    expect((await call(app, "/signin")).status).toBe(303)
    expect((await call(app, "/auth/signin")).status).toBe(200)
    expect((await call(app, "/auth/session")).status).toBe(200)
  })

  it("checks its options when it is made", () => {
    const auth = config()
    expect(() => authorize(auth, undefined as never)).toThrow(/protect/)
    expect(() => authorize(auth, { protect: "dashboard" as never })).toThrow(TypeError)
    expect(() => authorize(auth, { protect: ["dashboard"] })).toThrow(/path such as/)
    expect(() => authorize(auth, { protect: ["/dashboard"], redirectTo: "https://evil.example/" })).toThrow(/path on this site/)
    expect(() => authorize(auth, { protect: ["/dashboard"], redirectTo: "//evil.example/" })).toThrow(/path on this site/)
    expect(() => authorize(auth, { protect: ["/dashboard"], redirectTo: "/Dashboard/in" })).toThrow(/itself protected/)
    expect(() => authorize(auth, { protect: ["/dashboard"], allow: "admin" as never })).toThrow(/`allow` must be a function/)
    expect(() => authorize(null as never, { protect: ["/dashboard"] })).toThrow(/configuration object/)
    expect(() => authorize(auth, { protect: ["/dashboard"], basename: "app" })).toThrow(/`basename` must be the app's basename/)
    expect(() => authorize(auth, { protect: ["/dashboard"], basename: "/app", redirectTo: "/app/dashboard/x" })).toThrow(/itself protected/)
    expect(() => authorize(auth, { protect: ["/"], redirectTo: "/auth/signin" })).not.toThrow()
  })
})

describe("requireSession", () => {
  it("thrown from a page's loader: the sign-in redirect for a document, React Router's redirect for a .data request", async () => {
    const app = appOf(config())
    const page = await call(app, "/account?x=1")
    expect(page.status).toBe(303)
    expect(page.headers.get("location")).toBe(signInAt("/account?x=1"))
    expect(page.headers.get("cache-control")).toBe("private, no-store")
    const data = await call(app, "/account.data")
    expect(data.status).toBe(202)
    expect(await singleFetchRedirect(data)).toMatchObject({ redirect: signInAt("/account"), status: 303 })
  })

  it("thrown from a resource route: 401 JSON for a JSON client, as it is; the session's user once signed in", async () => {
    const app = appOf(config())
    const refused = await call(app, "/api/me", { headers: json })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/api/me", { jar })).json()).toEqual({ email: "alice@example.com" })
    const page = await call(app, "/account", { jar })
    expect((await rendered(page)).loaderData["routes/account"]).toEqual({ email: "alice@example.com" })
  })

  it("with allow: a refused user's 403 reaches the page's ErrorBoundary with its status", async () => {
    const app = guarded({ protect: ["/dashboard"], allow: (session) => session.user.email === "bob@example.com" })
    const jar = new CookieJar()
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await token(app, jar), username: "alice", password: users.alice.password } })
    const page = await call(app, "/admin", { jar })
    expect(page.status).toBe(403)
    expect((await rendered(page)).errors?.["routes/admin"]).toEqual({ status: 403, data: "Access denied." })
  })

  it("takes the configuration or options as its second argument, and checks the options", async () => {
    const auth = config()
    const request = new Request(`${origin}/x`)
    const withConfig = await requireSession({ request, context: {} }, auth).catch((thrown: unknown) => thrown)
    expect((withConfig as Response).status).toBe(303)
    const withBoth = await requireSession({ request, context: {} }, auth, { redirectTo: "/signin" }).catch((thrown: unknown) => thrown)
    expect((withBoth as Response).headers.get("location")).toBe("/signin")
    await expect(requireSession({ request, context: {} }, auth, { redirectTo: "http://evil.example" })).rejects.toThrow(TypeError)
    await expect(requireSession({ request, context: {} })).rejects.toThrow(/needs Sesame's configuration/)
  })
})

async function token(app: (request: Request) => Promise<Response>, jar: CookieJar): Promise<string> {
  return ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
}
