/**
 * `auth` as proxy or middleware, `auth(handler)`, and the pages-router forms, called the way
 * Next.js calls them, with real `NextRequest`s; database sessions through the SQLite adapter.
 * `auth(handler, { allow })`: a permission asked of a plugin's server function (`api`) runs the
 * handler or answers 403 (JSON or a plain page), a visitor is sent to sign in without asking
 * `allow`, an outage in the check is the core's 503 and any other error is thrown to Next.js; and
 * the same with the real `@sesame/organizations`.
 */
import { current, jwtConfig, newRequest, aliceCredentials, pagesResponse, secret } from "./next-request.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import type { ModuleRequest, SesameModule, ServerFunctionsOf } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { organizations } from "@sesame/organizations"
import { checkUnavailable } from "@sesame/testing"
import SqliteAdapter from "@sesame/adapter-sqlite"
import Sesame, { StorageUnavailable, type AuthenticatedSession, type PrimaryAuthConfig } from "@sesame/next"

const origin = "https://app.example.test:8443"
const sessionCookie = "__Secure-sesame.session-token"

beforeEach(() => {
  current.jar.clear()
  newRequest()
})
afterEach(() => vi.restoreAllMocks())

/** Signs Alice in through the server action; returns her cookie header. */
/** Sessions re-issued on every read (`updateAge: 0`), so that each read has cookies to pass on. */
const everyRead = { session: { updateAge: 0 } } as const

async function signedIn(config: PrimaryAuthConfig): Promise<string> {
  await Sesame(config).signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false })
  return [...current.jar].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ")
}

/** A request as Next.js hands it to the proxy: `localhost` in the URL, the browser's host in the headers. */
function proxied(path: string, cookie = ""): NextRequest {
  return new NextRequest(`http://localhost:3000${path}`, {
    headers: { host: "app.example.test:8443", "x-forwarded-proto": "https", ...(cookie ? { cookie } : {}) },
  })
}

const signedInOnly: PrimaryAuthConfig["callbacks"] = { authorized: ({ auth }) => !!auth?.user }

