/**
 * The browser client's reads against the real handlers on a local HTTP server (Node's fetch
 * plays the browser): one session request in flight at a time, whoever asks. Then what it does
 * when the server answers 503 (issue 40): with a mocked `fetch` for the timing of the
 * SessionProvider's retries, and against the real handlers on an adapter whose storage goes down.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import type { Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage, serve, type Outage, type TestServer } from "@sesame/testing"
import Sesame from "@sesame/next"
import {
  fetchSession,
  getCsrfToken,
  getProviders,
  getSession,
  isStorageUnavailable,
  onSessionChange,
  sessionReader,
  signIn,
  signOut,
  StorageUnavailable,
  updateSession,
  type SessionReader,
} from "../src/react/client.js"
import { aliceCredentials, jwtConfig } from "./next-request.js"

let server: TestServer
let sessionRequests = 0

beforeAll(async () => {
  const { handlers } = Sesame(jwtConfig())
  server = await serve((request) => {
    if (new URL(request.url).pathname === "/api/auth/session") sessionRequests++
    return handlers.GET(request as Parameters<typeof handlers.GET>[0])
  })
})
afterAll(() => server?.close())

describe("@sesame/next/react reads", () => {
  it("shares one in-flight session request among every caller, and asks again once it is answered", async () => {
    const basePath = `${server.origin}/api/auth`
    sessionRequests = 0
    const answers = await Promise.all([fetchSession({ basePath }), getSession({ basePath }), fetchSession({ basePath })])
    expect(answers).toEqual([null, null, null])
    expect(sessionRequests).toBe(1)
    await getSession({ basePath })
    expect(sessionRequests).toBe(2)
  })

  it("reads the CSRF token and the providers at the given base path", async () => {
    const basePath = `${server.origin}/api/auth`
    expect(await getCsrfToken({ basePath })).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(await getProviders({ basePath })).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
    expect(await getProviders({ basePath: `${server.origin}/nowhere` })).toBeNull()
  })
})

// ---- issue 40: a 503 (the server's storage is down for a moment) is never "signed out" ----------

const alice: Session = { user: { name: "Alice", email: "alice@example.com" }, expires: "2099-01-01T00:00:00.000Z" }

/** `fetch` answering GET session from `answers`, one per call (the last one repeats); counts the calls. */
function sessionAnswers(...answers: (() => Response)[]): { calls: () => number } {
  let calls = 0
  vi.stubGlobal("fetch", async () => answers[Math.min(calls++, answers.length - 1)]!())
  return { calls: () => calls }
}
const ok = (session: Session | null) => () => Response.json(session)
const down = (retryAfter = "3") => () =>
  Response.json({ error: "StorageUnavailable", message: "The service cannot reach its storage for a moment. Try again in 3 s." }, { status: 503, headers: { "Retry-After": retryAfter } })

/** A SessionProvider's reads: what `sessionReader` hands on, in order. */
function reader(): { handed: (Session | null)[]; read: SessionReader } {
  const handed: (Session | null)[] = []
  return { handed, read: sessionReader("/api/auth", (session) => handed.push(session)) }
}

describe("the SessionProvider's reads (sessionReader) when the server answers 503", () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it("keeps the last session through a 503 and reads again after Retry-After; a sign-out once it answers is handed on", async () => {
    const { calls } = sessionAnswers(ok(alice), down(), ok(alice), ok(null))
    const { handed, read } = reader()
    await read.read()
    expect(handed).toEqual([alice])
    // The outage: nothing handed on, so the provider stays "authenticated" with Alice.
    await read.read()
    expect(handed).toEqual([alice])
    expect(calls()).toBe(2)
    await vi.advanceTimersByTimeAsync(2_999)
    expect(calls()).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls()).toBe(3)
    expect(handed).toEqual([alice, alice])
    // No more retries once answered; a real sign-out (200 null) is handed on as ever.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(3)
    await read.read()
    expect(handed).toEqual([alice, alice, null])
    read.stop()
  })

  it("stays loading on a first read during an outage, retrying every Retry-After, one wait at a time", async () => {
    const { calls } = sessionAnswers(down("2"), down("2"), down("2"), ok(alice))
    const { handed, read } = reader()
    await read.read()
    // Focus and interval reads meanwhile fail too, and add no second wait.
    await read.read()
    expect(calls()).toBe(2)
    expect(handed).toEqual([])
    await vi.advanceTimersByTimeAsync(2_000)
    expect(calls()).toBe(3)
    expect(handed).toEqual([])
    await vi.advanceTimersByTimeAsync(2_000)
    expect(calls()).toBe(4)
    expect(handed).toEqual([alice])
    read.stop()
  })

  it("stops retrying when the provider unmounts", async () => {
    const { calls } = sessionAnswers(down())
    const { handed, read } = reader()
    await read.read()
    read.stop()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(1)
    await read.read()
    expect(calls()).toBe(1)
    expect(handed).toEqual([])
  })

  it("waits at least a second and at most a minute, whatever Retry-After says, and 3 s without one", async () => {
    for (const [header, wait] of [["0", 1_000], ["86400", 60_000], ["soon", 3_000]] as const) {
      const { calls } = sessionAnswers(down(header), ok(alice))
      const { read } = reader()
      await read.read()
      await vi.advanceTimersByTimeAsync(wait - 1)
      expect(calls()).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(calls()).toBe(2)
      read.stop()
    }
  })

  it("keeps the session on another failure too, without retrying it (the next focus or interval reads again)", async () => {
    const { calls } = sessionAnswers(ok(alice), () => new Response("oops", { status: 500 }))
    const { handed, read } = reader()
    await read.read()
    await read.read()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(2)
    expect(handed).toEqual([alice])
    read.stop()
  })
})

