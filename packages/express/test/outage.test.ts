/**
 * A storage outage (issue 40) in a real Express app (5 and 4), with database sessions on an adapter
 * that fails as a driver does when its server restarts (`outage` of @sesame/testing): a signed-in
 * visitor is never taken for signed out. The guard answers the core's 503 with Retry-After (the
 * page for a page, JSON for a script), never the sign-in redirect and never a cookie; getSession
 * throws the StorageUnavailable; sessionLocals passes it to `next`, which Express's own handler and
 * unavailableHandler answer 503; a route that does not read the session goes on; and once the
 * storage is back the same cookie is the same session. Each defence beside the flow it protects.
 */
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import type { AuthConfig, Session } from "@sesame/core"
import { getSession, isStorageUnavailable, requireSession, SesameAuth, sessionLocals, StorageUnavailable, unavailableHandler } from "@sesame/express"
import { aliceCredentials, alice, config, CookieJar, send, serve, signInAlice, versions, type ExpressModule } from "./helpers.js"

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

/** An app with every way of reading the session, on database (or JWT) sessions in a memory adapter that can go down. */
function outageApp(express: ExpressModule, strategy: "database" | "jwt" = "database") {
  const storage = outage(MemoryAdapter())
  const logged: string[] = []
  const options: AuthConfig = config({
    adapter: storage.adapter,
    session: { strategy },
    providers: [aliceCredentials({ createUser: true })],
    logger: { error: (error) => void logged.push(error.message), warn: (code) => void logged.push(code), debug: () => {} },
  })
  const app = express()
  app.use("/auth", SesameAuth(options))
  app.get("/public", (_req, res) => {
    res.send("public page")
  })
  app.get("/account", requireSession(options), (_req, res) => {
    res.send(`account of ${(res.locals.session as Session).user?.email}`)
  })
  app.get("/api/me", requireSession(options), (_req, res) => {
    res.json((res.locals.session as Session).user)
  })
  // The app's own read, catching the outage itself.
  app.get("/whoami", (req, res, next) => {
    getSession(req, options).then(
      (session) => res.json({ user: session?.user ?? null }),
      (error: unknown) => {
        if (isStorageUnavailable(error)) res.status(503).json({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter })
        else next(error)
      },
    )
  })
  // A read whose error goes to Express's own handler.
  app.get("/uncaught", (req, res, next) => {
    getSession(req, options).then((session) => res.json({ user: session?.user ?? null }), next)
  })
  // sessionLocals for views, with Express's own handler behind it…
  app.use("/views", sessionLocals(options))
  app.get("/views/home", (_req, res) => {
    res.send(`home of ${(res.locals.session as Session | null)?.user?.name ?? "a stranger"}`)
  })
  // …and with unavailableHandler behind it.
  app.use("/handled", sessionLocals(options))
  app.get("/handled/home", (_req, res) => {
    res.send(`home of ${(res.locals.session as Session | null)?.user?.name ?? "a stranger"}`)
  })
  app.get("/handled/read", (req, res, next) => {
    getSession(req, options).then((session) => res.json({ user: session?.user ?? null }), next)
  })
  app.use(unavailableHandler(options))
  return { app, storage, logged }
}

