/**
 * @sesame/tanstack-start on TanStack Start's own server runtime (the test app in ./app, built with
 * its Vite plugin and served by srvx): the auth server route, the session middleware (one read per
 * request, kept alive on every kind of response, never on Sesame's own route), the guard (every
 * spelling TanStack Router routes, JSON and pages, `allow`, a forged Host), `requireSession`,
 * `signIn` and `signOut` from server routes and server functions, `api()`, and a storage outage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type AppServer } from "./app-server.js"

let app: AppServer
let origin: string

beforeAll(async () => {
  app = await startApp()
  origin = app.origin
}, 300_000)

afterAll(async () => {
  await app?.stop()
})

const alice = { email: "alice@example.com", password: "right password" }
const admin = { email: "admin@example.com", password: "right password" }
const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }
const sessionCookie = "sesame.session-token"

/** The cookies a response sets, by name (the value of the last line of each name). */
function setCookies(response: Response): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const line of response.headers.getSetCookie()) {
    const pair = line.slice(0, line.indexOf(";"))
    cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
  }
  return cookies
}

/** A `Cookie` header of `cookies`. */
const cookieHeader = (cookies: Map<string, string>) => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ")

/** A GET or POST to the app, without following redirects. */
function call(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.cookie) headers.set("cookie", init.cookie)
  return fetch(`${origin}${path}`, { ...init, headers, redirect: "manual" })
}

/** Signs in through Sesame's own endpoint; the `Cookie` header of the session. */
async function signIn(user: { email: string; password: string }): Promise<string> {
  const csrf = await call("/auth/csrf")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await call("/auth/callback/credentials", {
    method: "POST",
    cookie: cookieHeader(setCookies(csrf)),
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, ...user }),
  })
  expect(response.status).toBe(302)
  const session = setCookies(response).get(sessionCookie)
  expect(session).toBeTruthy()
  return `${sessionCookie}=${session}`
}

describe("the auth server route (sesame(config))", () => {
  it("answers the core's endpoints: GET, HEAD, POST; an unknown action is the core's answer, not a crash", async () => {
    expect(await (await call("/auth/session", { headers: json })).json()).toBeNull()
    const providers = await call("/auth/providers", { method: "HEAD" })
    expect(providers.status).toBe(200)
    expect(await providers.text()).toBe("")
    const cookie = await signIn(alice)
    expect(((await (await call("/auth/session", { cookie, headers: json })).json()) as { user: { email: string } }).user.email).toBe(alice.email)
    const unknown = await call("/auth/no-such-action", { headers: json })
    expect(unknown.status).toBeGreaterThanOrEqual(400)
    expect(unknown.status).toBeLessThan(500)
  })

  it("a sign-out's cleared cookie is the only session cookie of its answer: the middleware does not read (and renew) Sesame's own route", async () => {
    const cookie = await signIn(alice)
    const csrf = await call("/auth/csrf", { cookie })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await call("/auth/signout", {
      method: "POST",
      cookie: `${cookie}; ${cookieHeader(setCookies(csrf))}`,
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }),
    })
    const lines = response.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=`))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^${sessionCookie}=;`))
    expect(await (await call("/auth/session", { cookie, headers: json })).json()).toBeNull()
  })
})

