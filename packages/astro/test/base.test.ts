/**
 * `authorize` under Astro's `base` (`base: "/docs"`). Astro 7 routes a request by its path decoded
 * until it stops changing, duplicate slashes collapsed, then the base stripped where the path is
 * under it (`stripRequestBase` in Astro's `FetchState`); a path outside the base is routed as it
 * is, so the Node adapter's server renders the page `/dashboard` for `/docs/dashboard` and for
 * `/dashboard` alike, while `context.url` shows the app the path with or without the base as it
 * was asked for. `astroRoute` below is that rule; the spellings attacked are those a built app
 * (`astro build`, `@astrojs/node` standalone, `base: "/docs"`) was seen to render the page for.
 *
 * The package reads the base from `import.meta.env.BASE_URL`, which Vite writes into it in an
 * Astro build; here `vi.stubEnv` sets it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { authorize } from "@sesame/astro"
import { decodedPath } from "@sesame/core/integration"
import { config, contextFor, CookieJar, origin, siteFor, signInAlice } from "./helpers.js"
import { request } from "../../core/test/helpers.js"

const base = "/docs"

/** Astro's normalized path (`context.url.pathname`) and the route it matches, for `pathname`. */
function astroRoute(pathname: string): { shown: string; route: string } {
  const shown = decodedPath(pathname)!
  const route = shown === base ? "/" : shown.startsWith(`${base}/`) ? shown.slice(base.length) : shown
  return { shown, route: route.replace(/(.)\/+$/, "$1") }
}

/** Whether `guard` lets a request for `path` through to the page, as a built Astro app hands it over. */
async function reachesPage(guard: ReturnType<typeof authorize>, path: string, cookie?: string): Promise<boolean> {
  const raw = request(`${origin}${path}`, { cookie })
  const context = contextFor(raw, {})
  Object.defineProperty(context, "url", { value: new URL(astroRoute(new URL(raw.url).pathname).shown, origin) })
  let rendered = false
  await guard(context, async () => {
    rendered = true
    return new Response("page")
  })
  return rendered
}

/** Spellings Astro renders the page `/dashboard` (or below it) for, with `base: "/docs"`. */
const dashboard = [
  "/docs/dashboard",
  "/docs/dashboard/",
  "/docs/dashboard/keys",
  "/dashboard",
  "/dashboard/",
  "/dashboard/keys",
  "//dashboard",
  "/%64ashboard",
  "/%64ocs/dashboard",
  "/%2564ocs/dashboard",
  "/docs/%64ashboard",
  "//docs/dashboard",
  "/docs//dashboard",
  "/docs/./dashboard",
  "/docs/../docs/dashboard",
  "/x/../dashboard",
]

describe("authorize under Astro's base", () => {
  beforeEach(() => {
    vi.stubEnv("BASE_URL", base)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it("the test's routing rule is Astro's: each spelling is the page /dashboard (or below it)", () => {
    for (const path of dashboard) expect(astroRoute(new URL(`${origin}${path}`).pathname).route).toMatch(/^\/dashboard(\/keys)?$/)
  })

  for (const protect of [["/docs/dashboard"], ["/dashboard"], ["/docs/dashboard/"]]) {
    it(`fails: with protect ${JSON.stringify(protect)}, no spelling reaches the page signed out; a signed-in visitor does`, async () => {
      const guard = authorize(config({ basePath: "/docs/auth" }), { protect })
      const reached = []
      for (const path of dashboard) if (await reachesPage(guard, path)) reached.push(path)
      expect(reached).toEqual([])
      // The pages beside it, in the base and outside it, stay open.
      for (const path of ["/docs", "/docs/", "/docs/about", "/about", "/docs/dashboards", "/docs/docs"]) expect(await reachesPage(guard, path)).toBe(true)
      // The auth endpoint is never guarded.
      expect(await reachesPage(guard, "/docs/auth/signin")).toBe(true)
      // Signed in, every spelling reaches it.
      const jar = new CookieJar()
      await signInAlice(siteFor(config()), jar)
      for (const path of dashboard) expect(await reachesPage(guard, path, jar.header())).toBe(true)
    })
  }

  it("fails: protect ['/docs'] guards the whole app, the paths outside the base Astro still routes too", async () => {
    const guard = authorize(config({ basePath: "/api/auth" }), { protect: ["/docs"] })
    for (const path of ["/docs", "/docs/", "/docs/about", "/about", "/dashboard", "/"]) expect(await reachesPage(guard, path)).toBe(false)
    expect(await reachesPage(guard, "/api/auth/signin")).toBe(true)
  })

  it("fails: a predicate is asked about the route as well as the address", async () => {
    const byRoute = authorize(config(), { protect: (path) => path === "/dashboard" })
    const byAddress = authorize(config(), { protect: (path) => path.startsWith("/docs/dashboard") })
    for (const path of dashboard.filter((path) => !path.endsWith("/keys"))) expect(await reachesPage(byRoute, path)).toBe(false)
    for (const path of dashboard) expect(await reachesPage(byAddress, path)).toBe(false)
    expect(await reachesPage(byRoute, "/docs/about")).toBe(true)
  })

  it("refuses a redirectTo that is itself protected, written with the base or without it", () => {
    expect(() => authorize(config(), { protect: ["/signin"], redirectTo: "/docs/signin" })).toThrow(TypeError)
    expect(() => authorize(config(), { protect: ["/docs/signin"], redirectTo: "/signin" })).toThrow(TypeError)
    expect(() => authorize(config(), { protect: ["/docs/dashboard"], redirectTo: "/docs/signin" })).not.toThrow()
  })

  it("without a base, /docs is a path like any other", async () => {
    vi.unstubAllEnvs()
    vi.stubEnv("BASE_URL", "/")
    const guard = authorize(config(), { protect: ["/docs/dashboard"] })
    expect(await reachesPage(guard, "/docs/dashboard")).toBe(false)
    expect(await reachesPage(guard, "/dashboard")).toBe(true)
  })
})
