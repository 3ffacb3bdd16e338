/**
 * Issue 40 with Auth.js's own `@auth/pg-adapter`, handed to `Auth()` unchanged: a database restart
 * is a short "try again", never a sign-out, whatever adapter the app brings. Its errors are
 * node-postgres's own, which Sesame recognises as the database being away. The adapter runs on a
 * `pg.Pool` connected through a TCP proxy that the test cuts (every connection destroyed, new ones
 * refused, as while the server restarts) and restores; the shared server itself is never touched.
 * The schema is the adapter's documented one (schemas/pg-adapter.sql), in a place of its own.
 *
 * While cut: the session read answers 503 with `Retry-After` and leaves the cookie alone, a
 * sign-in and a sign-out answer 503, and the log has one `StorageUnavailable` for the whole outage.
 * Once restored: the very next session read answers the session (the pool's dead connections were
 * replaced without a request failing), and the log says `storage-available-again` once. With JWT
 * sessions, reading the session needs no database at all, so it answers during the outage too.
 */
import type { AuthConfig } from "@sesame/core"
import { readFileSync } from "node:fs"
import PostgresAdapter from "@auth/pg-adapter"
import { tcpProxy, type TcpProxy } from "@sesame/testing"
import pg from "pg"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, home, secret, send, signInAlice } from "../../core/test/helpers.js"
import { postgresPlace, type PostgresPlace } from "./places.js"

const server = new URL(process.env.SESAME_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test")
const sessionCookie = "sesame.session-token"

let place: PostgresPlace
let proxy: TcpProxy
let pool: pg.Pool
/** The idle connections the pool reported dead: the app's listener (Auth.js's adapter adds none). */
const poolErrors: Error[] = []

/** What the configuration's logger received: errors and warning codes (debug is dropped). */
const log = { errors: [] as Error[], warnings: [] as string[] }
const logger = { error: (e: Error) => void log.errors.push(e), warn: (code: string) => void log.warnings.push(code), debug: () => {} }
const typeOf = (e: Error) => (e as { type?: string }).type ?? e.name

beforeAll(async () => {
  place = await postgresPlace("outage")
  await place.query(readFileSync(new URL("./schemas/pg-adapter.sql", import.meta.url), "utf8"))
  proxy = await tcpProxy({ host: server.hostname, port: Number(server.port || 5432) })
  pool = new pg.Pool({
    host: "127.0.0.1",
    port: proxy.port,
    user: decodeURIComponent(server.username) || "postgres",
    password: decodeURIComponent(server.password) || undefined,
    database: server.pathname.slice(1) || "test",
    options: `-c search_path=${place.schema}`,
    max: 5,
    // A server that takes the connection but never answers fails the call instead of hanging it.
    connectionTimeoutMillis: 2000,
  })
  // What an app does for an idle connection that dies: without a listener, the pool's `error`
  // event would crash the process.
  pool.on("error", (error) => void poolErrors.push(error))
})
afterAll(async () => {
  await pool?.end().catch(() => {})
  await proxy?.close()
  await place?.close()
})
beforeEach(() => {
  log.errors.length = 0
  log.warnings.length = 0
})
// A test that fails while the proxy is cut leaves it to the next one restored.
afterEach(() => proxy.restore())

/** Auth.js's adapter, exactly as its package makes it. */
const adapter = () => PostgresAdapter(pool)

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, adapter: adapter(), providers: [aliceCredentials({ createUser: true })], logger, ...overrides }
}

/** The answer to `GET /auth/session` with `jar`, with how long it took. */
async function readSession(c: AuthConfig, jar: CookieJar) {
  const started = performance.now()
  const response = await send(c, "/auth/session", { jar })
  return { response, ms: performance.now() - started, body: await response.text() }
}

/** A 503 for the outage: `Retry-After`, no cookie set or cleared, nothing of a stack or the driver in the body. */
function expectUnavailable(response: Response, body: string) {
  expect(response.status).toBe(503)
  expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
  expect(response.headers.getSetCookie()).toEqual([])
  expect(response.headers.get("location")).toBeNull()
  expect(body).not.toMatch(/\n\s+at |node_modules|ECONNREFUSED|Connection terminated|127\.0\.0\.1/)
}

const outageErrors = () => log.errors.filter((e) => typeOf(e) === "StorageUnavailable")
/** Sesame says at start that the adapter lacks optional methods: only the outage's warning is looked at. */
const backAgain = () => log.warnings.filter((w) => w === "storage-available-again")

