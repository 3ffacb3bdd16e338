/**
 * Security review of `@sesame/nuxt/server`: each attack beside the legitimate request. A test that
 * fails today is a finding; those that pass are attacks that held.
 *
 * The "page" routes use Nuxt's own request-URL derivation (`toRequestEvent` of
 * `@nuxt/nitro-server`, what the SSR renderer and Vue Router read) and Vue Router's default
 * matching (case-insensitive, optional trailing slash), so that what a page renders is what Nuxt
 * would render for the same raw request.
 */
import { request as httpRequest } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { authorize, sessionMiddleware, signIn, signOut } from "@sesame/nuxt/server"
import { createError, defineEventHandler, getQuery, readFormData, type H3Event } from "h3"
import { appFor, config, CookieJar, liveSessionCookies, serveApp, signInAlice, users, type Running } from "./helpers.js"
// @ts-expect-error: an internal module of Nuxt's Nitro server, without types at this path
import { toRequestEvent } from "../../../node_modules/@nuxt/nitro-server/dist/runtime/utils/event.mjs"
// @ts-expect-error: Nuxt's island hash (the one its island handler checks), without types at this path
import { getIslandHash } from "../../../node_modules/@nuxt/nitro-server/dist/runtime/nuxt/src/app/island-hash.mjs"
// Nuxt's renderer's payload URL helper (typed beside it).
import { payloadRequestToRoute } from "../../../node_modules/nuxt/dist/runtime/server/renderer/url.js"

const running: Running[] = []
async function serve(...args: Parameters<typeof appFor>): Promise<Running> {
  const app = await serveApp(appFor(...args))
  running.push(app)
  return app
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

/** A raw HTTP/1.1 GET with the path exactly as given (fetch would normalise `..` and `%2e%2e`). */
function rawGet(origin: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: "GET", headers }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on("error", reject)
    req.end()
  })
}

/** The page Nuxt renders for the event: Nuxt's request URL, matched as Vue Router does by default. */
function nuxtPage(event: H3Event): string {
  const { pathname } = (toRequestEvent(event) as { url: URL }).url
  if (/^\/account\/?$/i.test(pathname)) return "SECRET account page"
  throw createError({ statusCode: 404 })
}

/** The app of the README with a Nuxt page catch-all and a protected API route with a parameter. */
function withPages(auth = config(), protect = ["/dashboard", "/account", "/api/private"]) {
  return serve(
    auth,
    (router) => {
      router.get("/api/private/:id", defineEventHandler((event) => `SECRET record ${event.context.params?.id}`))
      router.get("/**", defineEventHandler(nuxtPage))
    },
    [sessionMiddleware(auth), authorize(auth, { protect })],
  )
}

describe("authorize: URL spellings", () => {
  it("legitimate: a signed-in user gets the page and the API route; a visitor is sent to sign in", async () => {
    const app = await withPages()
    expect((await app.call("/dashboard")).status).toBe(303)
    expect((await app.call("/Dashboard/")).status).toBe(303)
    expect((await app.call("/api/private/1")).status).toBe(303)
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call("/dashboard", { jar })).text()).toBe("dashboard of Alice")
    expect(await (await app.call("/api/private/1", { jar })).text()).toBe("SECRET record 1")
  })

  it("fails (a bypass): an encoded `?` (%3F) ends the path for h3's router and Nuxt's renderer, not for the guard", async () => {
    const app = await withPages()
    // h3 decodes the path (`_decodePath`) to `/dashboard?`, and its router drops what follows `?`.
    for (const path of ["/dashboard%3F", "/dashboard%3f", "/dashboard%3Fx=1"]) {
      const answer = await app.call(path)
      expect.soft(answer.status, path).toBe(303)
      expect.soft(await answer.text(), path).not.toContain("dashboard of")
    }
    // Held: a %3F below the protected segment keeps the path under it.
    const api = await app.call("/api/private/1%3F")
    expect(api.status).toBe(303)
    expect(await api.text()).not.toContain("SECRET")
  })

  it("fails (a bypass): a Nuxt page behind %3F renders for a visitor without a session", async () => {
    const app = await withPages()
    expect((await app.call("/Account/", { headers: { accept: "text/html" } })).status).toBe(303)
    for (const path of ["/account%3F", "/Account%3F", "/account/%3F"]) {
      const body = await (await app.call(path, { headers: { accept: "text/html" } })).text()
      expect.soft(body, path).not.toContain("SECRET")
    }
  })

  it("fails (a bypass): a `..` (or `%2e%2e`) segment after a protected prefix: the guard resolves it, h3's router does not", async () => {
    const app = await withPages()
    // getRequestURL → new URL("/api/private/..") is "/api/"; h3's router matches /api/private/:id with id "..".
    for (const path of ["/api/private/..", "/api/private/%2e%2e", "/api/private/%2E%2E", "/dashboard/..", "/dashboard/%2e%2e/", "/dashboard/../auth/session"]) {
      const answer = await rawGet(app.origin, path)
      expect.soft(answer.body, path).not.toMatch(/SECRET|below the dashboard/)
    }
  })

  it("held: Nuxt's renderer 404s dot segments; doubled slashes, case, %2F, %5C and backslashes are guarded or not routed", async () => {
    const app = await withPages()
    for (const path of ["/dashboard/.", "/x/../dashboard", "/%2e/dashboard", "//dashboard", "/DASHBOARD", "/%64ashboard", "/dashboard%2F", "/dashboard%5C", "/%5Cdashboard", "/\\dashboard", "/dashboard;x", "/dashboard/_payload.json", "/__nuxt_island/../dashboard", "/account/..", "/%2e/account", "/account%23", "/account%2F"]) {
      const answer = await rawGet(app.origin, path)
      expect(answer.body, path).not.toMatch(/SECRET|dashboard of|below the dashboard/)
    }
  })

  it("held: HEAD and OPTIONS of a protected path are guarded too", async () => {
    const app = await withPages()
    expect((await app.call("/dashboard", { method: "HEAD" })).status).toBe(303)
    expect((await app.call("/api/private/1", { method: "OPTIONS" })).status).not.toBe(200)
  })
})

