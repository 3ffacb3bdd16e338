/**
 * Brute-force throttling with a frozen clock: free attempts, exponential back-off, lockout,
 * forgetting, per-IP limits, parallel attempts, and keys without addresses in them.
 */
import { describe, expect, it } from "vitest"
import { memoryCounterStore, type CounterStore } from "../../src/password/counters.js"
import { attemptFailed, attemptSucceeded, beginAttempt, passwordThrottle, type PasswordThrottle, type ThrottleSubject } from "../../src/password/throttle.js"
import { frozenClock } from "../helpers.js"

const advance = frozenClock("2030-01-01T00:00:00Z")

function throttleWith(options: Parameters<typeof passwordThrottle>[0] = {}): PasswordThrottle {
  const throttle = passwordThrottle({ store: memoryCounterStore(), ...(options === false ? {} : options) })
  if (!throttle) throw new Error("expected a throttle")
  return throttle
}

/** One sign-in attempt with a wrong password, as the flow makes it. */
async function fail(throttle: PasswordThrottle, subject: ThrottleSubject) {
  const decision = await beginAttempt(throttle, subject)
  if (decision.allowed) await attemptFailed(throttle, subject)
  return decision
}

const ada = { account: "ada@example.com", ip: "203.0.113.7" }

describe("per account", () => {
  it("allows 5 free failures, then waits 1, 2, 4… seconds after each failure, at most 60", async () => {
    const throttle = throttleWith({ ip: false })
    for (let i = 0; i < 5; i++) expect(await fail(throttle, ada)).toEqual({ allowed: true })
    const waits: number[] = []
    for (let failures = 5; failures < 20; failures++) {
      const refused = await beginAttempt(throttle, ada)
      if (refused.allowed) throw new Error(`attempt after ${failures} failures was not delayed`)
      waits.push(refused.retryAfter)
      advance(refused.retryAfter * 1000 - 1)
      // A millisecond early is still too early.
      expect(await beginAttempt(throttle, ada)).toMatchObject({ allowed: false, retryAfter: 1 })
      advance(1)
      expect(await fail(throttle, ada)).toEqual({ allowed: true })
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60, 60, 60, 60, 60, 60])
  })

  it("after 20 failures, locks for 15 minutes after each further failure", async () => {
    const throttle = throttleWith({ ip: false, freeAttempts: 20 })
    for (let i = 0; i < 20; i++) expect(await fail(throttle, ada)).toEqual({ allowed: true })
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 900 })
    advance(600_000)
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 300 })
    advance(300_000)
    expect(await fail(throttle, ada)).toEqual({ allowed: true })
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 900 })
  })

  it("answers a refused attempt without counting it, so waiting it out is enough", async () => {
    const throttle = throttleWith({ ip: false, freeAttempts: 1 })
    await fail(throttle, ada)
    for (let i = 0; i < 10; i++) expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 1 })
    advance(1000)
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: true })
  })

  it("forgets failures a day after the last one, and at once on a successful sign-in", async () => {
    const throttle = throttleWith({ ip: false })
    for (let i = 0; i < 8; i++) {
      await fail(throttle, ada)
      advance(200_000)
    }
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: true })
    await attemptFailed(throttle, ada)
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 16 })
    advance(24 * 60 * 60 * 1000)
    for (let i = 0; i < 5; i++) expect(await fail(throttle, ada)).toEqual({ allowed: true })
    expect(await beginAttempt(throttle, ada)).toMatchObject({ allowed: false })
    advance(1000)
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: true })
    await attemptSucceeded(throttle, ada)
    for (let i = 0; i < 5; i++) expect(await fail(throttle, ada)).toEqual({ allowed: true })
  })

  it("counts an address however it is capitalised, and each address apart", async () => {
    const throttle = throttleWith({ ip: false, freeAttempts: 2 })
    await fail(throttle, { account: "ada@example.com" })
    await fail(throttle, { account: " ADA@Example.com" })
    expect(await beginAttempt(throttle, { account: "Ada@example.com" })).toMatchObject({ allowed: false })
    expect(await beginAttempt(throttle, { account: "grace@example.com" })).toEqual({ allowed: true })
  })

  it("lets parallel attempts within the free ones through, but only one of a burst fired when a back-off ends", async () => {
    const throttle = throttleWith({ ip: false })
    const first = await Promise.all(Array.from({ length: 5 }, () => fail(throttle, ada)))
    expect(first).toEqual(Array(5).fill({ allowed: true }))
    advance(1000)
    const burst = await Promise.all(Array.from({ length: 50 }, () => beginAttempt(throttle, ada)))
    expect(burst.filter((decision) => decision.allowed)).toHaveLength(1)
    // The others were counted as attempts: the burst brought the lockout on.
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 900 })
  })
})