describe("sessionMiddleware", () => {
  it("the session on the server's page (a server function in the root's beforeLoad), renewed on the page, which is private", async () => {
    const cookie = await signIn(alice)
    const response = await call("/", { cookie, headers: page })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain(`data-testid="user">${alice.email}<`)
    expect(setCookies(response).get(sessionCookie)).toBe(cookie.slice(sessionCookie.length + 1))
    expect(response.headers.get("cache-control")).toBe("private, no-store")
  })

  it("a visitor without a session: nobody on the page, no cookie, the page's own caching", async () => {
    const response = await call("/", { headers: page })
    expect(await response.text()).toContain('data-testid="user">nobody<')
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("a cookie that is no good is cleared, and the visitor is signed out", async () => {
    const response = await call("/", { cookie: `${sessionCookie}=forged`, headers: page })
    expect(await response.text()).toContain('data-testid="user">nobody<')
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${sessionCookie}=;`))).toBe(true)
  })

  it("puts the session in the context of a server route, the same as getSession()", async () => {
    const cookie = await signIn(alice)
    expect(await (await call("/api/guarded", { cookie, headers: json })).json()).toEqual({ fromContext: alice.email, fromGetSession: alice.email })
  })
})

describe("authorize", () => {
  it("sends a signed-out page to the sign-in page with the way back, 401 to JSON; lets a signed-in visitor through", async () => {
    const refused = await call("/private?tab=keys", { headers: page })
    expect(refused.status).toBe(303)
    // TanStack Start writes a same-origin redirect as a path.
    expect(new URL(refused.headers.get("location")!, origin).href).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/private?tab=keys")}`)
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    const api = await call("/api/guarded", { headers: json })
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    const cookie = await signIn(alice)
    const allowed = await call("/private", { cookie, headers: page })
    expect(allowed.status).toBe(200)
    expect(await allowed.text()).toContain("The private page")
  })

  it("guards every spelling TanStack Router routes to the page: any case, a trailing slash, percent-encoding", async () => {
    const cookie = await signIn(alice)
    for (const spelling of ["/PRIVATE", "/Private/", "/%70rivate", "/private/", "/pri%76ate?x=1"]) {
      // The signed-in visitor gets the page there: the router does route the spelling to it.
      const routed = await fetch(`${origin}${spelling}`, { headers: { ...page, cookie } })
      expect(await routed.text(), spelling).toContain("The private page")
      const response = await call(spelling, { headers: page })
      expect(response.status, spelling).toBe(303)
      expect(response.headers.get("location"), spelling).toContain("/auth/signin?callbackUrl=")
    }
    // Encoded twice, the router does not route it to the page; the guard refuses it all the same.
    expect((await call("/%2570rivate", { headers: page })).status).toBe(303)
    // A path that merely begins like it is not protected.
    expect((await call("/privateer", { headers: page })).status).toBe(404)
  })

  it("allow: 403 for a signed-in visitor it refuses (a page and JSON), the page for one it accepts", async () => {
    const alicesCookie = await signIn(alice)
    const refused = await call("/admin", { cookie: alicesCookie, headers: page })
    expect(refused.status).toBe(403)
    expect(await refused.text()).not.toContain("The admin page")
    expect((await call("/ADMIN/", { cookie: alicesCookie, headers: json })).status).toBe(403)
    const admins = await call("/admin", { cookie: await signIn(admin), headers: page })
    expect(admins.status).toBe(200)
    expect(await admins.text()).toContain("The admin page")
  })

  it("never writes a forged Host into its redirect", async () => {
    const response = await call("/private", { headers: { ...page, host: "evil.example", "x-forwarded-host": "evil.example" } })
    expect(response.headers.get("location") ?? "").not.toContain("evil.example")
    expect(await response.text()).not.toContain("evil.example")
  })
})

describe("requireSession in a server route", () => {
  it("401 JSON, or the sign-in page for a page; the user once signed in", async () => {
    expect((await call("/api/me", { headers: json })).status).toBe(401)
    const refused = await call("/api/me", { headers: page })
    expect(refused.status).toBe(303)
    expect(new URL(refused.headers.get("location")!, origin).href).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/api/me")}`)
    expect(await (await call("/api/me", { cookie: await signIn(alice), headers: json })).json()).toEqual({ email: alice.email })
  })
})

describe("signIn and signOut from a server route", () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = { origin }) => ({
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  })

  it("a wrong password throws CredentialsSignin, which the route answers; no cookie", async () => {
    const response = await call("/api/signin", form({ email: alice.email, password: "wrong" }))
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: "credentials" })
    expect(setCookies(response).has(sessionCookie)).toBe(false)
  })

  it("signs in: TanStack Router's redirect to redirectTo with the session cookie; `redirect: false` answers the URL, the cookie set all the same", async () => {
    const response = await call("/api/signin", form(alice))
    expect(response.status).toBe(307)
    expect(new URL(response.headers.get("location")!, origin).href).toBe(`${origin}/private`)
    const cookie = `${sessionCookie}=${setCookies(response).get(sessionCookie)}`
    expect(await (await call("/api/me", { cookie, headers: json })).json()).toEqual({ email: alice.email })
    const quiet = await call("/api/signin", form({ ...alice, redirect: "false" }))
    expect(new URL(((await quiet.json()) as { url: string }).url, origin).href).toBe(`${origin}/private`)
    expect(setCookies(quiet).get(sessionCookie)).toBeTruthy()
  })

  it("another site's post is refused with 403 JSON (the core's same-origin check), and signs nobody in", async () => {
    const response = await call("/api/signin", form(alice, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }))
    expect(response.status).toBe(403)
    expect(((await response.json()) as { error: string }).error).toBeTruthy()
    expect(setCookies(response).has(sessionCookie)).toBe(false)
  })

  it("signs out: the cookie cleared, and the rest of the request has no session", async () => {
    const cookie = await signIn(alice)
    const response = await call("/api/signout", { method: "POST", cookie, headers: { origin } })
    const body = (await response.json()) as { before: string; after: null; url: string }
    expect({ ...body, url: new URL(body.url, origin).href }).toEqual({ before: alice.email, after: null, url: `${origin}/` })
    const lines = response.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=`))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^${sessionCookie}=;`))
    expect((await call("/api/me", { cookie, headers: json })).status).toBe(401)
  })
})