describe("authorize: Nuxt's island and payload routes", () => {
  /**
   * Nuxt's handling of a server page (`pages/account.server.vue`): the browser fetches
   * `/__nuxt_island/page_account_<hash>.json?url=/account`, the hash being Nuxt's unkeyed
   * `getIslandHash({ name, props, context })`, and the page renders for `url` (the router plugin
   * checks only that `url` routes to that page). Simulated here with Nuxt's own hash.
   */
  function islandRoute(event: H3Event): string {
    const file = String(event.context.params?.file ?? "")
    const [, name, hash] = /^(page_[a-z]+)_([A-Za-z0-9]+)\.json$/.exec(file) ?? []
    const { props = "{}", ...context } = getQuery(event) as Record<string, string>
    if (!name || hash !== getIslandHash({ name, props: JSON.parse(props), context })) throw createError({ statusCode: 400 })
    if (name === "page_account" && /^\/account\/?$/i.test(new URL(String(context.url ?? "/"), "http://x").pathname)) return "SECRET account server page"
    throw createError({ statusCode: 400 })
  }

  it("fails (a bypass): a server page guarded by authorize renders through its island URL for a visitor without a session", async () => {
    const auth = config()
    const app = await serve(auth, (router) => router.get("/__nuxt_island/:file", defineEventHandler(islandRoute)), [sessionMiddleware(auth), authorize(auth, { protect: ["/account"] })])
    const context = { url: "/account" }
    const path = `/__nuxt_island/page_account_${getIslandHash({ name: "page_account", props: {}, context })}.json?url=${encodeURIComponent(context.url)}`
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call(path, { jar })).text()).toBe("SECRET account server page")
    expect(await (await app.call(path)).text()).not.toContain("SECRET")
  })

  it("fails (a bypass, predicate `protect` only): Nuxt's payload regex has an unescaped `.`: /account/_payloadXjson is the page's payload", async () => {
    const auth = config()
    // Nuxt: PAYLOAD_URL_RE = /^[^?]*\/_payload.json(?:\?.*)?$/, then payloadRequestToRoute (nuxt/dist/runtime/server/renderer/index.js:32,208).
    const payload = defineEventHandler((event) => {
      const url = (toRequestEvent(event) as { url: URL }).url
      if (!/^[^?]*\/_payload.json(?:\?.*)?$/.test(url.pathname)) throw createError({ statusCode: 404 })
      const route = payloadRequestToRoute(url.pathname, "_payload.json") as string
      if (/^\/account\/?$/i.test(route)) return { secret: "SECRET account payload" }
      throw createError({ statusCode: 404 })
    })
    const app = await serve(auth, (router) => router.get("/**", payload), [sessionMiddleware(auth), authorize(auth, { protect: (path) => path === "/account" })])
    expect((await app.call("/account/_payload.json")).status).toBe(303)
    expect(await (await app.call("/account/_payloadXjson")).text()).not.toContain("SECRET")
  })
})

