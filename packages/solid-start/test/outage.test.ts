/**
 * Issue 40: a storage outage (the adapter's database restarting) is a short "try again", never a
 * sign-out. Database sessions on `outage(MemoryAdapter())`, whose methods fail as a driver does
 * when nothing listens (`connect ECONNREFUSED`): getSession, requireSession, authMiddleware and the
 * browser's signIn and signOut, each beside the same request while the storage answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { provideRequestEvent } from "solid-js/web/storage"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage, type Outage } from "@sesame/testing"
import { authMiddleware, getSession, isStorageUnavailable, listSessions, requireSession, SolidAuth, StorageUnavailable, type SolidAuthConfig } from "@sesame/solid-start"
import { signIn, signOut, isStorageUnavailable as isUnavailableInBrowser } from "@sesame/solid-start/client"
import { alice, aliceCredentials, config, CookieJar, event, origin, request, signInAlice } from "./helpers.js"

const sessionCookie = "sesame.session-token"
let storage: Outage<ReturnType<typeof MemoryAdapter>>
let options: SolidAuthConfig
let logged: string[]

beforeEach(() => {
  storage = outage(MemoryAdapter())
  options = config({ adapter: storage.adapter, session: { strategy: "database", updateAge: 0 }, providers: [aliceCredentials({ createUser: true })] })
  logged = []
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")))
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")))
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

async function signedIn(): Promise<CookieJar> {
  const jar = new CookieJar()
  await signInAlice(SolidAuth(options), jar)
  expect(jar.cookies.has(sessionCookie)).toBe(true)
  return jar
}

/** A SolidStart-like event for `req`, with the response headers SolidStart sends. */
function solidEvent(req: Request) {
  return { request: req, locals: {}, response: { status: 200, headers: new Headers() } }
}

describe("getSession and requireSession during a storage outage", () => {
  it("getSession throws StorageUnavailable instead of answering null, sets no cookie and logs only the core's line; the same cookie reads after", async () => {
    const jar = await signedIn()
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")

    storage.down()
    const req = request("/account", { jar })
    const page = solidEvent(req)
    const error = await provideRequestEvent(page as never, () => getSession(req, options)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StorageUnavailable)
    expect(isStorageUnavailable(error)).toBe(true)
    expect(error).toMatchObject({ status: 503, retryAfter: 3, headers: { "Retry-After": "3" } })
    expect(page.response.headers.getSetCookie()).toEqual([])
    expect(logged).toEqual([expect.stringMatching(/^\[sesame\]\[error\] StorageUnavailable: /)])
    await expect(getSession(request("/", { jar }), options)).rejects.toThrow(StorageUnavailable)
    expect(logged).toHaveLength(1)

    storage.up()
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")
    expect(logged).toEqual([expect.anything(), expect.stringContaining("storage-available-again")])
  })

  it("requireSession throws StorageUnavailable, not the sign-in redirect; signed-out visitors still get the redirect", async () => {
    const jar = await signedIn()
    expect((await requireSession(request("/account", { jar }), options)).user.email).toBe(alice.email)
    storage.down()
    const thrown = await requireSession(request("/account", { jar }), options).catch((e: unknown) => e)
    expect(thrown).not.toBeInstanceOf(Response)
    expect(thrown).toBeInstanceOf(StorageUnavailable)
    // No cookie, no storage read: signed out whatever the storage says.
    const redirect = (await requireSession(request("/account"), options).catch((e: unknown) => e)) as Response
    expect(redirect.status).toBe(302)
    storage.up()
    expect((await requireSession(request("/account", { jar }), options)).user.email).toBe(alice.email)
  })

  it("the server functions throw StorageUnavailable too", async () => {
    const jar = await signedIn()
    expect(await listSessions(request("/account", { jar }), options)).toHaveLength(1)
    storage.down()
    await expect(listSessions(request("/account", { jar }), options)).rejects.toSatisfy(isStorageUnavailable)
  })

  it("still answers null, and logs, for a failure that is not an outage", async () => {
    const jar = await signedIn()
    vi.spyOn(storage.adapter, "getSessionAndUser").mockRejectedValue(new Error('relation "sessions" does not exist'))
    expect(await getSession(request("/", { jar }), options)).toBeNull()
    expect(logged.join("\n")).toContain('relation "sessions" does not exist')
  })

  it("keeps reading a JWT session from its cookie while the storage is down", async () => {
    options = config({ adapter: storage.adapter, session: { strategy: "jwt" }, providers: [aliceCredentials({ createUser: true })] })
    const jar = await signedIn()
    storage.down()
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")
    expect(await authMiddleware(options, { protect: ["/account"] })(event(request("/account", { jar })))).toBeUndefined()
    expect(storage.refused.size).toBe(0)
  })
})

