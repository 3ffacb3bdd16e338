/**
 * Issue 40 on a real MariaDB: a database restart is a short "try again", never a sign-out.
 * `Auth()` runs with this adapter on a mysql2 pool connected through a TCP proxy that the test cuts
 * (every connection destroyed, new ones refused, as while the server restarts) and restores; the
 * shared server itself is never touched.
 *
 * While cut: the session read answers 503 with `Retry-After` and leaves the cookie alone, a
 * sign-in and a sign-out answer 503, and the log has one `StorageUnavailable` for the whole outage.
 * Once restored: the very next session read answers the session (the pool's dead connections were
 * replaced without a request failing), and the log says `storage-available-again` once. With JWT
 * sessions, reading the session needs no database at all, so it answers during the outage too.
 */
import type { AuthConfig } from "@sesame/core"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { tcpProxy, type TcpProxy } from "@sesame/testing"
import mysql from "mysql2/promise"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, home, secret, send, signInAlice } from "../../core/test/helpers.js"
import { serverUrl, testDatabase } from "./database.js"

const db = testDatabase("outage")
const server = new URL(serverUrl)
const sessionCookie = "sesame.session-token"

let proxy: TcpProxy
let pool: mysql.Pool

/** What the configuration's logger received: errors and warning codes (debug is dropped). */
const log = { errors: [] as Error[], warnings: [] as string[] }
const logger = { error: (e: Error) => void log.errors.push(e), warn: (code: string) => void log.warnings.push(code), debug: () => {} }
const typeOf = (e: Error) => (e as { type?: string }).type ?? e.name

beforeAll(async () => {
  await db.create()
  await migrate(db.pool())
  proxy = await tcpProxy({ host: server.hostname, port: Number(server.port || 3306) })
  pool = mysql.createPool({
    host: "127.0.0.1",
    port: proxy.port,
    user: decodeURIComponent(server.username) || "root",
    password: decodeURIComponent(server.password) || undefined,
    database: db.name,
    connectionLimit: 5,
    // A server that takes the connection but never answers fails the call instead of hanging it.
    connectTimeout: 2000,
  })
})
afterAll(async () => {
  await pool?.end().catch(() => {})
  await proxy?.close()
  await db.drop()
})
beforeEach(() => {
  log.errors.length = 0
  log.warnings.length = 0
})
// A test that fails while the proxy is cut leaves it to the next one restored.
afterEach(() => proxy.restore())

const adapter = () => MysqlAdapter(pool)

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
  expect(body).not.toMatch(/\n\s+at |node_modules|ECONNREFUSED|PROTOCOL_CONNECTION_LOST|127\.0\.0\.1/)
}

const outageErrors = () => log.errors.filter((e) => typeOf(e) === "StorageUnavailable")

describe("MariaDB goes away and comes back (database sessions)", () => {
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

    // A sign-in: 503 (JSON for a script, the "try again" page for a browser's form), never error=Configuration.
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

    // A sign-out: 503, and the cookie stays (the session row would outlive a cookie cleared now).
    const signOut = await send(c, "/auth/signout", { jar, form: { csrfToken: signOutToken } })
    expectUnavailable(signOut, await signOut.text())
    expect(jar.get(sessionCookie)).toBe(token)

    expect(outageErrors()).toHaveLength(1)
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
    expect(log.warnings).toEqual([])

    await proxy.restore()

    // The very next read answers the session: nothing of the dead connections is left in the pool.
    const back = await readSession(c, jar)
    expect(back.response.status).toBe(200)
    expect(JSON.parse(back.body)).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(log.warnings).toEqual(["storage-available-again"])
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])

    // And the sign-out refused during the outage now works.
    const out = await send(c, "/auth/signout", { jar, form: { csrfToken: await csrfToken(c, jar) } })
    expect(out.status).toBe(302)
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(JSON.parse((await readSession(c, jar)).body)).toBeNull()
    expect(log.errors).toHaveLength(1)
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
      expect(log.warnings.filter((w) => w === "storage-available-again")).toHaveLength(outage)
    }
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable", "StorageUnavailable"])
  })

  it("a connection that dies with the server while idle is replaced: the read right after a restore with no request in between works", async () => {
    const c = config()
    const jar = new CookieJar()
    await signInAlice(c, jar)
    // Fill the pool with idle connections, then cut and restore with nothing asked meanwhile.
    await Promise.all(Array.from({ length: 5 }, () => readSession(c, jar)))
    const idle = () => (pool.pool as unknown as { _freeConnections: { toArray(): object[] } })._freeConnections.toArray()
    const before = idle()
    expect(before.length).toBeGreaterThan(0)
    await proxy.cut()
    await proxy.restore()
    const { response, body } = await readSession(c, jar)
    expect(response.status).toBe(200)
    expect(JSON.parse(body)).toMatchObject({ user: { name: "Alice" } })
    // The pool learned of the dead connections from their sockets, not from a failed request.
    expect(idle().filter((connection) => before.includes(connection))).toEqual([])
    expect(log.errors).toEqual([])
  })
})

describe("JWT sessions during the outage", () => {
  it("reading the session needs no database: it answers 200 with the user while the proxy is cut", async () => {
    const c = config({ session: { strategy: "jwt" } })
    const jar = new CookieJar()
    expect((await signInAlice(c, jar)).headers.get("location")).toBe(home)
    await proxy.cut()
    try {
      for (let i = 0; i < 3; i++) {
        const { response, body } = await readSession(c, jar)
        expect(response.status).toBe(200)
        expect(JSON.parse(body)).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
      }
      // A sign-in still needs the database (the second-factor gate, on with the adapter's store,
      // looks the user up): 503.
      const visitor = new CookieJar()
      const attempt = await send(c, "/auth/callback/credentials", { jar: visitor, form: { csrfToken: await csrfToken(c, visitor), username: "alice", password: "correct horse" } })
      expectUnavailable(attempt, await attempt.text())
    } finally {
      await proxy.restore()
    }
    expect((await readSession(c, jar)).response.status).toBe(200)
    // The session read touched no storage: the outage ends with the next call that does.
    expect(log.warnings).toEqual([])
    expect((await signInAlice(c, new CookieJar())).headers.get("location")).toBe(home)
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
    expect(log.warnings).toEqual(["storage-available-again"])
  })
})