describe("@auth/pg-adapter: PostgreSQL goes away and comes back (database sessions)", () => {
  it("answers 503 while cut, never a sign-out; the next read after the restore answers the session; one log line each way", async () => {
    const c = config()
    const jar = new CookieJar()
    const signedIn = await signInAlice(c, jar)
    expect(signedIn.headers.get("location")).toBe(home)
    const token = jar.get(sessionCookie)!
    expect(token).toBeTruthy()
    expect(JSON.parse((await readSession(c, jar)).body)).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    const signOutToken = await csrfToken(c, jar)
    expect(proxy.connections).toBeGreaterThan(0)

    await proxy.cut()

    // The session, several times: 503 each time, the cookie kept, one log line for all of them.
    const timings: number[] = []
    for (let i = 0; i < 3; i++) {
      const { response, body, ms } = await readSession(c, jar)
      expectUnavailable(response, body)
      expect(JSON.parse(body)).toMatchObject({ error: "StorageUnavailable" })
      timings.push(ms)
    }
    // Two short retries of the read (50 ms, 150 ms), then the answer: no hang.
    for (const ms of timings) expect(ms).toBeLessThan(2000)
    expect(jar.get(sessionCookie)).toBe(token)

    // A sign-out: 503, and the cookie stays (the session row would outlive a cookie cleared now).
    const signOut = await send(c, "/auth/signout", { jar, form: { csrfToken: signOutToken } })
    expectUnavailable(signOut, await signOut.text())
    expect(jar.get(sessionCookie)).toBe(token)

    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
    expect(backAgain()).toEqual([])

    await proxy.restore()

    // The very next read answers the session: nothing of the dead connections is left in the pool.
    const back = await readSession(c, jar)
    expect(back.response.status).toBe(200)
    expect(JSON.parse(back.body)).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(backAgain()).toEqual(["storage-available-again"])
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])

    // And the sign-out refused during the outage now works.
    const out = await send(c, "/auth/signout", { jar, form: { csrfToken: await csrfToken(c, jar) } })
    expect(out.status).toBe(302)
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(JSON.parse((await readSession(c, jar)).body)).toBeNull()
    expect(log.errors).toHaveLength(1)
  })

  it("a sign-in during the outage answers 503 (JSON or page), never error=Configuration; the adapter's getUser, which answers null for any failure, splits the outage in the log", async () => {
    const c = config()
    await signInAlice(c, new CookieJar())
    await proxy.cut()
    const visitor = new CookieJar()
    const form = { csrfToken: await csrfToken(c, visitor), username: "alice", password: "correct horse" }
    const scripted = await send(c, "/auth/callback/credentials", { jar: visitor, form })
    const scriptedBody = await scripted.text()
    expectUnavailable(scripted, scriptedBody)
    expect(JSON.parse(scriptedBody)).toMatchObject({ error: "StorageUnavailable" })
    const browser = await send(c, "/auth/callback/credentials", { jar: visitor, form, headers: { accept: "text/html" } })
    const page = await browser.text()
    expectUnavailable(browser, page)
    expect(browser.headers.get("content-type")).toMatch(/^text\/html/)
    expect(page).not.toContain("Configuration")
    expect(visitor.get(sessionCookie)).toBeUndefined()
    // A credentials sign-in looks the user up by id (`getUser`), then by email (`getUserByEmail`).
    // @auth/pg-adapter's `getUser` catches every error and answers null ("no such user"), so each
    // attempt fails only at `getUserByEmail`. The first begins the outage; in the second, Sesame
    // sees `getUser` succeed, logs the storage as answering again, then a new outage. With
    // Sesame's adapters (adapter-pg/test/outage.test.ts) the same attempts log one outage.
    expect(outageErrors()).toHaveLength(2)
    expect(backAgain()).toHaveLength(1)
  })

  it("each outage is one StorageUnavailable and one storage-available-again, however many requests fail", async () => {
    const c = config()
    const jar = new CookieJar()
    await signInAlice(c, jar)
    for (let outage = 1; outage <= 2; outage++) {
      await proxy.cut()
      const answers = await Promise.all(Array.from({ length: 5 }, () => readSession(c, jar)))
      for (const { response, body } of answers) expectUnavailable(response, body)
      await proxy.restore()
      expect((await readSession(c, jar)).response.status).toBe(200)
      expect(outageErrors()).toHaveLength(outage)
      expect(backAgain()).toHaveLength(outage)
    }
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable", "StorageUnavailable"])
  })

  it("a connection that dies with the server while idle is replaced: the read right after a restore with no request in between works", async () => {
    const c = config()
    const jar = new CookieJar()
    await signInAlice(c, jar)
    // Fill the pool with idle connections, then cut and restore with nothing asked meanwhile.
    await Promise.all(Array.from({ length: 5 }, () => readSession(c, jar)))
    expect(pool.idleCount).toBeGreaterThan(0)
    const reported = poolErrors.length
    await proxy.cut()
    await proxy.restore()
    const { response, body } = await readSession(c, jar)
    expect(response.status).toBe(200)
    expect(JSON.parse(body)).toMatchObject({ user: { name: "Alice" } })
    // The pool learned of the dead connections from their sockets, not from a failed request.
    expect(poolErrors.length).toBeGreaterThan(reported)
    expect(log.errors).toEqual([])
  })
})

describe("@auth/pg-adapter: JWT sessions during the outage", () => {
  it("reading the session needs no database: it answers 200 with the user while the proxy is cut, and so does a credentials sign-in", async () => {
    const c = config({ session: { strategy: "jwt" } })
    const jar = new CookieJar()
    expect((await signInAlice(c, jar)).headers.get("location")).toBe(home)
    await proxy.cut()
    for (let i = 0; i < 3; i++) {
      const { response, body } = await readSession(c, jar)
      expect(response.status).toBe(200)
      expect(JSON.parse(body)).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    }
    // With JWT sessions a credentials sign-in takes the app's word for the user, and this adapter
    // has no store, so no second-factor gate looks the user up: nothing asks the database. (With
    // Sesame's adapters the gate does, and the sign-in answers 503: adapter-pg/test/outage.test.ts.)
    const visitor = new CookieJar()
    expect((await signInAlice(c, visitor)).headers.get("location")).toBe(home)
    expect(JSON.parse((await readSession(c, visitor)).body)).toMatchObject({ user: { name: "Alice" } })
    await proxy.restore()
    expect(log.errors).toEqual([])
    expect(backAgain()).toEqual([])
  })
})
