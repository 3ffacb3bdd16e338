/**
 * Security review of @sesame/react-router (attacker's view), through React Router's real server
 * runtime. Each finding is a test that performs the attack and expects it to fail (each failed
 * before its fix), beside a test of the legitimate flow it must not break. The attacks that were
 * tried and were defended from the start keep a test each, under "held".
 */
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage } from "@sesame/testing"
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router"
import { describe, expect, it } from "vitest"
import { authorize, getSession, requireSession, sesame, sessionMiddleware, signIn, signOut, type AuthConfig } from "@sesame/react-router"
import { aliceCredentials } from "../../core/test/helpers.js"
import { appFor, appOf, call, config, CookieJar, cookieNames, liveSessionCookies, origin, rendered, signInAlice, singleFetch, singleFetchRedirect, users, type BuildOptions, type RouteDef, type RouteModule } from "./helpers.js"

type Args = { request: Request; context: unknown }
type App = (request: Request) => Promise<Response>
const Page = (): null => null
/** A page whose loader hands out what only a signed-in user may see. */
const secretPage = { default: Page, loader: () => ({ secret: "SECRET" }) }
const alice = { username: "alice", password: users.alice.password }
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

/** Whether `answer` let the protected loader's data out (a document, a `.data` response, or JSON). */
async function leaked(answer: Response): Promise<boolean> {
  return (await answer.text()).includes("SECRET")
}

/** Signs alice in at the auth route of `app` and returns her jar. */
async function aliceJar(app: App): Promise<CookieJar> {
  const jar = new CookieJar()
  const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
  await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, ...alice } })
  expect(jar.get("sesame.session-token")).toBeTruthy()
  return jar
}

/** An app whose root has the middleware and guards `protect`, with `routes` besides the auth route. */
function guardedApp(protect: Parameters<typeof authorize>[1]["protect"], routes: Record<string, RouteDef>, options: BuildOptions = {}, auth: AuthConfig = config()): App {
  return appFor({ middleware: [sessionMiddleware(auth), authorize(auth, { protect })] }, { "routes/auth": { path: "auth/*", module: sesame(auth) }, ...routes }, options)
}

/**
 * As helpers' `appFor`, but the server hands React Router the context `context()` returns: what a
 * server's `getLoadContext` does (`createRequestHandler({ build, getLoadContext })`).
 */