describe("auth as proxy or middleware", () => {
  it("lets every request through without an authorized callback, keeping the session alive", async () => {
    const config = jwtConfig(everyRead)
    const cookie = await signedIn(config)
    const response = await Sesame(config).auth(proxied("/anything", cookie))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    const refreshed = response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`))
    expect(refreshed).toMatch(/HttpOnly/i)
    // Next.js passes cookies set here on to the page rendered for this request.
    expect(response.headers.get("x-middleware-set-cookie")).toContain(sessionCookie)
  })

  it("writes the core's Set-Cookie lines, and leaves a cookie the response sets itself as it was", async () => {
    const own = "theme=dark; Path=/; SameSite=Strict"
    const config = jwtConfig({ ...everyRead, callbacks: { authorized: () => new Response(null, { status: 403, headers: { "set-cookie": own } }) } })
    const cookie = await signedIn(config)
    const lines = (await Sesame(config).auth(proxied("/admin", cookie))).headers.getSetCookie()
    expect(lines[0]).toBe(own)
    // The attributes the core's cookie policy decided, serialised by the core (Next.js would write `SameSite=lax`).
    expect(lines.find((c) => c.startsWith(`${sessionCookie}=`))).toMatch(/; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("sends a signed-out visitor to the sign-in page with a callbackUrl back, on the public origin", async () => {
    const { auth } = Sesame(jwtConfig({ callbacks: signedInOnly }))
    const response = await auth(proxied("/dashboard?tab=2"))
    expect(response.status).toBe(307)
    expect(response.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D2`)
  })

  it("uses pages.signIn, and never guards that page or the auth endpoints", async () => {
    const authorized = vi.fn(() => false)
    const { auth } = Sesame(jwtConfig({ pages: { signIn: "/login" }, callbacks: { authorized } }))
    expect((await auth(proxied("/private"))).headers.get("location")).toBe(`${origin}/login?callbackUrl=%2Fprivate`)
    expect((await auth(proxied("/login"))).headers.get("x-middleware-next")).toBe("1")
    const endpoint = await auth(proxied("/api/auth/session"))
    expect(endpoint.headers.get("x-middleware-next")).toBe("1")
    expect(endpoint.headers.getSetCookie()).toEqual([])
    expect(authorized).toHaveBeenCalledTimes(1)
  })

  it("lets a signed-in visitor through, and hands authorized the request and the session", async () => {
    const authorized = vi.fn(({ auth }: { auth: { user?: { email?: string | null } } | null }) => auth?.user?.email === "alice@example.com")
    const config = jwtConfig({ callbacks: { authorized } })
    const cookie = await signedIn(config)
    const response = await Sesame(config).auth(proxied("/dashboard", cookie))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    expect(authorized.mock.calls[0]![0]).toMatchObject({ auth: { user: { name: "Alice" } } })
  })

  it("sends a Response from authorized as it is, with the session cookies", async () => {
    const config = jwtConfig({ ...everyRead, callbacks: { authorized: () => new Response("no", { status: 403 }) } })
    const cookie = await signedIn(config)
    const response = await Sesame(config).auth(proxied("/admin", cookie))
    expect(response.status).toBe(403)
    expect(await response.text()).toBe("no")
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)
  })

  it("follows a redirect from authorized to a page it allows", async () => {
    const { auth } = Sesame(
      jwtConfig({
        callbacks: {
          authorized: ({ request }) => (request.nextUrl.pathname === "/old" ? Response.redirect(`${origin}/new`, 308) : true),
        },
      }),
    )
    const response = await auth(proxied("/old"))
    expect(response.status).toBe(308)
    expect(response.headers.get("location")).toBe(`${origin}/new`)
  })

  it("detects a redirect to a page the same check refuses again, instead of looping", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    // The classic mistake: /welcome is behind the same check that sends signed-out visitors there.
    const { auth } = Sesame(
      jwtConfig({ callbacks: { authorized: ({ auth, request }) => auth?.user ? true : Response.redirect(new URL("/welcome", request.nextUrl)) } }),
    )
    const response = await auth(proxied("/account"))
    expect(response.status).toBe(307)
    expect(response.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    expect(logged.mock.calls.flat().join(" ")).toContain("would loop")
  })

  it("detects a longer cycle (/a → /b → /a)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {})
    const { auth } = Sesame(
      jwtConfig({
        callbacks: {
          authorized: ({ request }) => Response.redirect(`${origin}${request.nextUrl.pathname === "/a" ? "/b" : "/a"}`),
        },
      }),
    )
    expect((await auth(proxied("/a"))).headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fa`)
  })

  it("treats a session it cannot read as signed out", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {})
    const { auth } = Sesame(jwtConfig({ callbacks: signedInOnly }))
    const response = await auth(proxied("/dashboard", `${sessionCookie}=not-a-token`))
    expect(response.status).toBe(307)
    // …and clears the cookie that is no good.
    expect(response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`))).toMatch(/Max-Age=0/)
  })
})

describe("auth(handler)", () => {
  it("runs the handler with request.auth, and sets the refreshed cookies on its response", async () => {
    const config = jwtConfig(everyRead)
    const cookie = await signedIn(config)
    const handler = Sesame(config).auth((request, context: { params: Promise<{ id: string }> }) =>
      context.params.then(({ id }) => Response.json({ id, user: request.auth?.user?.name ?? null })),
    )
    const response = await handler(proxied("/api/things/7", cookie), { params: Promise.resolve({ id: "7" }) })
    expect(await response.json()).toEqual({ id: "7", user: "Alice" })
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)
    const anonymous = await handler(proxied("/api/things/7"), { params: Promise.resolve({ id: "7" }) })
    expect(await anonymous.json()).toEqual({ id: "7", user: null })
  })

  it("does not run the handler when authorized refuses", async () => {
    const handler = vi.fn(() => new Response("secret"))
    const guarded = Sesame(jwtConfig({ callbacks: signedInOnly })).auth(handler)
    expect((await guarded(proxied("/reports"), undefined)).status).toBe(307)
    expect(handler).not.toHaveBeenCalled()
  })
})