/** Sesame's 503 (see `checkUnavailable`): the page or JSON; its body. */
async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe.each(versions)("a storage outage on $label", ({ express }) => {
  it("the flow it protects: signed in, every way of reading the session sees Alice", async () => {
    const { app } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/account", { jar, headers: page })).text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/api/me", { jar, headers: json })).json()).toMatchObject({ email: alice.email })
    expect(await (await send(served, "/whoami", { jar })).json()).toMatchObject({ user: { email: alice.email } })
    expect(await (await send(served, "/views/home", { jar })).text()).toBe("home of Alice")
    expect(await (await send(served, "/public")).text()).toBe("public page")
  })

  it("the guard answers a page with the unavailable page (503, Retry-After), not the sign-in redirect, and sets no cookie", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const cookie = jar.get("sesame.session-token")
    storage.down()
    const body = await expectUnavailable(await send(served, "/account?tab=keys", { jar, headers: page }), "page")
    // "Try again" reloads the page asked for, as a path.
    expect(body).toContain('href="/account?tab=keys"')
    expect(body).not.toContain(alice.email)
    expect(jar.get("sesame.session-token")).toBe(cookie)
    expect(storage.refused.size).toBeGreaterThan(0)
  })

  it("the guard answers a JSON client 503 JSON, not 401", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    await expectUnavailable(await send(served, "/api/me", { jar, headers: json }), "json")
    await expectUnavailable(await send(served, "/api/me", { jar, headers: { "x-requested-with": "XMLHttpRequest" } }), "json")
  })

  it("getSession throws the StorageUnavailable: the route catches it, or Express's own handler answers 503 with Retry-After", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    const caught = await send(served, "/whoami", { jar })
    expect(caught.status).toBe(503)
    expect(await caught.json()).toEqual({ caught: "StorageUnavailable", instance: true, retryAfter: 3 })
    // Passed to `next`: Express's default handler answers with the error's status and headers.
    const uncaught = await send(served, "/uncaught", { jar })
    expect(uncaught.status).toBe(503)
    expect(uncaught.headers.get("retry-after")).toBe("3")
    expect(uncaught.headers.getSetCookie()).toEqual([])
  })

  it("sessionLocals passes the outage to next: Express's handler answers 503, unavailableHandler the core's page or JSON", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    const plain = await send(served, "/views/home", { jar, headers: page })
    expect(plain.status).toBe(503)
    expect(plain.headers.get("retry-after")).toBe("3")
    expect(plain.headers.getSetCookie()).toEqual([])
    expect(await plain.text()).not.toContain("a stranger")
    await expectUnavailable(await send(served, "/handled/home", { jar, headers: page }), "page")
    await expectUnavailable(await send(served, "/handled/home", { jar, headers: json }), "json")
    // getSession's error, passed to next, gets the same answer.
    await expectUnavailable(await send(served, "/handled/read", { jar, headers: page }), "page")
  })

  it("a route that does not read the session, and the sign-in page, go on during the outage", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    const open = await send(served, "/public", { jar, headers: page })
    expect(open.status).toBe(200)
    expect(await open.text()).toBe("public page")
    expect((await send(served, "/auth/signin", { headers: page })).status).toBe(200)
  })

  it("once the storage is back, the same cookie jar is signed in again: the session was not lost", async () => {
    const { app, storage, logged } = outageApp(express)
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    for (const path of ["/account", "/api/me", "/whoami", "/views/home", "/handled/home"]) await send(served, path, { jar, headers: page })
    storage.up()
    const back = await send(served, "/account", { jar, headers: page })
    expect(back.status).toBe(200)
    expect(await back.text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/whoami", { jar })).json()).toMatchObject({ user: { email: alice.email } })
    // The core logged the outage once when it began and once when it ended; the integration
    // logged nothing per request.
    expect(logged.filter((line) => line.includes("could not read the session"))).toEqual([])
    expect(logged.filter((line) => /storage could not be reached/i.test(line))).toHaveLength(1)
    expect(logged).toContain("storage-available-again")
  })

  it("a request without a session cookie during the outage is signed out, as always: the sign-in redirect and the 401, without touching the storage", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    storage.down()
    const turnedAway = await send(served, "/account", { headers: page })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=%2Faccount`)
    expect((await send(served, "/api/me", { headers: json })).status).toBe(401)
    expect(await (await send(served, "/whoami")).json()).toEqual({ user: null })
    expect(await (await send(served, "/views/home")).text()).toBe("home of a stranger")
    expect(storage.refused.size).toBe(0)
  })

  it("a session cookie the storage cannot check (planted, or a stale one) is not cleared during the outage", async () => {
    const { app, storage } = outageApp(express)
    const served = await serve(app)
    storage.down()
    await expectUnavailable(await send(served, "/account", { cookie: "sesame.session-token=planted", headers: page }), "page")
    storage.up()
    // Once the storage answers, the planted cookie is what it is: no session, cleared on the redirect.
    const turnedAway = await send(served, "/account", { cookie: "sesame.session-token=planted", headers: page })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.getSetCookie().join()).toMatch(/sesame\.session-token=;.*Max-Age=0/i)
  })

  it("JWT sessions need no storage to be read: the guarded page and the API go on during the outage", async () => {
    const { app, storage } = outageApp(express, "jwt")
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    storage.down()
    const account = await send(served, "/account", { jar, headers: page })
    expect(account.status).toBe(200)
    expect(await account.text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/api/me", { jar, headers: json })).json()).toMatchObject({ email: alice.email })
    expect(await (await send(served, "/views/home", { jar })).text()).toBe("home of Alice")
    expect(storage.refused.size).toBe(0)
  })
})
