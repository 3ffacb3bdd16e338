/**
 * Keeping a session alive from the server: a session read near the end of its lifetime (a JWT's
 * `maxAge`, a database session's `updateAge`) through getSession, requireSession or the middleware
 * sets a refreshed cookie with a later expiry on the response of the SolidStart request, as
 * @sesame/next's auth() and guard do.
 *
 * The request event is provided the way SolidStart 2 provides it to server functions and pages
 * (`provideRequestEvent` of `solid-js/web/storage`, which `getRequestEvent()` reads), with a
 * response whose headers are a `Headers`, as h3 v2's are.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { provideRequestEvent } from "solid-js/web/storage"
import { MemoryAdapter } from "@sesame/core/adapters"
import { authMiddleware, getSession, requireSession, SolidAuth, type SolidAuthConfig } from "@sesame/solid-start"
import { aliceCredentials, config, CookieJar, request, signInAlice } from "./helpers.js"

const sessionCookie = "sesame.session-token"
const hour = 3600 * 1000
const day = 24 * hour

/** A SolidStart-like event for `req`, with the response headers SolidStart sends. */
function solidEvent(req: Request) {
  return { request: req, locals: {}, response: { status: 200, headers: new Headers() } }
}

/** Runs `read` while SolidStart handles `event` (what `getRequestEvent()` then returns). */
function during<T>(event: ReturnType<typeof solidEvent>, read: () => Promise<T>): Promise<T> {
  return provideRequestEvent(event as never, read)
}

/** The `Set-Cookie` line for the session cookie among `lines`. */
function sessionLine(lines: readonly string[]): string | undefined {
  return lines.find((line) => line.startsWith(`${sessionCookie}=`))
}

function expiresOf(line: string | undefined): number {
  const match = /;\s*Expires=([^;]+)/i.exec(line ?? "")
  if (!match) throw new Error(`no Expires in ${JSON.stringify(line)}`)
  return Date.parse(match[1]!)
}

/** Signs Alice in at the current (fake) time; returns her jar and the expiry of her cookie. */
async function signedIn(options: SolidAuthConfig): Promise<{ jar: CookieJar; expires: number }> {
  const jar = new CookieJar()
  const response = await signInAlice(SolidAuth(options), jar)
  return { jar, expires: expiresOf(sessionLine(response.headers.getSetCookie())) }
}

/** Alice's JWT session (2 hours) five minutes before it ends: her jar and the expiry of her cookie. */
async function jwtNearItsEnd(options: SolidAuthConfig): Promise<{ jar: CookieJar; expires: number }> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-01-01T00:00:00Z") })
  const signed = await signedIn(options)
  vi.setSystemTime(signed.expires - 5 * 60 * 1000)
  return signed
}

afterEach(() => {
  vi.useRealTimers()
})

