/**
 * Issue 40 on a real Redis: a Redis restart is a short "try again", never a sign-out, and never a
 * way past the password throttle. The outage suite (../../adapter-pg/test/outage-suite.ts) runs
 * `Auth()` with this adapter on an ioredis client connected through the TCP proxy it cuts and
 * restores.
 *
 * The client has the options the README recommends ({@link outageOptions}): without them a
 * command waits through twenty reconnection attempts (over a minute with ioredis 6) before it
 * fails, and the first request after Redis is back waits for the next attempt (up to five seconds).
 *
 * Here besides: a password guess during the outage answers 503, and the throttle's counts (kept
 * in the Redis store) are where the outage left them; a Redis that stops answering without closing
 * the connection (a network partition) is a 503 too, bounded by `commandTimeout`.
 */
import type { AuthConfig } from "@sesame/core"
import { builtInModels } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import RedisAdapter from "@sesame/adapter-redis"
import { Redis, type RedisOptions } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, csrfToken, origin, send } from "../../core/test/helpers.js"
import { freezingProxy, runOutageTests, sessionCookie, type OutageHarness } from "../../adapter-pg/test/outage-suite.js"
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
const password = "correct horse battery"
const fastHasher = argon2id({ memoryCost: 64, timeCost: 1 })

let admin: Redis
let client: Redis

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

async function post(c: AuthConfig, path: string, form: Record<string, string>, jar: CookieJar) {
  const response = await send(c, path, { jar, form: { csrfToken: await csrfToken(c, jar), ...form } })
  return { response, body: await response.text() }
}

/** The throttle's counter of `email`'s attempts, read straight from Redis (not through the proxy). */
async function attemptsOf(email: string): Promise<number | null> {
  const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email))).toString("hex")
  const row = await RedisAdapter(admin, { prefix }).store!.findOne(builtInModels.counters, { key: `sesame:password:account:${digest}` })
  return row ? (row.count as number) : null
}

const wrongAnswer = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`

const outage = runOutageTests({
  server: "Redis",
  target: redisAddress,
  adapter: () => RedisAdapter(client, { prefix }),
  accounts: {
    // A password throttle that lets two failures through.
    providers: () => [Password({ sendEmail: () => {}, hasher: fastHasher, requireEmailVerification: false, throttle: { freeAttempts: 2 } })],
    // A new account (no confirmation asked) for each sign-in.
    async signIn(c, jar) {
      const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`
      const { response } = await post(c, "/auth/signup/password", { email, password, name: "Ada" }, jar)
      return { response, user: { name: "Ada", email } }
    },
    signInForm: ({ email }) => ({ path: "/auth/callback/password", form: { email, password } }),
  },
  // Three attempts of the read, each failing at the client's next reconnection attempt (≤ 200 ms).
  readWithin: 1500,
  // The very next read waits for the client's reconnection (the offline queue): it is not refused for it.
  backWithin: 1000,
  cases: passwordThrottleCase,
})

beforeAll(async () => {
  admin = await connectRedis()
  client = new Redis({ host: "127.0.0.1", port: outage.proxy.port, ...outageOptions })
  await connected(client)
})
afterAll(async () => {
  client?.disconnect()
  if (admin) {
    await dropPrefix(admin, prefix)
    await admin.quit()
  }
})

/** Redis keeps the password throttle's counts: an outage neither lets guesses through nor loses them. */
function passwordThrottleCase({ cut, restore, log, typeOf, outageErrors, backAgain, config, signIn, expectUnavailable }: OutageHarness) {
  it("a password guess during the outage is refused (503), not let through; after the restore the throttle counts on from where it was", async () => {
    const c = config()
    const { user: { email } } = await signIn(c)
    // One failure before the outage: counted in Redis.
    const before = await post(c, "/auth/callback/password", { email, password: "guess 1" }, new CookieJar())
    expect(before.response.headers.get("location")).toBe(wrongAnswer)
    expect(await attemptsOf(email)).toBe(1)

    await cut()
    // Guesses while the counters cannot be read or counted: none is checked, none signs in,
    // the right password included (a throttle failing open would let a guesser try freely now).
    for (const guess of ["guess 2", "guess 3", password]) {
      const jar = new CookieJar()
      const { response, body } = await post(c, "/auth/callback/password", { email, password: guess }, jar)
      expectUnavailable(response, body)
      expect(jar.get(sessionCookie)).toBeUndefined()
    }
    await restore()

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
}

describe("Redis stops answering without closing the connection", () => {
  it("answers 503 within the commandTimeout of each attempt, and the session again once it answers", async () => {
    const frozen = await freezingProxy(redisAddress)
    // The recommended options, with a shorter `commandTimeout` to keep the test short.
    const commandTimeout = 300
    const stuck = new Redis({ host: "127.0.0.1", port: frozen.port, ...outageOptions, commandTimeout })
    try {
      await connected(stuck)
      const c = outage.config({ adapter: RedisAdapter(stuck, { prefix }) })
      const ms = await outage.expectPartitionHeals(c, await outage.signIn(c), frozen)
      // Sesame tries a read three times, each ending at the timeout, with 50 and 150 ms between.
      expect(ms).toBeGreaterThanOrEqual(3 * commandTimeout)
      expect(ms).toBeLessThan(3 * commandTimeout + 1000)
    } finally {
      stuck.disconnect()
      await frozen.close()
    }
  })
})