describe("redirects, hosts and cookies", () => {
  it("held: signIn's redirectTo taken from the form cannot send the browser off-site", async () => {
    const auth = config()
    const app = await serve(auth, (router) => {
      router.post(
        "/signin-to",
        defineEventHandler(async (event) => {
          const form = await readFormData(event)
          return signIn(event, "credentials", { redirectTo: String(form.get("redirectTo")), username: form.get("username"), password: form.get("password") })
        }),
      )
    })
    const ok = await app.call("/signin-to", { form: { username: "alice", password: users.alice.password, redirectTo: "/dashboard" } })
    expect(ok.headers.get("location")).toBe(`${app.origin}/dashboard`)
    for (const redirectTo of ["https://evil.example/", "//evil.example/", "/\\evil.example/", "\\\\evil.example", "javascript:alert(1)", " //evil.example"]) {
      const answer = await app.call("/signin-to", { form: { username: "alice", password: users.alice.password, redirectTo } })
      expect.soft(new URL(answer.headers.get("location") ?? "/", app.origin).origin, redirectTo).toBe(app.origin)
    }
  })

  it("held: a forged X-Forwarded-Host / Host is not written into the guard's Location without trustHost", async () => {
    const app = await withPages(config({ trustHost: false }))
    const forgeries: Record<string, string>[] = [{ "x-forwarded-host": "evil.example" }, { host: "evil.example" }, { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }]
    for (const headers of forgeries) {
      const answer = await rawGet(app.origin, "/dashboard", headers)
      expect(String(answer.headers.location ?? ""), JSON.stringify(headers)).not.toContain("evil.example")
    }
  })

  it("held: the way back after a %3F or //evil spelling stays a path on the app", async () => {
    const app = await withPages()
    for (const path of ["//evil.example/dashboard", "/dashboard?x=//evil.example", "/%2F%2Fevil.example/dashboard"]) {
      const answer = await rawGet(app.origin, path)
      const location = String(answer.headers.location ?? "")
      if (!location) continue
      const callback = new URL(location, app.origin).searchParams.get("callbackUrl") ?? ""
      expect(new URL(callback, app.origin).origin, path).toBe(app.origin)
    }
  })

  it("held: a login CSRF (another site's post to the app's /signin and /signout) is refused", async () => {
    const app = await withPages()
    const crossSite = await app.call("/signin", { form: { username: "alice", password: users.alice.password }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers.getSetCookie().join()).not.toContain("sesame.session-token=ey")
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const out = await app.call("/signout", { jar, form: {}, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(out.status).toBe(403)
    expect((await app.call("/dashboard", { jar })).status).toBe(200)
  })

  it("held: a sign-out's cleared cookie is the only session line (no renewed cookie survives), and the answer is private", async () => {
    const app = await withPages()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const out = await app.call("/signout", { jar, form: {} })
    expect(out.status).toBe(303)
    const lines = out.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))
    expect(lines.length).toBe(1)
    expect(lines[0]).toMatch(/Max-Age=0/i)
    expect(out.headers.get("cache-control")).toBe("private, no-store")
    expect((await app.call("/dashboard", { jar })).status).toBe(303)
  })

  it("fails: a renewed session cookie goes out on a route's Response that says Cache-Control: public (h3's sendWebResponse sets the route's header over the middleware's)", async () => {
    const auth = config({ session: { updateAge: 0 } })
    const app = await serve(auth, (router) => {
      router.get("/news", defineEventHandler(() => new Response("news", { headers: { "cache-control": "public, max-age=600" } })))
      router.get("/news-plain", defineEventHandler(() => "news"))
    })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const plain = await app.call("/news-plain", { jar })
    expect(liveSessionCookies(plain).length).toBe(1)
    expect(plain.headers.get("cache-control")).toBe("private, no-store")
    const cached = await app.call("/news", { jar })
    if (liveSessionCookies(cached).length > 0) expect(cached.headers.get("cache-control")).toBe("private, no-store")
  })

  it("held: a route's Response setting the session cookie itself does not leave two session lines", async () => {
    const auth = config({ session: { updateAge: 0 } })
    const app = await serve(auth, (router) => {
      router.post("/signout-plain", defineEventHandler((event) => signOut(event, { redirectTo: "/" })))
    })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const out = await app.call("/signout-plain", { jar, form: {} })
    expect(out.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token=")).length).toBe(1)
    expect(liveSessionCookies(out)).toEqual([])
  })
})