describe("getSession keeps a session alive", () => {
  it("a JWT session near the end of its maxAge gets a refreshed cookie with a later expiry on the event's response", async () => {
    const options = config({ session: { maxAge: 2 * hour } })
    const { jar, expires } = await jwtNearItsEnd(options)

    const req = request("/account", { jar })
    const event = solidEvent(req)
    const session = await during(event, () => getSession(req, options))

    expect(session?.user?.name).toBe("Alice")
    const refreshed = sessionLine(event.response.headers.getSetCookie())
    expect(refreshed).toMatch(/HttpOnly/)
    expect(expiresOf(refreshed)).toBeGreaterThan(expires + hour)
    // The refreshed cookie is a session the browser can go on with past the old expiry.
    jar.apply(new Response(null, { headers: { "set-cookie": refreshed! } }))
    vi.setSystemTime(expires + 10 * 60 * 1000)
    const later = request("/", { jar })
    expect((await during(solidEvent(later), () => getSession(later, options)))?.user?.name).toBe("Alice")
  })

  it("a database session older than updateAge is extended, and its cookie gets the new expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-01-01T00:00:00Z") })
    const adapter = MemoryAdapter()
    const options = config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { maxAge: 7 * day, updateAge: day } })
    const { jar, expires } = await signedIn(options)
    vi.setSystemTime(expires - day)

    const req = request("/account", { jar })
    const event = solidEvent(req)
    const session = await during(event, () => requireSession(req, options, "/signin"))

    expect(session.user.email).toBe("alice@example.com")
    const refreshed = expiresOf(sessionLine(event.response.headers.getSetCookie()))
    expect(refreshed).toBeGreaterThan(expires + 5 * day)
    const [stored] = [...adapter.tables.sessions.values()]
    expect(stored?.expires.getTime()).toBe(refreshed)
  })

  it("writes nothing on the response of another request: cookies read from it are not this visitor's", async () => {
    const options = config()
    const { jar } = await signedIn(options)
    const event = solidEvent(request("/page"))
    expect(await during(event, () => getSession(request("/other", { jar }), options))).not.toBeNull()
    expect(event.response.headers.getSetCookie()).toEqual([])
  })

  it("leaves a session cookie the response already sets as it is (the first write of a request wins)", async () => {
    const options = config()
    const { jar } = await signedIn(options)
    const req = request("/account", { jar })
    const event = solidEvent(req)
    event.response.headers.append("set-cookie", `${sessionCookie}=set-by-the-app; Path=/`)
    await during(event, () => getSession(req, options))
    await during(event, () => getSession(req, options))
    expect(event.response.headers.getSetCookie()).toEqual([`${sessionCookie}=set-by-the-app; Path=/`])
  })

  it("still answers when the response has sent its headers (a streamed page): the write is skipped", async () => {
    const options = config()
    const { jar } = await signedIn(options)
    const req = request("/account", { jar })
    const sent = {
      request: req,
      locals: {},
      response: {
        headers: {
          append() {
            throw new Error("Cannot set headers after they are sent to the client")
          },
          // h3 v1's header proxy lists `undefined` when no cookie is set.
          getSetCookie: () => [undefined],
        },
      },
    }
    expect((await provideRequestEvent(sent as never, () => getSession(req, options)))?.user?.name).toBe("Alice")
  })

  it("sets a cleared cookie for a session cookie that is no good", async () => {
    const req = request("/account", { headers: { cookie: `${sessionCookie}=not-a-token` } })
    const event = solidEvent(req)
    expect(await during(event, () => getSession(req, config()))).toBeNull()
    expect(sessionLine(event.response.headers.getSetCookie())).toMatch(/Max-Age=0/)
  })
})

describe("authMiddleware keeps a session alive", () => {
  it("sets the refreshed cookie on the event's response when a signed-in request goes on", async () => {
    const options = config({ session: { maxAge: 2 * hour } })
    const { jar, expires } = await jwtNearItsEnd(options)
    const guard = authMiddleware(options, { protect: ["/account"], redirectTo: "/signin" })

    const event = solidEvent(request("/account", { jar }))
    expect(await guard(event)).toBeUndefined()
    expect(expiresOf(sessionLine(event.response.headers.getSetCookie()))).toBeGreaterThan(expires + hour)
    // The page's own read in the same request leaves the middleware's cookie alone.
    await during(event, () => getSession(event.request, options))
    expect(event.response.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=`))).toHaveLength(1)
  })

  it("clears a session cookie that is no good on the redirect itself, not on the event", async () => {
    const guard = authMiddleware(config(), { protect: ["/account"], redirectTo: "/signin" })
    const event = solidEvent(request("/account", { headers: { cookie: `${sessionCookie}=not-a-token` } }))
    const response = await guard(event)
    expect(response?.status).toBe(302)
    expect(sessionLine(response!.headers.getSetCookie())).toMatch(/Max-Age=0/)
    expect(event.response.headers.getSetCookie()).toEqual([])
  })
})
