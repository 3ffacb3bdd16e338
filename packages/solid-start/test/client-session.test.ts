/**
 * createSession() when the server answers 503 (issue 40: its storage is down for a moment): the
 * value and status stay what they were, and the session is fetched again after Retry-After.
 *
 * createSession runs here on Solid's browser build (the reactive core needs no DOM), in a
 * `createRoot`, with `window` and `document` reduced to their event listeners; `fetch` goes to the
 * real route handlers on an adapter whose storage goes down, or answers from a script for the
 * timing of the retries.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

// Solid's browser build, in place of the server build that Node.js resolves "solid-js" to.
vi.mock("solid-js", () => vi.importActual<typeof import("solid-js")>("solid-js/dist/solid.js"))
vi.mock("solid-js/web", () => ({ isServer: false }))

import { createRoot } from "solid-js"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage } from "@sesame/testing"
import { SolidAuth } from "@sesame/solid-start"
import { createSession, isStorageUnavailable, signIn, type SessionResource } from "@sesame/solid-start/client"
import { alice, aliceCredentials, config, CookieJar, event, origin } from "./helpers.js"

const aliceSession = { user: { name: "Alice", email: alice.email }, expires: "2099-01-01T00:00:00.000Z" }

beforeEach(() => {
  const listeners = () => ({ addEventListener: vi.fn(), removeEventListener: vi.fn() })
  vi.stubGlobal("window", { ...listeners(), location: { href: `${origin}/account`, assign: vi.fn(), reload: vi.fn() } })
  vi.stubGlobal("document", { ...listeners(), visibilityState: "visible" })
  vi.spyOn(console, "error").mockImplementation(() => {})
  vi.spyOn(console, "warn").mockImplementation(() => {})
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** createSession() in a root of its own; `dispose` cleans the root up, as an unmounted component is. */
function mounted(): { session: SessionResource; dispose: () => void } {
  return createRoot((dispose) => ({ session: createSession(), dispose }))
}

/** `fetch` answering GET session from `answers`, one per call (the last one repeats). */
function sessionAnswers(...answers: (() => Response)[]): { calls: () => number } {
  let calls = 0
  vi.stubGlobal("fetch", async () => answers[Math.min(calls++, answers.length - 1)]!())
  return { calls: () => calls }
}
const ok = (session: object | null) => () => Response.json(session)
const down = (retryAfter = "3") => () =>
  Response.json({ error: "StorageUnavailable", message: "Try again in a moment." }, { status: 503, headers: { "Retry-After": retryAfter } })

describe("createSession against the real handlers, database sessions", () => {
  it("keeps Alice (authenticated) through the outage, with the error, and fetches her again once it is over", async () => {
    const storage = outage(MemoryAdapter())
    const handlers = SolidAuth(config({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })] }))
    const jar = new CookieJar()
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers)
      headers.set("cookie", jar.header())
      const req = new Request(new URL(String(input), origin), { ...init, headers })
      const response = (await (req.method === "POST" ? handlers.POST : handlers.GET)(event(req)))!
      jar.apply(response)
      return response
    })
    expect(await signIn("credentials", { username: "alice", password: alice.password, redirect: false })).toMatchObject({ ok: true })

    const { session, dispose } = mounted()
    await vi.waitFor(() => expect(session.status).toBe("authenticated"))

    storage.down()
    const refused = await session.refetch().catch((e: unknown) => e)
    expect(isStorageUnavailable(refused)).toBe(true)
    expect(session.status).toBe("authenticated")
    expect(session()?.user?.name).toBe("Alice")
    expect(isStorageUnavailable(session.error)).toBe(true)

    storage.up()
    // Fetched again after Retry-After (3 s), without a focus or a call.
    await vi.waitFor(() => expect(session.error).toBeUndefined(), { timeout: 5_000, interval: 100 })
    expect(session.status).toBe("authenticated")
    expect(session()?.user?.name).toBe("Alice")
    dispose()
  })
})

describe("createSession's retries after a 503", () => {
  beforeEach(() => vi.useFakeTimers())

  it("stays loading on a first fetch during an outage and retries every Retry-After, one wait at a time", async () => {
    const { calls } = sessionAnswers(down("2"), down("2"), down("2"), ok(aliceSession))
    const { session, dispose } = mounted()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls()).toBe(1)
    expect(session.status).toBe("loading")
    expect(session()).toBeUndefined()
    // A focus meanwhile fetches, fails too, and adds no second wait.
    await session.refetch().catch(() => {})
    expect(calls()).toBe(2)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(calls()).toBe(3)
    expect(session.status).toBe("loading")
    await vi.advanceTimersByTimeAsync(2_000)
    expect(calls()).toBe(4)
    expect(session.status).toBe("authenticated")
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(4)
    dispose()
  })

  it("hands on a sign-out once the server answers it", async () => {
    sessionAnswers(ok(aliceSession), down(), ok(null))
    const { session, dispose } = mounted()
    await vi.advanceTimersByTimeAsync(0)
    expect(session.status).toBe("authenticated")
    await session.refetch().catch(() => {})
    expect(session.status).toBe("authenticated")
    await vi.advanceTimersByTimeAsync(3_000)
    expect(session.status).toBe("unauthenticated")
    dispose()
  })

  it("stops retrying when its owner is cleaned up", async () => {
    const { calls } = sessionAnswers(down())
    const { session, dispose } = mounted()
    await vi.advanceTimersByTimeAsync(0)
    dispose()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(1)
    expect(session.status).toBe("loading")
  })

  it("still fails closed on another failure (no session), without retrying", async () => {
    const { calls } = sessionAnswers(ok(aliceSession), () => new Response("oops", { status: 500 }))
    const { session, dispose } = mounted()
    await vi.advanceTimersByTimeAsync(0)
    expect(await session.refetch()).toBeNull()
    expect(session.status).toBe("unauthenticated")
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toBe(2)
    dispose()
  })
})
