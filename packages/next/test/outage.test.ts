/**
 * Issue 40: a storage outage (the adapter's database restarting) is a short "try again", never a
 * sign-out. Database sessions on `outage(MemoryAdapter())`, whose methods fail as a driver does
 * when nothing listens (`connect ECONNREFUSED`): the guard, a wrapped route handler, `auth()` and
 * the pages-router form, each beside the same request while the storage answers.
 */
import { current, aliceCredentials, newRequest, pagesResponse, rejection, secret } from "./next-request.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage, type Outage } from "@sesame/testing"
import Sesame, { isStorageUnavailable, StorageUnavailable, type PrimaryAuthConfig } from "@sesame/next"

const sessionCookie = "__Secure-sesame.session-token"
const signedInOnly: PrimaryAuthConfig["callbacks"] = { authorized: ({ auth }) => !!auth?.user }

let storage: Outage<ReturnType<typeof MemoryAdapter>>
let errors: string[]
let warnings: string[]

beforeEach(() => {
  current.jar.clear()
  newRequest()
  storage = outage(MemoryAdapter())
  errors = []
  warnings = []
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(" ")))
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")))
})
afterEach(() => vi.restoreAllMocks())

function databaseConfig(extra: Partial<PrimaryAuthConfig> = {}): PrimaryAuthConfig {
  return {
    secret,
    trustHost: true,
    adapter: storage.adapter,
    session: { strategy: "database", updateAge: 0 },
    providers: [aliceCredentials(true)],
    ...extra,
  }
}

/** Signs Alice in through the server action; returns her cookie header. */
async function signedIn(config: PrimaryAuthConfig): Promise<string> {
  await Sesame(config).signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false })
  expect(current.jar.has(sessionCookie)).toBe(true)
  return [...current.jar].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ")
}

/** A request as Next.js hands it to the proxy, from a browser (`accept`) with `cookie`. */
function proxied(path: string, cookie: string, accept = "text/html,application/xhtml+xml,*/*;q=0.8"): NextRequest {
  return new NextRequest(`http://localhost:3000${path}`, {
    headers: { host: "app.example.test:8443", "x-forwarded-proto": "https", accept, cookie },
  })
}

/** The lines logged while `action` runs. */
async function logsDuring(action: () => Promise<unknown>): Promise<string[]> {
  const before = errors.length + warnings.length
  await action()
  return [...errors, ...warnings].slice(before)
}