describe("database sessions in the proxy (Node.js)", () => {
  it("reads and extends the session through the adapter", async () => {
    const adapter = SqliteAdapter(":memory:")
    const config: PrimaryAuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "database", updateAge: 0 },
      providers: [aliceCredentials(true)],
      callbacks: signedInOnly,
    }
    const cookie = await signedIn(config)
    const token = current.jar.get(sessionCookie)!
    // The cookie holds the token; the database only its hash.
    expect(token).toBeTruthy()
    const getSessionAndUser = vi.spyOn(adapter, "getSessionAndUser")
    const response = await Sesame(config).auth(proxied("/dashboard", cookie))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    expect(getSessionAndUser).toHaveBeenCalledTimes(1)
    expect(getSessionAndUser.mock.calls[0]![0]).not.toBe(token)
    expect(response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`))).toContain(encodeURIComponent(token))
    // After sign-out the same cookie no longer gets through.
    await Sesame(config).signOut({ redirect: false })
    expect((await Sesame(config).auth(proxied("/dashboard", cookie))).status).toBe(307)
  })
})

describe("pages router", () => {
  it("auth(req, res) and auth({ req, res }) return the session and append the refreshed cookie", async () => {
    const config = jwtConfig(everyRead)
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    const req = { headers: { host: "app.example.test:8443", "x-forwarded-proto": "https", cookie } }
    const res = pagesResponse()
    res.setHeader("Set-Cookie", "theme=dark; Path=/")
    expect(await auth(req, res)).toMatchObject({ user: { name: "Alice" } })
    const lines = res.headers.get("set-cookie") as string[]
    expect(lines[0]).toBe("theme=dark; Path=/")
    expect(lines.some((l) => l.startsWith(`${sessionCookie}=`))).toBe(true)
    expect(await auth({ req, res: pagesResponse() })).toMatchObject({ user: { email: "alice@example.com" } })
    expect(await auth({ req: { headers: { host: "app.example.test" } }, res: pagesResponse() })).toBeNull()
  })
})

/** A plugin with one server function: whether the request's user holds a permission (Alice holds `project:read` only). */
const permissions = {
  id: "permissions",
  api: {
    async hasPermission(request: ModuleRequest, permission: string) {
      const user = await request.user()
      return user?.email === "alice@example.com" && permission === "project:read"
    },
  },
} as const satisfies SesameModule

describe("auth(handler, { allow })", () => {
  const config = jwtConfig({ ...everyRead, plugins: [permissions] })
  const { api, auth } = Sesame(config)
  const can = (permission: string) =>
    vi.fn(async (_session: AuthenticatedSession, _request: NextRequest) => (await (api as ServerFunctionsOf<typeof permissions>).hasPermission(permission)) === true)
  const handler = vi.fn((request: NextRequest & { auth: unknown }) => Response.json({ user: (request.auth as AuthenticatedSession | null)?.user.name ?? null }))
  const json = { accept: "application/json" }
  beforeEach(() => {
    handler.mockClear()
  })

  /** `proxied` with extra headers. */
  function asked(path: string, cookie: string, headers: Record<string, string> = {}): NextRequest {
    const request = proxied(path, cookie)
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
    return request
  }

  it("runs the handler when allow resolves true, having handed it the session and the request", async () => {
    const cookie = await signedIn(config)
    const allow = can("project:read")
    const request = asked("/api/projects", cookie)
    const response = await auth(handler, { allow })(request, undefined)
    expect(await response.json()).toEqual({ user: "Alice" })
    expect(allow.mock.calls[0]![0].user.email).toBe("alice@example.com")
    expect(allow.mock.calls[0]![1]).toBe(request)
  })

  it("answers 403 when allow resolves false: JSON to a client that wants JSON, a plain page otherwise; the handler does not run", async () => {
    const cookie = await signedIn(config)
    const guarded = auth(handler, { allow: can("project:create") })
    for (const headers of [json, { "x-requested-with": "XMLHttpRequest" }]) {
      const refused = await guarded(asked("/api/projects", cookie, headers), undefined)
      expect(refused.status).toBe(403)
      expect(refused.headers.get("content-type")).toBe("application/json")
      expect(refused.headers.get("cache-control")).toBe("private, no-store")
      expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
      // The session is kept alive on the refusal too.
      expect(refused.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)
    }
    const page = await guarded(asked("/projects/new", cookie, { accept: "text/html,application/json;q=0.9" }), undefined)
    expect(page.status).toBe(403)
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(page.headers.get("location")).toBeNull()
    expect(await page.text()).toBe("Access denied.")
    expect(handler).not.toHaveBeenCalled()
  })

  it("sends a visitor without a session to sign in, as authorized's false would, without asking allow; authorized still decides first", async () => {
    const allow = can("project:read")
    const out = await auth(handler, { allow })(proxied("/projects/new"), undefined)
    expect(out.status).toBe(307)
    expect(out.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fprojects%2Fnew`)
    expect(handler).not.toHaveBeenCalled()
    // The auth endpoints and the sign-in page are never checked.
    expect((await auth(handler, { allow })(proxied("/api/auth/session"), undefined)).status).toBe(200)
    const withPage = Sesame(jwtConfig({ plugins: [permissions], pages: { signIn: "/login" } }))
    expect((await withPage.auth(() => new Response("login page"), { allow })(proxied("/login"), undefined)).status).toBe(200)
    // A Response from authorized is sent as it is, before allow.
    const teapot = Sesame(jwtConfig({ plugins: [permissions], callbacks: { authorized: () => new Response("no", { status: 418 }) } }))
    expect((await teapot.auth(handler, { allow })(proxied("/projects/new"), undefined)).status).toBe(418)
    expect(allow).not.toHaveBeenCalled()
  })

  it("answers the core's 503 when allow meets a storage outage, and throws any other error on to Next.js", async () => {
    const cookie = await signedIn(config)
    const outage = auth(handler, { allow: () => Promise.reject(new StorageUnavailable()) })
    expect((await checkUnavailable(await outage(asked("/projects", cookie, { accept: "text/html" }), undefined), "page")).problems).toEqual([])
    expect((await checkUnavailable(await outage(asked("/api/projects", cookie, json), undefined), "json")).problems).toEqual([])
    const broken = auth(handler, {
      allow: () => {
        throw new Error("the permission store broke")
      },
    })
    await expect(broken(asked("/projects", cookie), undefined)).rejects.toThrow("the permission store broke")
    expect(handler).not.toHaveBeenCalled()
  })

  it("refuses an allow that is not a function when the handler is wrapped", () => {
    expect(() => auth(handler, { allow: "admin" as never })).toThrow(TypeError)
  })

  it("checks a permission of the real @sesame/organizations: refused without an active organization, let in as its owner", async () => {
    const orgs = organizations({ statements: { project: ["create", "read"] }, roles: { member: { project: ["read"] } } })
    const withOrgs: PrimaryAuthConfig = {
      secret,
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "database" },
      providers: [aliceCredentials(true)],
      plugins: [orgs],
    }
    const sesame = Sesame(withOrgs)
    const plugins = sesame.api as ServerFunctionsOf<typeof orgs>
    const guarded = sesame.auth(handler, {
      allow: async (session) => {
        const active = (session as { organization?: { id: string } }).organization
        return (await plugins.hasPermission(active?.id ?? "", { project: ["create"] })) === true
      },
    })
    const cookie = await signedIn(withOrgs)
    expect((await guarded(asked("/api/projects", cookie, json), undefined)).status).toBe(403)
    const org = await plugins.createOrganization({ name: "Acme" })
    await plugins.setActiveOrganization(org.id)
    expect(await (await guarded(asked("/api/projects", cookie, json), undefined)).json()).toEqual({ user: "Alice" })
  })
})
