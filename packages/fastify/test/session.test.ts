/**
 * sessionHook and getSession in a real Fastify app, over a listening server and through `inject`:
 * the session or null in `request.session`, one read per request, the cookies that keep a session
 * alive written on the reply (JWT and database sessions), a planted cookie cleared, a read that
 * fails treated as signed out, logged, never a 500, and Sesame's own endpoints left to the core.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig, Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { getSession, sessionHook } from "@sesame/fastify"
import { alice, aliceCredentials, appWith, config, cookieLine, CookieJar, send, signInAlice, transports } from "./helpers.js"

/** An app with the endpoints, the session hook, and a page that shows `request.session` and getSession's answer. */
async function sessionApp(options: AuthConfig) {
  const app = await appWith(options)
  app.addHook("onRequest", sessionHook(options))
  app.get("/", async (request, reply) => {
    const hooked = request.session
    const again = await getSession(request, reply, options)
    return { hooked, again }
  })
  return app
}

describe.each(transports)("the session, reached by $label", ({ serve }) => {
  it("is null for a visitor, and the signed-in user's session after a sign-in, in request.session and from getSession", async () => {
    const served = await serve(await sessionApp(config()))
    expect(await (await send(served, "/")).json()).toEqual({ hooked: null, again: null })
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const { hooked, again } = (await (await send(served, "/", { jar })).json()) as { hooked: Session; again: Session }
    expect(hooked.user?.email).toBe(alice.email)
    expect(again).toEqual(hooked)
  })

  it("is read once per request, however many ask", async () => {
    let reads = 0
    const options = config({ callbacks: { session: ({ session }) => (reads++, session) } })
    const served = await serve(await sessionApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    reads = 0
    await send(served, "/", { jar })
    expect(reads).toBe(1)
  })

  it("is not read by the hook for Sesame's own endpoints, which read it themselves", async () => {
    let reads = 0
    const options = config({ session: { updateAge: 0 }, callbacks: { session: ({ session }) => (reads++, session) } })
    const served = await serve(await sessionApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    reads = 0
    const session = await send(served, "/auth/session", { jar })
    expect(reads).toBe(1)
    // One renewed cookie, the core's, not a second one of the hook's.
    expect(session.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toHaveLength(1)
  })

  it("keeps a JWT session alive: the re-issued cookie is written on the page's reply, which is private", async () => {
    const options = config({ session: { updateAge: 0 } })
    const served = await serve(await sessionApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const before = jar.cookies.get("sesame.session-token")
    const page = await send(served, "/", { jar })
    const lines = page.headers.getSetCookie()
    // Once, although two reads were asked for.
    expect(lines.filter((line) => line.startsWith("sesame.session-token=")).length).toBe(1)
    expect(cookieLine(lines)).toMatch(/HttpOnly/)
    expect(page.headers.get("cache-control")).toBe("private, no-store")
    expect(jar.cookies.get("sesame.session-token")).not.toBe(before)
    expect(((await (await send(served, "/", { jar })).json()) as { hooked: Session }).hooked.user?.name).toBe(alice.name)
  })

  it("writes nothing when the core extends nothing (a fresh session, the default updateAge)", async () => {
    const served = await serve(await sessionApp(config()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/", { jar })
    expect(page.headers.getSetCookie()).toEqual([])
    expect(page.headers.get("cache-control")).toBeNull()
  })

  it("keeps a database session alive: its new expiry is written on the page's reply", async () => {
    const options = config({ adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })], session: { strategy: "database", updateAge: 0 } })
    const served = await serve(await sessionApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/", { jar })
    expect(((await page.json()) as { hooked: Session }).hooked.user?.email).toBe(alice.email)
    expect(cookieLine(page.headers.getSetCookie())).toMatch(/Expires=/)
  })

  it("treats a planted or garbled session cookie as signed out, and clears it", async () => {
    const served = await serve(await sessionApp(config()))
    const page = await send(served, "/", { headers: { cookie: "sesame.session-token=planted.garbage.value" } })
    expect(await page.json()).toEqual({ hooked: null, again: null })
    expect(cookieLine(page.headers.getSetCookie())).toMatch(/Max-Age=0/i)
  })

  it("fails closed when the adapter fails: no session, logged, the page still answers", async () => {
    const errors: Error[] = []
    const adapter = MemoryAdapter()
    const options = config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { strategy: "database" }, logger: { error: (error) => void errors.push(error) } })
    const served = await serve(await sessionApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    adapter.getSessionAndUser = () => Promise.reject(new Error("the database is down"))
    const page = await send(served, "/", { jar })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ hooked: null, again: null })
    expect(errors.length).toBeGreaterThan(0)
  })

  it("fails closed when the read throws (a configuration the core refuses): no session, logged as such, never a 500", async () => {
    const errors: Error[] = []
    const options = config({ session: { maxAge: -1 }, logger: { error: (error) => void errors.push(error) } })
    const served = await serve(await sessionApp(options))
    const page = await send(served, "/", { headers: { cookie: "sesame.session-token=anything" } })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ hooked: null, again: null })
    expect(errors.map((error) => error.message).join("\n")).toMatch(/could not read the session and treats the request as signed out/)
  })

  it("refuses a configuration that is not an object when the hook is made", () => {
    expect(() => sessionHook(null as never)).toThrow(TypeError)
  })
})