describe("@sesame/next/react against the real handlers during a storage outage (database sessions)", () => {
  const appOrigin = "http://localhost:3000"
  let storage: Outage<ReturnType<typeof MemoryAdapter>>
  let jar: Map<string, string>
  let assign: ReturnType<typeof vi.fn>
  let announced: (Session | null | undefined)[]
  let stopListening: () => void

  beforeEach(() => {
    storage = outage(MemoryAdapter())
    const { handlers } = Sesame(jwtConfig({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials(true)] }))
    jar = new Map()
    assign = vi.fn()
    vi.stubGlobal("window", { location: { href: `${appOrigin}/account`, assign, reload: vi.fn() } })
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers)
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "))
      const request = new NextRequest(new URL(String(input), appOrigin), { ...init, headers } as ConstructorParameters<typeof NextRequest>[1])
      const response = await (request.method === "POST" ? handlers.POST : handlers.GET)(request)
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";")
        const name = pair.slice(0, pair.indexOf("="))
        if (/max-age=0/i.test(line)) jar.delete(name)
        else jar.set(name, pair.slice(pair.indexOf("=") + 1))
      }
      return response
    })
    announced = []
    stopListening = onSessionChange((_basePath, session) => void announced.push(session))
    vi.spyOn(console, "error").mockImplementation(() => {})
    vi.spyOn(console, "warn").mockImplementation(() => {})
  })
  afterEach(() => {
    stopListening()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  async function signInAlice(): Promise<void> {
    const result = await signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false })
    expect(result).toMatchObject({ ok: true, error: null })
    announced = []
  }

  it("getSession rejects with StorageUnavailable during the outage, and answers the same cookie's session after", async () => {
    await signInAlice()
    expect(await getSession()).toMatchObject({ user: { name: "Alice" } })
    storage.down()
    const error = await getSession().catch((e: unknown) => e)
    expect(isStorageUnavailable(error)).toBe(true)
    expect(error).toBeInstanceOf(StorageUnavailable)
    expect(error).toMatchObject({ status: 503, retryAfter: 3 })
    storage.up()
    expect(await getSession()).toMatchObject({ user: { name: "Alice" } })
  })

  it("a SessionProvider's reader keeps Alice through the outage and reads her again once it is over", async () => {
    await signInAlice()
    const { handed, read } = reader()
    await read.read()
    storage.down()
    await read.read()
    expect(handed).toHaveLength(1)
    storage.up()
    await vi.waitFor(() => expect(handed).toHaveLength(2), { timeout: 5_000, interval: 100 })
    expect(handed[1]).toMatchObject({ user: { name: "Alice" } })
    read.stop()
  })

  it("signIn with redirect: false returns error StorageUnavailable; with a redirect it rejects and stays on the page", async () => {
    storage.down()
    expect(await signIn("credentials", { email: "alice@example.com", password: "wonderland", redirect: false })).toEqual({
      error: "StorageUnavailable",
      code: null,
      status: 503,
      ok: false,
      url: null,
    })
    expect(await signIn("credentials", { email: "alice@example.com", password: "wonderland" }).catch((e: unknown) => e)).toSatisfy(isStorageUnavailable)
    expect(assign).not.toHaveBeenCalled()
    expect(announced).toEqual([])
    storage.up()
    await signInAlice()
  })

  it("signOut rejects with StorageUnavailable, tells no tab and keeps the session; it signs out once the storage is back", async () => {
    await signInAlice()
    const cookies = new Map(jar)
    storage.down()
    expect(await signOut({ redirect: false }).catch((e: unknown) => e)).toSatisfy(isStorageUnavailable)
    expect(announced).toEqual([])
    expect(assign).not.toHaveBeenCalled()
    expect(jar).toEqual(cookies)
    storage.up()
    expect(await getSession()).toMatchObject({ user: { name: "Alice" } })
    await signOut({ redirect: false })
    expect(announced).toEqual([null])
    expect(await getSession()).toBeNull()
  })

  it("updateSession rejects with StorageUnavailable and announces nothing (never a null session)", async () => {
    await signInAlice()
    storage.down()
    expect(await updateSession({ name: "Ada" }).catch((e: unknown) => e)).toSatisfy(isStorageUnavailable)
    expect(announced).toEqual([])
    storage.up()
    expect(await updateSession({ name: "Ada" })).toMatchObject({ user: { email: "alice@example.com" } })
  })
})
