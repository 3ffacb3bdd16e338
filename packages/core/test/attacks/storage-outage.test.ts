/**
 * An outage is not a way in. While the storage cannot be reached, a password guess is refused
 * however the throttle's counters fail (never let through unthrottled), a planted cookie is not
 * taken for a session, and a sign-out that could not end the session leaves it to be ended later
 * rather than clearing only the cookie. Each beside the legitimate flow.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import type { CounterStore } from "@sesame/core/password"
import { argon2id } from "@sesame/core/password"
import Credentials from "@sesame/core/providers/credentials"
import Password from "@sesame/core/providers/password"
import { outage } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { storePassword } from "../../src/password/storage.js"
import { aliceCredentials, CookieJar, csrfToken, recordingLogger, secret, send, signInAlice } from "../helpers.js"

const hasher = argon2id({ memoryCost: 64, timeCost: 1 })
const sessionCookie = "sesame.session-token"

/** Counters in memory that fail, while `down`, as an ioredis client whose server restarts. */
function countersOnRedis() {
  const counts = new Map<string, { count: number; expires: Date }>()
  const state = { down: false, calls: 0 }
  const guard = () => {
    state.calls++
    if (state.down) throw new Error("Connection is closed.")
  }
  const store: CounterStore = {
    incrementCounter(key, expires) {
      guard()
      const count = (counts.get(key)?.count ?? 0) + 1
      counts.set(key, { count, expires })
      return { key, count, expires }
    },
    getCounter(key) {
      guard()
      const found = counts.get(key)
      return found ? { key, ...found } : null
    },
    deleteCounter(key) {
      guard()
      counts.delete(key)
    },
  }
  return { store, state, counts }
}

async function passwordSetup() {
  const adapter = MemoryAdapter()
  const counters = countersOnRedis()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: () => {}, hasher, throttle: { store: counters.store } })],
    logger: recordingLogger().logger,
  }
  const user = await adapter.createUser!({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: new Date(), name: "Ada", image: null })
  await storePassword(adapter, { userId: user.id, hash: await hasher.hash("correct horse battery"), updatedAt: new Date() })
  return { config, counters }
}

async function guess(config: AuthConfig, password: string) {
  const jar = new CookieJar()
  const response = await send(config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(config, jar), email: "ada@example.com", password } })
  return { response, jar }
}

describe("a password guess while the throttle's counters cannot be reached", () => {
  it("legitimate: with the counters there, the right password signs in and a wrong one is counted", async () => {
    const { config, counters } = await passwordSetup()
    expect((await guess(config, "wrong guess")).response.headers.get("location")).toContain("error=CredentialsSignin")
    expect([...counters.counts.values()].some((c) => c.count === 1)).toBe(true)
    const { jar } = await guess(config, "correct horse battery")
    expect(jar.get(sessionCookie)).toBeDefined()
  })

  it("is refused with 503, the right password included: nothing is checked that cannot be counted", async () => {
    const { config, counters } = await passwordSetup()
    counters.state.down = true
    for (const password of ["wrong guess", "correct horse battery"]) {
      const { response, jar } = await guess(config, password)
      expect(response.status).toBe(503)
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(jar.get(sessionCookie)).toBeUndefined()
    }
    // Nothing was counted meanwhile, and once the counters are back the throttle counts again.
    expect(counters.counts.size).toBe(0)
    counters.state.down = false
    await guess(config, "wrong guess")
    expect([...counters.counts.values()].some((c) => c.count === 1)).toBe(true)
  })

  it("the same for a credentials provider's throttle", async () => {
    const counters = countersOnRedis()
    let checked = 0
    const config: AuthConfig = {
      secret,
      trustHost: true,
      providers: [
        Credentials({
          credentials: { email: {}, password: { type: "password" } },
          throttle: { store: counters.store },
          authorize: (fields) => (checked++, fields.password === "right" ? { id: "1", email: String(fields.email) } : null),
        }),
      ],
      logger: recordingLogger().logger,
    }
    const attempt = async (password: string) => {
      const jar = new CookieJar()
      const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "a@example.com", password } })
      return { response, jar }
    }
    expect((await attempt("right")).jar.get(sessionCookie)).toBeDefined()
    counters.state.down = true
    checked = 0
    const { response, jar } = await attempt("right")
    expect(response.status).toBe(503)
    expect(jar.get(sessionCookie)).toBeUndefined()
    // `authorize` (the app's password check) never ran.
    expect(checked).toBe(0)
  })
})

describe("sessions during an outage", () => {
  function setup() {
    const storage = outage(MemoryAdapter())
    const config: AuthConfig = { secret, trustHost: true, adapter: storage.adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    return { storage, config }
  }

  it("a planted session cookie is not taken for a session, then or afterwards", async () => {
    const { storage, config } = setup()
    const planted = new CookieJar()
    planted.cookies.set(sessionCookie, "A".repeat(43))
    storage.down()
    const during = await send(config, "/auth/session", { jar: planted })
    expect(during.status).toBe(503)
    expect(await during.text()).not.toContain("Alice")
    storage.up()
    const after = await send(config, "/auth/session", { jar: planted })
    expect(await after.json()).toBeNull()
    expect(planted.get(sessionCookie)).toBeUndefined()
  })

  it("a sign-out that cannot end the session keeps the cookie; the session ends when it can, and its token is then refused", async () => {
    const { storage, config } = setup()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = jar.get(sessionCookie)!
    const csrf = await csrfToken(config, jar)
    storage.down()
    const refused = await send(config, "/auth/signout", { jar, form: { csrfToken: csrf } })
    expect(refused.status).toBe(503)
    expect(jar.get(sessionCookie)).toBe(token)
    storage.up()
    // Legitimate: the same sign-out, once the storage is back, ends the session for good.
    const done = await send(config, "/auth/signout", { jar, form: { csrfToken: csrf } })
    expect(done.status).toBe(302)
    expect(jar.get(sessionCookie)).toBeUndefined()
    const replay = new CookieJar()
    replay.cookies.set(sessionCookie, token)
    expect(await (await send(config, "/auth/session", { jar: replay })).json()).toBeNull()
  })

  it("a sign-in during an outage leaves no half-made session behind", async () => {
    const { storage, config } = setup()
    const jar = new CookieJar()
    storage.down()
    expect((await signInAlice(config, jar)).status).toBe(503)
    expect(jar.get(sessionCookie)).toBeUndefined()
    storage.up()
    expect(await (await send(config, "/auth/session", { jar })).json()).toBeNull()
    expect((await signInAlice(config, jar)).status).toBe(302)
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
  })
})