describe("authMiddleware during a storage outage", () => {
  it("answers a protected page with the 503 'try again' page: no redirect, no cookie; the same cookie goes through after", async () => {
    const jar = await signedIn()
    const guard = authMiddleware(options, { protect: ["/account"] })
    const browser = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }
    const before = solidEvent(request("/account/settings?tab=1", { jar, headers: browser }))
    expect(await guard(before)).toBeUndefined()
    expect(before.response.headers.getSetCookie().some((line) => line.startsWith(`${sessionCookie}=`))).toBe(true)

    storage.down()
    const during = solidEvent(request("/account/settings?tab=1", { jar, headers: browser }))
    const response = await guard(during)
    expect(response?.status).toBe(503)
    expect(response?.headers.get("retry-after")).toBe("3")
    expect(response?.headers.get("location")).toBeNull()
    expect(response?.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response?.headers.getSetCookie()).toEqual([])
    expect(during.response.headers.getSetCookie()).toEqual([])
    const html = await response!.text()
    expect(html).toContain("Try again")
    expect(html).toContain('href="/account/settings?tab=1"')
    // Paths that are not protected read no session, and go on.
    expect(await guard(event(request("/", { jar, headers: browser })))).toBeUndefined()

    storage.up()
    expect(await guard(solidEvent(request("/account/settings?tab=1", { jar, headers: browser })))).toBeUndefined()
  })

  it("answers a script asking for JSON with 503 JSON, and logs the outage once however many requests", async () => {
    const jar = await signedIn()
    const guard = authMiddleware(options, { protect: ["/api/private"] })
    storage.down()
    for (let i = 0; i < 3; i++) {
      const response = await guard(event(request("/api/private/reports", { jar, headers: { accept: "application/json" } })))
      expect(response?.status).toBe(503)
      expect(response?.headers.get("retry-after")).toBe("3")
      expect(await response!.json()).toEqual({ error: "StorageUnavailable", message: expect.stringContaining("Try again") })
    }
    expect(logged).toHaveLength(1)
    // A signed-out script still gets the redirect, as ever.
    expect((await guard(event(request("/api/private/reports", { headers: { accept: "application/json" } }))))?.status).toBe(302)
  })
})

describe("signIn and signOut in the browser during a storage outage", () => {
  const page = `${origin}/somewhere`
  let jar: CookieJar
  let assign: ReturnType<typeof vi.fn>
  let tabs: { received: unknown[]; close(): void }

  beforeEach(() => {
    jar = new CookieJar()
    assign = vi.fn()
    vi.stubGlobal("window", { location: { href: page, assign, reload: vi.fn() } })
    const handlers = SolidAuth(options)
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers)
      headers.set("cookie", jar.header())
      const req = new Request(new URL(String(input), page), { ...init, headers })
      const response = await (req.method === "POST" ? handlers.POST : handlers.GET)(event(req))
      if (!response) return new Response("not found", { status: 404 })
      jar.apply(response)
      return response
    })
    const channel = new BroadcastChannel("sesame.session:/api/auth")
    const received: unknown[] = []
    channel.onmessage = (message) => received.push(message.data)
    tabs = { received, close: () => channel.close() }
  })
  afterEach(() => tabs.close())

  /** Whatever was announced to the other tabs so far: a probe posted now arrives after it. */
  async function announced(): Promise<unknown[]> {
    const probe = new BroadcastChannel("sesame.session:/api/auth")
    probe.postMessage("probe")
    await vi.waitFor(() => expect(tabs.received.at(-1)).toBe("probe"))
    probe.close()
    return tabs.received.filter((message) => message !== "probe")
  }

  it("signIn in place returns error StorageUnavailable; a redirecting one rejects and stays on the page; both work after", async () => {
    storage.down()
    expect(await signIn("credentials", { username: "alice", password: alice.password, redirect: false })).toEqual({
      ok: false,
      status: 503,
      error: "StorageUnavailable",
      code: undefined,
      url: undefined,
    })
    const rejected = await signIn("credentials", { username: "alice", password: alice.password }).catch((e: unknown) => e)
    expect(isUnavailableInBrowser(rejected)).toBe(true)
    expect(rejected).toMatchObject({ retryAfter: 3 })
    expect(assign).not.toHaveBeenCalled()
    expect(await announced()).toEqual([])
    expect(jar.cookies.has(sessionCookie)).toBe(false)

    storage.up()
    expect(await signIn("credentials", { username: "alice", password: alice.password, redirect: false })).toMatchObject({ ok: true })
  })

  it("signOut rejects with StorageUnavailable, tells no tab, does not navigate and keeps the session; it signs out after", async () => {
    expect(await signIn("credentials", { username: "alice", password: alice.password, redirect: false })).toMatchObject({ ok: true })
    await announced()
    tabs.received.length = 0
    const cookies = new Map(jar.cookies)
    storage.down()
    const rejected = await signOut({ callbackUrl: "/bye" }).catch((e: unknown) => e)
    expect(isUnavailableInBrowser(rejected)).toBe(true)
    expect(assign).not.toHaveBeenCalled()
    expect(await announced()).toEqual([])
    expect(jar.cookies).toEqual(cookies)

    storage.up()
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")
    expect(await signOut({ redirect: false })).toEqual({ url: page })
    expect(await getSession(request("/", { jar }), options)).toBeNull()
  })
})
