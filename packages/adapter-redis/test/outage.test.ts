/**
 * Issue 40 on a real Redis: a Redis restart is a short "try again", never a sign-out, and never a
 * way past the password throttle. `Auth()` runs with this adapter on an ioredis client connected
 * through a TCP proxy that the test cuts (every connection destroyed, new ones refused, as while
 * the server restarts) and restores; the shared server itself is never touched.
 *
 * The client has the options the README recommends ({@link outageOptions}): without them a
 * command waits through twenty reconnection attempts (over a minute with ioredis 6) before it
 * fails, and the first request after Redis is back waits for the next attempt (up to five seconds).
 *
 * While cut: the session read answers 503 with `Retry-After` and leaves the cookie alone, a
 * sign-in, a password guess and a sign-out answer 503, and the log has one `StorageUnavailable`
 * for the whole outage. Once restored: the very next session read answers the session, the log
 * says `storage-available-again` once, and the throttle's counts (kept in the Redis store) are
 * where the outage left them. A Redis that stops answering without closing the connection (a
 * network partition) is a 503 too, bounded by `commandTimeout`.
 */
import { createServer, connect, type Server, type Socket } from "node:net"
import type { AuthConfig } from "@sesame/core"
import { builtInModels } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import RedisAdapter from "@sesame/adapter-redis"
import { tcpProxy, type TcpProxy } from "@sesame/testing"
import { Redis, type RedisOptions } from "ioredis"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CookieJar, csrfToken, home, origin, secret, send } from "../../core/test/helpers.js"
import { connectRedis, dropPrefix, redisAddress, testPrefix } from "./services.js"

/**
 * What the README recommends for an app's client, so that an outage fails within a bounded time
 * and the first request after it works:
 * - `maxRetriesPerRequest: 0`: a command fails (`MaxRetriesPerRequestError`) at the first
 *   reconnection attempt that fails, instead of after twenty; one that was sent when the
 *   connection broke is not sent again after it (it may have run: a counter counted twice).
 * - the offline queue left on (the default): a command made while the client reconnects waits
 *   for that attempt, so the first request after Redis is back is served, not refused.
 * - `retryStrategy` capped at 200 ms: how long such a command may wait; ioredis 6's default
 *   backs off up to 5 s.
 * - `connectTimeout` and `commandTimeout`: a server that takes the connection but never answers
 *   (a partition, a stuck server) fails the command after a second, instead of never.
 */
const outageOptions = {
  maxRetriesPerRequest: 0,
  retryStrategy: (times: number) => Math.min(times * 50, 200),
  connectTimeout: 2000,
  commandTimeout: 1000,
} satisfies RedisOptions

const prefix = testPrefix()
const sessionCookie = "sesame.session-token"
const password = "correct horse battery"
const fastHasher = argon2id({ memoryCost: 64, timeCost: 1 })

let admin: Redis
let proxy: TcpProxy
let client: Redis

/** What the configuration's logger received: errors and warning codes (debug is dropped). */
const log = { errors: [] as Error[], warnings: [] as string[] }
const logger = { error: (e: Error) => void log.errors.push(e), warn: (code: string) => void log.warnings.push(code), debug: () => {} }
const typeOf = (e: Error) => (e as { type?: string }).type ?? e.name
const outageErrors = () => log.errors.filter((e) => typeOf(e) === "StorageUnavailable")
const backAgain = () => log.warnings.filter((w) => w === "storage-available-again")

/** Resolves once `redis` is connected, leaving no listener of its own behind (the adapter adds its own when the app has none). */
function connected(redis: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      redis.off("ready", done).off("error", done)
      if (error) reject(error)
      else resolve()
    }
    redis.on("ready", done).on("error", done)
  })
}

beforeAll(async () => {
  admin = await connectRedis()
  proxy = await tcpProxy(redisAddress)
  client = new Redis({ host: "127.0.0.1", port: proxy.port, ...outageOptions })
  await connected(client)
})
afterAll(async () => {
  client?.disconnect()
  await proxy?.close()
  if (admin) {
    await dropPrefix(admin, prefix)
    await admin.quit()
  }
})
beforeEach(() => {
  log.errors.length = 0
  log.warnings.length = 0
})
// A test that fails while the proxy is cut leaves it to the next one restored.
afterEach(() => proxy.restore())

/** A configuration of its own (one adapter, so one outage log), with a password throttle that lets two failures through. */
function config(): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter: RedisAdapter(client, { prefix }),
    providers: [Password({ sendEmail: () => {}, hasher: fastHasher, requireEmailVerification: false, throttle: { freeAttempts: 2 } })],
    logger,
  }
}

/** The throttle's counter of `email`'s attempts, read straight from Redis (not through the proxy). */
async function attemptsOf(email: string): Promise<number | null> {
  const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email))).toString("hex")
  const row = await RedisAdapter(admin, { prefix }).store!.findOne(builtInModels.counters, { key: `sesame:password:account:${digest}` })
  return row ? (row.count as number) : null
}