describe("per client IP", () => {
  it("has 10 times an account's room by default, counts failures across accounts, and is not cleared by a success", async () => {
    const throttle = throttleWith()
    expect(throttle.ip).toEqual({ freeAttempts: 50, maxDelay: 60, lockoutAfter: 200, lockout: 900, forgetAfter: 86_400 })
    for (let i = 0; i < 50; i++) expect(await fail(throttle, { account: `user${i}@example.com`, ip: ada.ip })).toEqual({ allowed: true })
    expect(await beginAttempt(throttle, { account: "someone@example.com", ip: ada.ip })).toEqual({ allowed: false, retryAfter: 1 })
    // Another IP, and an attempt whose IP is unknown, are not held back.
    expect(await beginAttempt(throttle, { account: "someone@example.com", ip: "198.51.100.1" })).toEqual({ allowed: true })
    expect(await beginAttempt(throttle, { account: "someone-else@example.com" })).toEqual({ allowed: true })
    advance(1000)
    expect(await beginAttempt(throttle, { account: "mine@example.com", ip: ada.ip })).toEqual({ allowed: true })
    await attemptSucceeded(throttle, { account: "mine@example.com", ip: ada.ip })
    await fail(throttle, { account: "user0@example.com", ip: ada.ip })
    expect(await beginAttempt(throttle, { account: "mine@example.com", ip: ada.ip })).toEqual({ allowed: false, retryAfter: 2 })
  })

  it("answers with the longer of the two waits", async () => {
    const throttle = throttleWith({ freeAttempts: 0, ip: { freeAttempts: 0, maxDelay: 60 } })
    await fail(throttle, ada)
    await fail(throttle, { account: "grace@example.com", ip: ada.ip })
    // The account waits 1 s after its one failure; the IP 2 s after its second.
    expect(await beginAttempt(throttle, ada)).toEqual({ allowed: false, retryAfter: 2 })
  })
})

describe("the store", () => {
  it("holds a count and an expiry per key, and no address in clear", async () => {
    const keys: string[] = []
    const inner = memoryCounterStore()
    const store: CounterStore = {
      incrementCounter: (key, expires) => (keys.push(key), inner.incrementCounter(key, expires)),
      getCounter: (key) => inner.getCounter(key),
      deleteCounter: (key) => inner.deleteCounter(key),
    }
    const throttle = throttleWith({ store })
    await fail(throttle, ada)
    expect(keys).toEqual([expect.stringMatching(/^sesame:password:account:[0-9a-f]{64}$/), `sesame:password:ip:${ada.ip}`])
    expect(keys.join(" ")).not.toContain("ada")
    expect(await inner.getCounter(keys[0]!)).toEqual({ key: keys[0], count: 1, expires: new Date(Date.now() + 86_400_000) })
  })
})

describe("passwordThrottle()", () => {
  it("is off with false, and has the defaults of config/defaults.ts", () => {
    expect(passwordThrottle(false)).toBe(false)
    const throttle = passwordThrottle()
    expect(throttle && throttle.account).toEqual({ freeAttempts: 5, maxDelay: 60, lockoutAfter: 20, lockout: 900, forgetAfter: 86_400 })
    expect(throttleWith({ ip: false }).ip).toBe(false)
  })

  it("refuses values that are not whole numbers, or a memory shorter than the waits, naming the option", () => {
    expect(() => passwordThrottle({ freeAttempts: -1 })).toThrow(new TypeError('password throttle: "freeAttempts" must be a whole number of at least 0, got -1'))
    expect(() => passwordThrottle({ ip: { lockout: 1.5 } })).toThrow(/"ip\.lockout"/)
    expect(() => passwordThrottle({ lockout: 3600, forgetAfter: 600 })).toThrow(/"forgetAfter" must be positive and at least "lockout"/)
  })
})