function appWithContext(root: RouteModule, routes: Record<string, RouteDef>, middleware: boolean, context: () => unknown): App {
  const serverRoutes: Record<string, unknown> = { root: { id: "root", path: "", module: { default: Page, ...root } } }
  const assetRoutes: Record<string, unknown> = {}
  for (const [id, route] of Object.entries({ root: { path: "", module: root } as RouteDef, ...routes })) {
    const module = id === "root" ? (serverRoutes.root as { module: RouteModule }).module : route.module
    if (id !== "root") serverRoutes[id] = { id, parentId: route.parentId ?? "root", path: route.path, index: route.index, module }
    assetRoutes[id] = {
      id,
      parentId: id === "root" ? undefined : (route.parentId ?? "root"),
      path: route.path,
      index: route.index,
      hasAction: typeof module.action === "function",
      hasLoader: typeof module.loader === "function",
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: false,
      module: `/${id}.js`,
    }
  }
  const build = {
    entry: {
      module: {
        handleError: () => {},
        default: (_request: Request, status: number, headers: Headers, ctx: { staticHandlerContext: { loaderData: unknown } }) => {
          headers.set("content-type", "text/html; charset=utf-8")
          return new Response(JSON.stringify({ loaderData: ctx.staticHandlerContext.loaderData }), { status, headers })
        },
      },
    },
    routes: serverRoutes,
    assets: { entry: { module: "/entry.client.js", imports: [] }, routes: assetRoutes, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_middleware: middleware, v8_passThroughRequests: false },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild
  const handler = createRequestHandler(build, "production")
  return (request) => handler(request, context() as never)
}

describe("review findings (each attack test failed before its fix)", () => {
  describe("F1 (high impact): one RouterContextProvider for every request (a getLoadContext returning a constant) serves one visitor's session to the next", () => {
    const auth = config()
    const root = { middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"] })], loader: async (args: Args) => ({ user: (await getSession(args))?.user?.name ?? null }) }
    const routes: Record<string, RouteDef> = {
      "routes/auth": { path: "auth/*", module: sesame(auth) },
      "routes/home": { index: true, module: { default: Page } },
      "routes/dashboard": { path: "dashboard", module: secretPage },
    }

    it("legitimate: a new router context per request, Alice is Alice and a stranger is nobody", async () => {
      const app = appWithContext(root, routes, true, () => new RouterContextProvider())
      const jar = await aliceJar(app)
      expect(await (await call(app, "/", { jar })).text()).toContain("Alice")
      expect(await (await call(app, "/")).text()).not.toContain("Alice")
      expect((await call(app, "/dashboard")).status).toBe(303)
    })

    it("attack: after Alice's request on the shared context, a stranger without a cookie is not Alice and does not reach /dashboard", async () => {
      const shared = new RouterContextProvider()
      const app = appWithContext(root, routes, true, () => shared)
      const jar = await aliceJar(appOf(auth))
      expect(await (await call(app, "/", { jar })).text()).toContain("Alice")
      // A stranger, no cookie at all.
      expect(await (await call(app, "/")).text()).not.toContain("Alice")
      const dashboard = await call(app, "/dashboard")
      expect(await leaked(dashboard)).toBe(false)
    })
  })

  describe("F2 (medium): authorize misses a protected path spelled with a percent-encoded reserved character (/%40admin for /@admin)", () => {
    const routes = { "routes/admin": { path: "@admin", module: secretPage } }

    it("legitimate: /@admin redirects a stranger and serves Alice", async () => {
      const app = guardedApp(["/@admin"], routes)
      expect((await call(app, "/@admin")).status).toBe(303)
      const jar = await aliceJar(app)
      expect(await leaked(await call(app, "/@admin", { jar }))).toBe(true)
    })

    it("attack: /%40admin and /%40admin.data (React Router decodes each segment with decodeURIComponent; the guard's decodeURI leaves %40)", async () => {
      // Without a guard, React Router serves the page at this spelling: the attack is real.
      expect(await leaked(await call(appFor({}, routes), "/%40admin"))).toBe(true)
      for (const options of [{}, { passThrough: true }]) {
        const app = guardedApp(["/@admin"], routes, options)
        for (const path of ["/%40admin", "/%40admin.data", "/%40Admin"]) expect(await leaked(await call(app, path)), `${path} ${JSON.stringify(options)}`).toBe(false)
      }
    })
  })

  describe("F3 (low): authorize misses a protected path spelled with a Unicode case variant React Router's case-insensitive match accepts", () => {
    // React Router matches with a RegExp flagged `i` (not `u`): characters are equal when their
    // toUpperCase() is; the guard compares toLowerCase(). U+1C82 (CYRILLIC SMALL LETTER NARROW O)
    // and U+00B5 (MICRO SIGN) upper-case to О and Μ, but lower-case to themselves.
    const routes = { "routes/ru": { path: "профиль", module: secretPage }, "routes/gr": { path: "μενού", module: secretPage } }
    const variants = ["/пр\u1C82филь", "/\u00B5ενού"]

    it("legitimate: /профиль and /μενού redirect a stranger", async () => {
      const app = guardedApp(["/профиль", "/μενού"], routes)
      for (const path of ["/профиль", "/μενού", "/ПРОФИЛЬ"]) expect((await call(app, path)).status, path).toBe(303)
    })

    it("attack: the variants reach the pages", async () => {
      for (const path of variants) expect(await leaked(await call(appFor({}, routes), path)), `unguarded ${path}`).toBe(true)
      const app = guardedApp(["/профиль", "/μενού"], routes)
      for (const path of variants) expect(await leaked(await call(app, path)), path).toBe(false)
    })
  })

  describe("F4 (medium): a `protect` predicate is asked about the path with its trailing slash, which React Router ignores", () => {
    const protect = (path: string) => path === "/settings" || /^\/users\/[^/]+\/edit$/.test(path)
    const routes = { "routes/settings": { path: "settings", module: secretPage }, "routes/edit": { path: "users/:id/edit", module: secretPage } }

    it("legitimate: /settings and /users/1/edit redirect a stranger", async () => {
      const app = guardedApp(protect, routes)
      expect((await call(app, "/settings")).status).toBe(303)
      expect((await call(app, "/users/1/edit")).status).toBe(303)
    })

    it("attack: /settings/, /Settings//, /users/1/edit/ reach the pages", async () => {
      for (const options of [{}, { passThrough: true }]) {
        const app = guardedApp(protect, routes, options)
        for (const path of ["/settings/", "/Settings//", "/users/1/edit/"]) expect(await leaked(await call(app, path)), `${path} ${JSON.stringify(options)}`).toBe(false)
      }
    })
  })

  describe("F5 (medium): with React Router's `basename`, `protect: [\"/dashboard\"]` (a route path as the app names it) protects nothing", () => {
    const routes = { "routes/dashboard": { path: "dashboard", module: secretPage } }

    it("legitimate: the same app without a basename guards /dashboard", async () => {
      expect((await call(guardedApp(["/dashboard"], routes), "/dashboard")).status).toBe(303)
    })

    it("attack: /app/dashboard, /APP/dashboard and /app/dashboard.data are served to a stranger (fixed: authorize takes the basename)", async () => {
      const auth = config()
      const app = appFor({ middleware: [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"], basename: "/app" })] }, routes, { basename: "/app" })
      for (const path of ["/app/dashboard", "/APP/dashboard", "/app/dashboard.data"]) expect(await leaked(await call(app, path)), path).toBe(false)
    })
  })

  describe("F6 (low): signIn during a storage outage is a 500 (no Retry-After), not the core's 503", () => {
    function outageApp() {
      const storage = outage(MemoryAdapter())
      const auth = config({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], logger: quiet })
      return { app: appOf(auth), storage }
    }

    it("legitimate: with the storage up, the README's login action signs in (303)", async () => {
      const { app } = outageApp()
      expect((await signInAlice(app, new CookieJar())).status).toBe(303)
    })

    it("attack (a visitor signing in while the database restarts): the README's login action answers 503, not 500", async () => {
      const { app, storage } = outageApp()
      storage.down()
      const page = await signInAlice(app, new CookieJar())
      expect(page.status).toBe(503)
      const data = await call(app, "/login.data", { form: alice })
      expect(data.status).toBe(503)
    })
  })

  describe("F7 (low): a forged Host on a post to the sign-in action is a 500 (UntrustedHost thrown as an AuthError), not a 4xx", () => {
    it("legitimate: the app's own host signs in", async () => {
      expect((await signInAlice(appOf(config()), new CookieJar())).status).toBe(303)
    })

    it("attack: Host and Origin evil.example (React Router's origin check passes, the core refuses the host)", async () => {
      const answer = await appOf(config({ logger: quiet }))(
        new Request("http://evil.example/login", { method: "POST", headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(alice) }),
      )
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(liveSessionCookies(answer)).toEqual([])
    })
  })
})

describe("review: attacks that held", () => {
  it("every other spelling of a protected page, resource route and data request is guarded (document, .data, HEAD, OPTIONS, passThrough)", async () => {
    const routes: Record<string, RouteDef> = {
      "routes/dashboard": { path: "dashboard", module: secretPage },
      "routes/dashboard.export": { path: "dashboard/export", module: { loader: () => Response.json({ secret: "SECRET" }) } },
      "routes/home": { index: true, module: { default: Page } },
    }
    const spellings = [
      "/dashboard/", "/dashboard//", "//dashboard", "/dashboard\\", "/Dashboard", "/%64ashboard", "/dashboard?index", "/dashboard/.data", "/dashboard.data?_routes=", "/dashboard.data?_routes=root",
      "/_root.data?_routes=routes%2Fdashboard", "/_root.data?_routes=routes/dashboard,root", "/dashboard/export", "/Dashboard/Export", "/dashboard/export.data", "/dashboard/%65xport", "/auth/..%2Fdashboard", "/auth/%2E%2E/dashboard",
      "/dashboard;x", "/dashboard%3B", "/dashboard%2F", "/dashboard%", "/%E0%A4%A",
    ]
    for (const options of [{}, { passThrough: true }]) {
      const app = guardedApp(["/dashboard"], routes, options)
      for (const path of spellings) {
        for (const method of ["GET", "HEAD", "OPTIONS"]) {
          const answer = await app(new Request(`${origin}${path}`, { method }))
          expect(await leaked(answer), `${method} ${path} ${JSON.stringify(options)}`).toBe(false)
          expect(answer.status, `${method} ${path}`).toBeLessThan(500)
        }
      }
    }
  })

  it("a guard in a layout route's middleware runs for a .data request whose _routes leaves the layout out", async () => {
    const auth = config()
    const app = appFor(
      { middleware: [sessionMiddleware(auth)] },
      {
        "routes/auth": { path: "auth/*", module: sesame(auth) },
        "routes/admin": { path: "admin", module: { default: Page, middleware: [authorize(auth, { protect: ["/"] })], loader: () => ({ layout: true }) } },
        "routes/admin.users": { path: "users", parentId: "routes/admin", module: secretPage },
      },
    )
    for (const path of ["/admin/users.data?_routes=routes%2Fadmin.users", "/admin/users.data?_routes=root", "/admin/users"]) {
      const answer = await call(app, path)
      expect(await leaked(answer), path).toBe(false)
    }
    const redirect = await singleFetchRedirect(await call(app, "/admin/users.data?_routes=routes%2Fadmin.users"))
    expect(redirect?.redirect).toBe(`${origin}/auth/signin?callbackUrl=%2Fadmin%2Fusers`)
    const jar = await aliceJar(app)
    expect(await singleFetch(await call(app, "/admin/users.data?_routes=routes%2Fadmin.users", { jar }))).toMatchObject({ "routes/admin.users": { data: { secret: "SECRET" } } })
  })

  it("the workaround for F2/F3/F5: authorize with protect [\"/\"] in the protected route's own middleware guards every spelling React Router routes to it", async () => {
    const auth = config()
    const guarded = { ...secretPage, middleware: [authorize(auth, { protect: ["/"] })] }
    const app = appFor(
      { middleware: [sessionMiddleware(auth)] },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/admin": { path: "@admin", module: guarded }, "routes/gr": { path: "μενού", module: guarded }, "routes/settings": { path: "settings", module: guarded } },
      { basename: "/app" },
    )
    for (const path of ["/app/%40admin", "/app/%40admin.data", "/app/\u00B5ενού", "/APP/settings/"]) expect(await leaked(await call(app, path)), path).toBe(false)
  })

  it("basename: protect paths written with the basename guard every spelling", async () => {
    const app = guardedApp(["/app/dashboard"], { "routes/dashboard": { path: "dashboard", module: secretPage } }, { basename: "/app" })
    for (const path of ["/app/dashboard", "/APP/dashboard", "/app/dashboard.data", "/app/_root.data?_routes=routes%2Fdashboard"]) expect(await leaked(await call(app, path)), path).toBe(false)
  })

  it("a redirectTo posted in the form (signIn / signOut given the FormData) never leaves the app's origin", async () => {
    const auth = config()
    const app = appFor(
      { middleware: [sessionMiddleware(auth)] },
      {
        "routes/auth": { path: "auth/*", module: sesame(auth) },
        "routes/login": { path: "login", module: { default: Page, action: async (args: Args) => signIn(args, "credentials", await args.request.formData()) } },
        "routes/logout": { path: "logout", module: { default: Page, action: async (args: Args) => signOut(args, (await args.request.formData()) as never) } },
      },
    )
    const targets = ["//evil.example", "/\\evil.example/x", "\\\\evil.example", "/%5Cevil.example", "https:evil.example", " //evil.example", "\t//evil.example", "/\t/evil.example", "javascript:alert(1)", "http://localhost:3000@evil.example/", "http://localhost:3000.evil.example/"]
    for (const redirectTo of targets) {
      for (const [path, form] of [["/login", { ...alice, redirectTo }], ["/logout", { redirectTo }]] as const) {
        const answer = await call(app, path, { form })
        expect(answer.status, `${path} ${redirectTo}`).toBe(303)
        expect(new URL(answer.headers.get("location")!).origin, `${path} ${redirectTo}`).toBe(origin)
      }
    }
    // A `redirect` field from the form does not turn the redirect off (the cookies would be lost).
    const answer = await call(app, "/login", { form: { ...alice, redirect: "false" } })
    expect(answer.status).toBe(303)
    expect(liveSessionCookies(answer)).toHaveLength(1)
  })

  it("cross-site posts to the sign-in and sign-out actions are refused as 4xx, with no cookie set or cleared", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const post = (path: string, headers: Record<string, string>, cookie?: string) =>
      app(new Request(`${origin}${path}`, { method: "POST", headers: { ...headers, ...(cookie ? { cookie } : {}), "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(alice) }))
    for (const path of ["/login", "/login.data", "/logout", "/logout.data"]) {
      for (const headers of [{ origin: "null" }, { origin: "::" }, { origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }] as Record<string, string>[]) {
        const answer = await post(path, headers, jar.header())
        expect([400, 403], `${path} ${JSON.stringify(headers)}`).toContain(answer.status)
        expect(cookieNames(answer), `${path} ${JSON.stringify(headers)}`).not.toContain("sesame.session-token")
      }
    }
    expect(((await (await call(app, "/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  it("concurrent requests (a router context each) never mix sessions or cookies", async () => {
    const auth = config({ session: { updateAge: 0 } })
    const app = appOf(auth)
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? call(app, i % 4 === 1 ? "/" : "/_root.data") : call(app, i % 4 === 0 ? "/" : "/_root.data", { cookie: jar.header() })).then(async (r) => ({ i, r, text: await r.clone().text() }))))
    for (const { i, r, text } of answers) {
      if (i % 2) {
        expect(text, `stranger ${i}`).not.toContain("Alice")
        expect(cookieNames(r), `stranger ${i}`).toEqual([])
      } else {
        expect(text, `alice ${i}`).toContain("Alice")
        expect(r.headers.get("cache-control"), `alice ${i}`).toBe("private, no-store")
      }
    }
  })

  it("without middleware, a load context shared by every request (getLoadContext returning a constant) does not carry a session to the next visitor", async () => {
    const auth = config()
    const shared = { db: "the app's database" }
    const app = appWithContext(
      { loader: async (args: Args) => ({ user: (await getSession(args, auth))?.user?.name ?? null }) },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/home": { index: true, module: { default: Page } }, "routes/me": { path: "me", module: { loader: async (args: Args) => Response.json({ email: (await requireSession(args, auth)).user.email }) } } },
      false,
      () => shared,
    )
    const jar = await aliceJar(appOf(auth))
    expect(await (await call(app, "/", { jar })).text()).toContain("Alice")
    expect(await (await call(app, "/")).text()).not.toContain("Alice")
    expect((await call(app, "/me", { headers: { accept: "application/json" } })).status).toBe(401)
  })

  it("during an outage, the guard's 503 reveals nothing of the storage, sets no cookie, and is not cached", async () => {
    const storage = outage(MemoryAdapter())
    const auth = config({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], logger: quiet })
    const app = appOf(auth)
    const jar = new CookieJar()
    await signInAlice(app, jar)
    storage.down()
    for (const [path, headers] of [["/dashboard", { accept: "application/json" }], ["/dashboard.data", {}], ["/logout", { accept: "text/html" }], ["/api/me", {}]] as const) {
      const answer = await call(app, path, { jar, headers })
      const body = await answer.text()
      expect(answer.status, path).toBe(503)
      expect(body, path).not.toMatch(/ECONNREFUSED|5432|127\.0\.0\.1|stack|at /)
      expect(cookieNames(answer), path).toEqual([])
      expect(answer.headers.get("cache-control"), path).toMatch(/no-store/)
    }
    // Signing out while the storage is down is refused by the middleware's 503 before the action runs: the cookie stays.
    const logout = await call(app, "/logout", { jar, form: {} })
    expect(logout.status).toBe(503)
    storage.up()
    expect((await rendered(await call(app, "/dashboard", { jar }))).loaderData["routes/dashboard"]).toEqual({ name: "Alice" })
  })

  it("malformed cookies, headers and paths are a signed-out visitor or a 4xx, never a 500", async () => {
    const app = appOf(config({ logger: quiet }))
    const cases: [string, Record<string, string>][] = [
      ["/", { cookie: "sesame.session-token=%" }],
      ["/dashboard", { cookie: `sesame.session-token=${"A".repeat(5000)}` }],
      ["/", { cookie: "sesame.session-token.0=abc; sesame.session-token.1=def" }],
      ["/dashboard", { accept: "application/json;q=x" }],
      ["/", { "accept-language": `zz-${"a".repeat(300)}` }],
      ["/dashboard", { "x-forwarded-host": "a,b", "x-forwarded-proto": "javascript" }],
      ["/dashboard%E0%A4%A", {}],
    ]
    for (const [path, headers] of cases) {
      const answer = await call(app, path, { headers })
      expect(answer.status, `${path} ${JSON.stringify(headers).slice(0, 60)}`).toBeLessThan(500)
      expect(liveSessionCookies(answer)).toEqual([])
    }
  })
})