async function post(c: AuthConfig, path: string, form: Record<string, string>, jar: CookieJar, headers?: Record<string, string>) {
  const response = await send(c, path, { jar, form: { csrfToken: await csrfToken(c, jar), ...form }, headers })
  return { response, body: await response.text() }
}

/** Signs up `email` (no confirmation asked) in a new browser; returns its jar. */
async function signUp(c: AuthConfig, email: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const { response } = await post(c, "/auth/signup/password", { email, password, name: "Ada" }, jar)
  expect(response.headers.get("location")).toBe(home)
  expect(jar.get(sessionCookie)).toBeTruthy()
  return jar
}

/** The answer to `GET /auth/session` with `jar`, with how long it took. */
async function readSession(c: AuthConfig, jar: CookieJar) {
  const started = performance.now()
  const response = await send(c, "/auth/session", { jar })
  return { response, ms: performance.now() - started, body: await response.text() }
}

/** A 503 for the outage: `Retry-After`, no cookie set or cleared, no redirect, nothing of a stack or the driver in the body. */
function expectUnavailable(response: Response, body: string) {
  expect(response.status).toBe(503)
  expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
  expect(response.headers.getSetCookie()).toEqual([])
  expect(response.headers.get("location")).toBeNull()
  expect(body).not.toMatch(/\n\s+at |node_modules|MaxRetriesPerRequest|Connection is closed|Command timed out|127\.0\.0\.1/)
}

const wrongAnswer = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`

describe("Redis goes away and comes back", () => {
  it("answers 503 while cut, never a sign-out; the next read after the restore answers the session; one log line each way", async () => {
    const c = config()
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`
    const jar = await signUp(c, email)
    const token = jar.get(sessionCookie)!
    expect(JSON.parse((await readSession(c, jar)).body)).toMatchObject({ user: { name: "Ada", email } })
    const signOutToken = await csrfToken(c, jar)

    await proxy.cut()

    const timings: number[] = []
    for (let i = 0; i < 3; i++) {
      const { response, body, ms } = await readSession(c, jar)
      expectUnavailable(response, body)
      expect(JSON.parse(body)).toMatchObject({ error: "StorageUnavailable" })
      timings.push(ms)
    }
    // Three attempts of the read, each failing at the client's next reconnection attempt (≤ 200 ms).
    for (const ms of timings) expect(ms).toBeLessThan(1500)
    expect(jar.get(sessionCookie)).toBe(token)

    // A sign-in: 503 (JSON for a script, the "try again" page for a browser's form), never error=Configuration.
    const visitor = new CookieJar()
    const scripted = await post(c, "/auth/callback/password", { email, password }, visitor)
    expectUnavailable(scripted.response, scripted.body)
    expect(JSON.parse(scripted.body)).toMatchObject({ error: "StorageUnavailable" })
    const browser = await post(c, "/auth/callback/password", { email, password }, visitor, { accept: "text/html" })
    expectUnavailable(browser.response, browser.body)
    expect(browser.response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(browser.body).not.toContain("Configuration")
    expect(visitor.get(sessionCookie)).toBeUndefined()

    // A sign-out: 503, and the cookie stays (the session would outlive a cookie cleared now).
    const signOut = await send(c, "/auth/signout", { jar, form: { csrfToken: signOutToken } })
    expectUnavailable(signOut, await signOut.text())
    expect(jar.get(sessionCookie)).toBe(token)

    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
    expect(backAgain()).toEqual([])

    await proxy.restore()

    // The very next read answers the session: it waits for the client's reconnection (the
    // offline queue), it is not refused for it.
    const back = await readSession(c, jar)
    expect(back.response.status).toBe(200)
    expect(JSON.parse(back.body)).toMatchObject({ user: { name: "Ada", email } })
    expect(back.ms).toBeLessThan(1000)
    expect(backAgain()).toHaveLength(1)
    expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])

    // The sign-out refused during the outage now works.
    const out = await send(c, "/auth/signout", { jar, form: { csrfToken: await csrfToken(c, jar) } })
    expect(out.status).toBe(302)
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(JSON.parse((await readSession(c, jar)).body)).toBeNull()
    expect(log.errors).toHaveLength(1)
  })

  it("a password guess during the outage is refused (503), not let through; after the restore the throttle counts on from where it was", async () => {
    const c = config()
    const email = `bob-${crypto.randomUUID().slice(0, 8)}@example.com`
    await signUp(c, email)
    // One failure before the outage: counted in Redis.
    const before = await post(c, "/auth/callback/password", { email, password: "guess 1" }, new CookieJar())
    expect(before.response.headers.get("location")).toBe(wrongAnswer)
    expect(await attemptsOf(email)).toBe(1)

    await proxy.cut()
    // Guesses while the counters cannot be read or counted: none is checked, none signs in,
    // the right password included (a throttle failing open would let a guesser try freely now).
    for (const guess of ["guess 2", "guess 3", password]) {
      const jar = new CookieJar()
      const { response, body } = await post(c, "/auth/callback/password", { email, password: guess }, jar)
      expectUnavailable(response, body)
      expect(jar.get(sessionCookie)).toBeUndefined()
    }
    await proxy.restore()

    // Nothing of the outage's guesses was counted, nothing was forgotten either.
    expect(await attemptsOf(email)).toBe(1)
    const second = await post(c, "/auth/callback/password", { email, password: "guess 2" }, new CookieJar())
    expect(second.response.headers.get("location")).toBe(wrongAnswer)
    expect(second.response.headers.get("retry-after")).toBeNull()
    expect(await attemptsOf(email)).toBe(2)
    // Two failures are all the throttle lets through: the next attempt, even with the right
    // password, is refused unchecked, with Retry-After.
    const jar = new CookieJar()
    const refused = await post(c, "/auth/callback/password", { email, password }, jar)
    expect(refused.response.headers.get("location")).toBe(wrongAnswer)
    expect(refused.response.headers.get("retry-after")).toBe("1")
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(outageErrors()).toHaveLength(1)
    expect(backAgain()).toHaveLength(1)
    // Besides the outage, the log has the wrong passwords (a visitor's error, logged as such).
    expect(log.errors.map(typeOf).filter((type) => type !== "CredentialsSignin")).toEqual(["StorageUnavailable"])
  })

  it("each outage is one StorageUnavailable and one storage-available-again, however many requests fail", async () => {
    const c = config()
    const jar = await signUp(c, `cy-${crypto.randomUUID().slice(0, 8)}@example.com`)
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

  it("a restart with no request in between costs nothing: the read right after it works", async () => {
    const c = config()
    const jar = await signUp(c, `di-${crypto.randomUUID().slice(0, 8)}@example.com`)
    await proxy.cut()
    await proxy.restore()
    const { response, body } = await readSession(c, jar)
    expect(response.status).toBe(200)
    expect(JSON.parse(body)).toMatchObject({ user: { name: "Ada" } })
    expect(log.errors).toEqual([])
  })
})

