/**
 * `auth` as proxy or middleware, `auth(handler)`, and the pages-router forms, called the way
 * Next.js calls them, with real `NextRequest`s; database sessions through the SQLite adapter.
 */
import { current, jwtConfig, newRequest, aliceCredentials, pagesResponse, secret } from "./next-request.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import SqliteAdapter from "@sesame/adapter-sqlite"
import Sesame, { type PrimaryAuthConfig } from "@sesame/next"

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