describe("the guard during a storage outage", () => {
  it("answers a protected page with the 503 'try again' page, no redirect and no cookie; the same cookie gets through once the storage is back", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)

    // The legitimate flow: through, the session kept alive.
    const before = await auth(proxied("/dashboard?tab=2", cookie))
    expect(before.headers.get("x-middleware-next")).toBe("1")
    expect(before.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)

    storage.down()
    const during = await auth(proxied("/dashboard?tab=2", cookie))
    expect(during.status).toBe(503)
    expect(during.headers.get("retry-after")).toBe("3")
    expect(during.headers.get("location")).toBeNull()
    expect(during.headers.getSetCookie()).toEqual([])
    expect(during.headers.get("content-type")).toMatch(/^text\/html/)
    expect(during.headers.get("cache-control")).toMatch(/no-store/)
    const html = await during.text()
    expect(html).toContain("Try again")
    // "Try again" reloads the page asked for, as a path (the request's host is not written into the page).
    expect(html).toContain('href="/dashboard?tab=2"')
    expect(storage.refused.size).toBeGreaterThan(0)

    storage.up()
    const after = await auth(proxied("/dashboard?tab=2", cookie))
    expect(after.headers.get("x-middleware-next")).toBe("1")
    expect(after.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`))).not.toMatch(/Max-Age=0/)
  })

  it("answers in the visitor's language", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    const cookie = await signedIn(config)
    storage.down()
    const request = proxied("/dashboard", cookie)
    request.headers.set("accept-language", "de-DE,de;q=0.9")
    const response = await Sesame(config).auth(request)
    expect(response.status).toBe(503)
    expect(await response.text()).toMatch(/<html lang="de"/)
  })

  it("answers a script asking for JSON with 503 JSON, where a signed-out one gets the sign-in redirect", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    expect((await auth(proxied("/api/reports", "", "application/json"))).status).toBe(307)

    storage.down()
    const response = await auth(proxied("/api/reports", cookie, "application/json"))
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("3")
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await response.json()).toEqual({ error: "StorageUnavailable", message: expect.stringContaining("Try again") })
  })

  it("still sends a visitor without a session cookie to sign in: no cookie, no storage read", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    await signedIn(config)
    storage.down()
    const response = await Sesame(config).auth(proxied("/dashboard", ""))
    expect(response.status).toBe(307)
  })

  it("logs the outage once (the core's line), not once per request, and its end once", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    storage.down()
    const lines = await logsDuring(async () => {
      for (let i = 0; i < 5; i++) expect((await auth(proxied("/dashboard", cookie))).status).toBe(503)
    })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[sesame\]\[error\] StorageUnavailable: /)
    storage.up()
    const back = await logsDuring(() => auth(proxied("/dashboard", cookie)))
    expect(back).toEqual([expect.stringContaining("storage-available-again")])
  })

  it("still logs a read that fails for another reason, and treats it as signed out", async () => {
    const config = databaseConfig({ callbacks: signedInOnly })
    const cookie = await signedIn(config)
    vi.spyOn(storage.adapter, "getSessionAndUser").mockRejectedValue(new Error("column sessions.expires does not exist"))
    const response = await Sesame(config).auth(proxied("/dashboard", cookie))
    expect(response.status).toBe(307)
    expect(errors.join("\n")).toContain("column sessions.expires does not exist")
  })

  it("lets through the pages authorized lets a signed-out visitor see, and the sign-in page", async () => {
    const authorized = vi.fn(({ auth, request }: { auth: unknown; request: NextRequest }) =>
      request.nextUrl.pathname.startsWith("/dashboard") ? !!auth : true,
    )
    const config = databaseConfig({ pages: { signIn: "/login" }, callbacks: { authorized } })
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    storage.down()
    const home = await auth(proxied("/pricing", cookie))
    expect(home.headers.get("x-middleware-next")).toBe("1")
    expect(home.headers.getSetCookie()).toEqual([])
    expect((await auth(proxied("/login", cookie))).headers.get("x-middleware-next")).toBe("1")
    expect((await auth(proxied("/dashboard", cookie))).status).toBe(503)
    // A redirect (or any Response) authorized gives a signed-out visitor is not followed either.
    const redirecting = databaseConfig({ callbacks: { authorized: ({ auth, request }) => (auth ? true : Response.redirect(new URL("/welcome", request.nextUrl))) } })
    expect((await Sesame(redirecting).auth(proxied("/dashboard", cookie))).status).toBe(503)
  })

  it("lets every request through without authorized (nothing is decided there), with no cookie", async () => {
    const config = databaseConfig()
    const cookie = await signedIn(config)
    storage.down()
    const response = await Sesame(config).auth(proxied("/anything", cookie))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    expect(response.headers.getSetCookie()).toEqual([])
  })
})

describe("auth(handler) during a storage outage", () => {
  it("answers 503 instead of running the handler with a request.auth nobody knows", async () => {
    const config = databaseConfig()
    const cookie = await signedIn(config)
    const handler = vi.fn((request: { auth: { user?: { name?: string | null } } | null }) => Response.json({ user: request.auth?.user?.name ?? null }))
    const route = Sesame(config).auth(handler)
    expect(await (await route(proxied("/api/me", cookie, "application/json"), {})).json()).toEqual({ user: "Alice" })

    storage.down()
    const response = await route(proxied("/api/me", cookie, "application/json"), {})
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("3")
    expect(await response.json()).toMatchObject({ error: "StorageUnavailable" })
    expect(handler).toHaveBeenCalledTimes(1)

    storage.up()
    expect(await (await route(proxied("/api/me", cookie, "application/json"), {})).json()).toEqual({ user: "Alice" })
  })

  it("still runs the handler for the auth endpoints, whose session is never read", async () => {
    const config = databaseConfig()
    const cookie = await signedIn(config)
    storage.down()
    const handler = vi.fn(() => new Response("on"))
    const response = await Sesame(config).auth(handler)(proxied("/api/auth/session", cookie), {})
    expect(await response.text()).toBe("on")
  })
})

describe("auth() during a storage outage", () => {
  it("throws StorageUnavailable (503, Retry-After) instead of answering null, and logs nothing of its own", async () => {
    const config = databaseConfig()
    await signedIn(config)
    const { auth } = Sesame(config)
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })

    storage.down()
    const jar = new Map(current.jar)
    current.written = new Map()
    const lines: string[] = []
    let error: unknown
    lines.push(...(await logsDuring(async () => void (error = await rejection(auth())))))
    expect(error).toBeInstanceOf(StorageUnavailable)
    expect(isStorageUnavailable(error)).toBe(true)
    expect(error).toMatchObject({ type: "StorageUnavailable", status: 503, retryAfter: 3, headers: { "Retry-After": "3" } })
    // The core's one line for the outage; none from auth() ("answers null (signed out)").
    expect(lines).toEqual([expect.stringMatching(/^\[sesame\]\[error\] StorageUnavailable: /)])
    expect(await logsDuring(() => rejection(auth()))).toEqual([])
    // No cookie cleared or changed.
    expect(current.jar).toEqual(jar)
    expect(current.written.size).toBe(0)

    storage.up()
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
  })

  it("throws in a server component too (where no cookie can be written)", async () => {
    const config = databaseConfig()
    await signedIn(config)
    newRequest({ readonly: true })
    storage.down()
    expect(await rejection(Sesame(config).auth())).toBeInstanceOf(StorageUnavailable)
  })

  it("still answers null, and logs, for a failure that is not an outage", async () => {
    const config = databaseConfig()
    await signedIn(config)
    vi.spyOn(storage.adapter, "getSessionAndUser").mockRejectedValue(new Error("relation \"sessions\" does not exist"))
    expect(await Sesame(config).auth()).toBeNull()
    expect(errors.join("\n")).toContain('relation "sessions" does not exist')
  })

  it("keeps answering a JWT session from its cookie while the storage is down", async () => {
    const config = databaseConfig({ session: { strategy: "jwt" }, callbacks: signedInOnly })
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    storage.down()
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
    const response = await auth(proxied("/dashboard", cookie))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    expect(storage.refused.size).toBe(0)
  })
})

describe("auth(req, res) in the pages router during a storage outage", () => {
  it("throws StorageUnavailable with the Retry-After, and sets no cookie", async () => {
    const config = databaseConfig()
    const cookie = await signedIn(config)
    const { auth } = Sesame(config)
    const req = { headers: { host: "app.example.test:8443", "x-forwarded-proto": "https", cookie } }
    expect(await auth(req, pagesResponse())).toMatchObject({ user: { name: "Alice" } })

    storage.down()
    const res = pagesResponse()
    const error = await rejection(auth(req, res))
    expect(isStorageUnavailable(error)).toBe(true)
    expect(error).toMatchObject({ status: 503, retryAfter: 3 })
    expect(res.headers.get("set-cookie")).toBeUndefined()
    expect(await rejection(auth({ req, res: pagesResponse() }))).toBeInstanceOf(StorageUnavailable)

    storage.up()
    expect(await auth({ req, res: pagesResponse() })).toMatchObject({ user: { name: "Alice" } })
  })
})

describe("the server actions during a storage outage", () => {
  it("signOut throws StorageUnavailable and keeps the cookie: the session would outlive a cleared one", async () => {
    const config = databaseConfig()
    await signedIn(config)
    const { signOut, auth } = Sesame(config)
    storage.down()
    expect(await rejection(signOut({ redirect: false }))).toSatisfy(isStorageUnavailable)
    expect(current.jar.has(sessionCookie)).toBe(true)
    storage.up()
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
    await signOut({ redirect: false })
    expect(await auth()).toBeNull()
  })

  it("signIn and the server functions throw StorageUnavailable too", async () => {
    const config = databaseConfig()
    await signedIn(config)
    const { signIn, listSessions } = Sesame(config)
    expect(await listSessions()).toHaveLength(1)
    storage.down()
    expect(await rejection(listSessions())).toSatisfy(isStorageUnavailable)
    current.jar.clear()
    expect(await rejection(signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false }))).toSatisfy(isStorageUnavailable)
    expect(current.jar.size).toBe(0)
    storage.up()
    expect(await signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false })).toBe("https://app.example.test:8443/")
  })
})