/**
 * A TCP proxy that can freeze: while frozen it keeps every connection open but holds back what the
 * server sends, as a network partition looks to the client; thawed, it delivers it, late, as TCP
 * would once the partition heals.
 */
async function freezingProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let frozen = false
  const held: Array<() => void> = []
  const server: Server = createServer((inbound) => {
    const outbound = connect(target.port, target.host)
    sockets.add(inbound).add(outbound)
    const end = () => {
      inbound.destroy()
      outbound.destroy()
      sockets.delete(inbound)
      sockets.delete(outbound)
    }
    inbound.on("error", end).on("close", end)
    outbound.on("error", end).on("close", end)
    inbound.pipe(outbound)
    outbound.on("data", (chunk: Buffer) => {
      if (frozen) held.push(() => inbound.write(chunk))
      else inbound.write(chunk)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => void (frozen = true),
    thaw() {
      frozen = false
      for (const deliver of held.splice(0)) deliver()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe("Redis stops answering without closing the connection", () => {
  it("answers 503 within the commandTimeout of each attempt, and the session again once it answers", async () => {
    const frozen = await freezingProxy(redisAddress)
    // The recommended options, with a shorter `commandTimeout` to keep the test short.
    const commandTimeout = 300
    const stuck = new Redis({ host: "127.0.0.1", port: frozen.port, ...outageOptions, commandTimeout })
    try {
      await connected(stuck)
      const c = { ...config(), adapter: RedisAdapter(stuck, { prefix }) }
      const jar = await signUp(c, `eve-${crypto.randomUUID().slice(0, 8)}@example.com`)
      frozen.freeze()
      const { response, body, ms } = await readSession(c, jar)
      expectUnavailable(response, body)
      expect(JSON.parse(body)).toMatchObject({ error: "StorageUnavailable" })
      // Sesame tries a read three times, each ending at the timeout, with 50 and 150 ms between.
      expect(ms).toBeGreaterThanOrEqual(3 * commandTimeout)
      expect(ms).toBeLessThan(3 * commandTimeout + 1000)
      expect(log.errors.map(typeOf)).toEqual(["StorageUnavailable"])
      frozen.thaw()
      const back = await readSession(c, jar)
      expect(back.response.status).toBe(200)
      expect(JSON.parse(back.body)).toMatchObject({ user: { name: "Ada" } })
      expect(backAgain()).toHaveLength(1)
    } finally {
      stuck.disconnect()
      await frozen.close()
    }
  })
})