describe("server functions, called as the browser calls them", () => {
  let urls: { whoAmI: string; mustBeSignedIn: string; leave: string }
  const serverFn = { "x-tsr-serverFn": "true", accept: "application/json" }

  beforeAll(async () => {
    urls = (await (await call("/api/functions")).json()) as typeof urls
  })

  it("getSession() in a server function: the caller's user", async () => {
    const cookie = await signIn(alice)
    expect(await (await call(urls.whoAmI, { cookie, headers: serverFn })).text()).toContain(alice.email)
  })

  it("requireSession() without a session: TanStack Router's redirect, to the sign-in page and back to the caller's page, as a new document", async () => {
    const response = await call(urls.mustBeSignedIn, { headers: { ...serverFn, referer: `${origin}/private?tab=1` } })
    const body = (await response.json()) as { isSerializedRedirect?: boolean; href?: string; reloadDocument?: boolean }
    expect(body.isSerializedRedirect).toBe(true)
    expect(body.reloadDocument).toBe(true)
    expect(new URL(body.href!, origin).href).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/private?tab=1")}`)
    // Another site's page is no way back.
    const foreign = (await (await call(urls.mustBeSignedIn, { headers: { ...serverFn, referer: "https://evil.example/x" } })).json()) as { href?: string }
    expect(new URL(foreign.href!, origin).href).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/")}`)
  })

  it("signOut() in a server function: the cookie cleared and the redirect; another site's call is refused, the session kept", async () => {
    const cookie = await signIn(alice)
    const crossSite = await call(urls.leave, { method: "POST", cookie, headers: { ...serverFn, origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=;`))).toEqual([])
    expect((await call("/api/me", { cookie, headers: json })).status).toBe(200)
    const response = await call(urls.leave, { method: "POST", cookie, headers: { ...serverFn, origin } })
    expect(new URL(((await response.json()) as { href: string }).href, origin).href).toBe(`${origin}/`)
    expect(response.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=`))).toEqual([expect.stringMatching(new RegExp(`^${sessionCookie}=;`))])
    expect((await call("/api/me", { cookie, headers: json })).status).toBe(401)
  })
})

describe("api()", () => {
  it("the plugins' server functions, for the request's user: none when signed out, none once the request signed out", async () => {
    const cookie = await signIn(alice)
    expect(await (await call("/api/whoami", { cookie, headers: json })).json()).toEqual({ user: alice.email })
    expect(await (await call("/api/whoami", { headers: json })).json()).toEqual({ user: null })
    expect(await (await call("/api/whoami", { method: "POST", cookie, headers: { ...json, origin } })).json()).toEqual({ user: null })
  })
})

describe("a storage outage", () => {
  it("is a 503 with Retry-After (a page, JSON, a server function), never signed out, no cookie; the same cookie works once it is back", async () => {
    const cookie = await signIn(alice)
    const urls = (await (await call("/api/functions")).json()) as { whoAmI: string }
    await call("/api/test/outage", { method: "POST", body: "down" })
    try {
      for (const [path, headers] of [["/", page], ["/private", page], ["/api/me", json], [urls.whoAmI, { "x-tsr-serverFn": "true", accept: "application/json" }]] as const) {
        const response = await call(path, { cookie, headers })
        expect(response.status, path).toBe(503)
        expect(response.headers.get("retry-after"), path).toBeTruthy()
        expect(response.headers.getSetCookie(), path).toEqual([])
      }
    } finally {
      await call("/api/test/outage", { method: "POST", body: "up" })
    }
    expect(await (await call("/api/me", { cookie, headers: json })).json()).toEqual({ email: alice.email })
  })
})
