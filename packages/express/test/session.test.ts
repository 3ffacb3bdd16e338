/**
 * getSession and sessionLocals in a real Express app (5 and 4): the session or null, one read per
 * request, the cookies that keep a session alive written on the response (JWT and database
 * sessions), a planted cookie cleared, and a read that fails treated as signed out, logged, never
 * a 500.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig, Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { getSession, SesameAuth, sessionLocals } from "@sesame/express"
import { alice, aliceCredentials, config, cookieLine, CookieJar, send, serve, signInAlice, versions, type ExpressModule } from "./helpers.js"

/** An app with the endpoints and a page that shows `res.locals.session` (and, when asked, getSession's answer). */
function appWith(express: ExpressModule, options: AuthConfig) {
  const app = express()
  app.use("/auth", SesameAuth(options))
  app.use(sessionLocals(options))
  app.get("/", async (req, res) => {
    const again = await getSession(req, options)
    res.json({ locals: res.locals.session as Session | null, again })
  })
  return app
}

describe.each(versions)("the session on $label", ({ express }) => {
  it("is null for a visitor, and the signed-in user's session after a sign-in, in res.locals and from getSession", async () => {
    const served = await serve(appWith(express, config()))
    expect(await (await send(served, "/")).json()).toEqual({ locals: null, again: null })
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const { locals, again } = (await (await send(served, "/", { jar })).json()) as { locals: Session; again: Session }
    expect(locals.user?.email).toBe(alice.email)
    expect(again).toEqual(locals)
  })

  it("is read once per request, however many ask", async () => {
    let reads = 0
    const options = config({ callbacks: { session: ({ session }) => (reads++, session) } })
    const served = await serve(appWith(express, options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    reads = 0
    await send(served, "/", { jar })
    expect(reads).toBe(1)
  })

  it("keeps a JWT session alive: the re-issued cookie is written on the page's response", async () => {
    const options = config({ session: { updateAge: 0 } })
    const served = await serve(appWith(express, options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const before = jar.cookies.get("sesame.session-token")
    const page = await send(served, "/", { jar })
    const lines = page.headers.getSetCookie()
    // Once, although two reads were asked for.
    expect(lines.filter((line) => line.startsWith("sesame.session-token=")).length).toBe(1)
    expect(cookieLine(lines)).toMatch(/HttpOnly/)
    expect(jar.cookies.get("sesame.session-token")).not.toBe(before)
    expect(((await (await send(served, "/", { jar })).json()) as { locals: Session }).locals.user?.name).toBe(alice.name)
  })

  it("writes nothing when the core extends nothing (a fresh session, the default updateAge)", async () => {
    const served = await serve(appWith(express, config()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect((await send(served, "/", { jar })).headers.getSetCookie()).toEqual([])
  })

  it("keeps a database session alive: its new expiry is written on the page's response", async () => {
    const options = config({ adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })], session: { strategy: "database", updateAge: 0 } })
    const served = await serve(appWith(express, options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/", { jar })
    expect(((await page.json()) as { locals: Session }).locals.user?.email).toBe(alice.email)
    expect(cookieLine(page.headers.getSetCookie())).toMatch(/Expires=/)
  })

  it("treats a planted or garbled session cookie as signed out, and clears it", async () => {
    const served = await serve(appWith(express, config()))
    const page = await send(served, "/", { headers: { cookie: "sesame.session-token=planted.garbage.value" } })
    expect(await page.json()).toEqual({ locals: null, again: null })
    expect(cookieLine(page.headers.getSetCookie())).toMatch(/Max-Age=0/i)
  })

  it("fails closed when the adapter fails: no session, logged, the page still answers", async () => {
    const errors: Error[] = []
    const adapter = MemoryAdapter()
    const options = config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { strategy: "database" }, logger: { error: (error) => void errors.push(error) } })
    const served = await serve(appWith(express, options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    adapter.getSessionAndUser = () => Promise.reject(new Error("the database is down"))
    const page = await send(served, "/", { jar })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ locals: null, again: null })
    expect(errors.length).toBeGreaterThan(0)
  })

  it("fails closed when the read throws (a configuration the core refuses): no session, logged as such, never a 500", async () => {
    const errors: Error[] = []
    const options = config({ session: { maxAge: -1 }, logger: { error: (error) => void errors.push(error) } })
    const app = express()
    app.use(sessionLocals(options))
    app.get("/", (_req, res) => {
      res.json({ locals: res.locals.session })
    })
    const page = await send(await serve(app), "/", { headers: { cookie: "sesame.session-token=anything" } })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ locals: null })
    expect(errors.map((error) => error.message).join("\n")).toMatch(/could not read the session and treats the request as signed out/)
  })

  it("refuses a configuration that is not an object when the middleware is made", () => {
    expect(() => sessionLocals(null as never)).toThrow(TypeError)
  })
})
