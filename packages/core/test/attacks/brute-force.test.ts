/**
 * Attack: guessing a password through a credentials provider (one account hammered, a burst of
 * parallel guesses, a password sprayed over many accounts from one address), with `throttle` on.
 * Each attack is refused with the very answer a wrong password gets, without `authorize` being
 * called, plus `Retry-After`; the owner who waits, and other accounts, still sign in.
 */
import type { AuthConfig, SignInFailureMessage } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { describe, expect, it, vi } from "vitest"
import { memoryCounterStore } from "../../src/password/counters.js"
import { CookieJar, csrfToken, frozenClock, secret, send } from "../helpers.js"
import { counterModel } from "../../src/password/counters.js"

const advance = frozenClock("2026-11-24T10:00:00Z")

const passwords: Record<string, string> = { "ada@example.com": "analytical engine", "grace@example.com": "compiler" }

type Throttle = Parameters<typeof Credentials>[0]["throttle"]

/**
 * Alice's and Grace's credentials provider with `throttle` (each test gets its own in-memory store
 * unless `throttle.store` or the adapter says otherwise; `"default"` leaves the option out).
 */
function setup(option: Throttle | "default" = true, overrides: Partial<AuthConfig> = {}) {
  const throttle = option === "default" ? undefined : option === true ? { store: memoryCounterStore() } : option && !overrides.adapter ? { store: memoryCounterStore(), ...option } : option
  const authorize = vi.fn(async ({ email, password }: Partial<Record<"email" | "password", unknown>>) => {
    return typeof email === "string" && passwords[email] === password ? { id: email, email } : null
  })
  const failures: SignInFailureMessage[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [Credentials({ credentials: { email: { type: "email" }, password: { type: "password" } }, authorize, ...(throttle === undefined ? {} : { throttle }) })],
    events: { signInFailure: (m) => void failures.push(m) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  }
  return { config, authorize, failures }
}

async function attempt(config: AuthConfig, email: string, password: string, headers: Record<string, string> = {}) {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const response = await send(config, "/auth/callback/credentials", { jar, headers, form: { csrfToken: token, email, password } })
  return { response, location: response.headers.get("location"), retryAfter: response.headers.get("retry-after"), signedIn: !!jar.get("sesame.session-token") }
}

const wrongAnswer = "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials"

describe("guessing one account's password", () => {
  it("five free guesses, then each guess waits longer; a refused guess looks like a wrong password and never reaches authorize", async () => {
    const { config, authorize, failures } = setup()
    for (let i = 0; i < 5; i++) {
      const guess = await attempt(config, "ada@example.com", `guess ${i}`)
      expect(guess.location).toBe(wrongAnswer)
      expect(guess.retryAfter).toBeNull()
    }
    // The sixth guess comes right after the fifth failure: refused before authorize, 1 s to wait.
    const refused = await attempt(config, "ada@example.com", "guess 5")
    expect(refused.response.status).toBe(302)
    expect(refused.location).toBe(wrongAnswer)
    expect(refused.retryAfter).toBe("1")
    expect(authorize).toHaveBeenCalledTimes(5)
    // Even the right password is refused while the account waits: the throttle does not check it.
    expect((await attempt(config, "ada@example.com", "analytical engine")).signedIn).toBe(false)
    expect(authorize).toHaveBeenCalledTimes(5)
    expect(failures.map((f) => f.reason)).toEqual([...Array(5).fill("credentials"), "throttled", "throttled"])
    expect(failures[5]).toEqual({ provider: "credentials", identifier: "ada@example.com", reason: "throttled", retryAfter: 1 })
    expect(JSON.stringify(failures)).not.toContain("guess")

    advance(1000)
    const later = await attempt(config, "ada@example.com", "guess 6")
    expect(later.location).toBe(wrongAnswer)
    expect(later.retryAfter).toBeNull()
    expect((await attempt(config, "ada@example.com", "guess 7")).retryAfter).toBe("2")
  })

  it("locks the account after twenty failures, for fifteen minutes; the owner then signs in and the count starts again", async () => {
    const { config, authorize } = setup()
    for (let i = 0; i < 20; i++) {
      await attempt(config, "ada@example.com", `guess ${i}`)
      advance(60_000)
    }
    expect(authorize).toHaveBeenCalledTimes(20)
    const locked = await attempt(config, "ada@example.com", "analytical engine")
    expect(locked.signedIn).toBe(false)
    expect(Number(locked.retryAfter)).toBe(15 * 60 - 60)
    advance(15 * 60 * 1000)
    expect((await attempt(config, "ada@example.com", "analytical engine")).signedIn).toBe(true)
    // A success forgets the account's failures.
    for (let i = 0; i < 5; i++) expect((await attempt(config, "ada@example.com", `again ${i}`)).retryAfter).toBeNull()
  })

  it("a burst of parallel guesses is not let through together", async () => {
    const { config, authorize } = setup()
    const jars = await Promise.all(Array.from({ length: 30 }, async () => {
      const jar = new CookieJar()
      return { jar, token: await csrfToken(config, jar) }
    }))
    const responses = await Promise.all(
      jars.map(({ jar, token }, i) => send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, email: "ada@example.com", password: `burst ${i}` } })),
    )
    expect(responses.every((r) => r.headers.get("location") === wrongAnswer)).toBe(true)
    expect(authorize.mock.calls.length).toBeLessThanOrEqual(6)
  })

  it("the address's case does not buy a fresh allowance", async () => {
    const { config } = setup()
    for (let i = 0; i < 5; i++) await attempt(config, "ada@example.com", `guess ${i}`)
    expect((await attempt(config, "ADA@Example.com", "guess")).retryAfter).toBe("1")
  })

  it("other accounts are not slowed by one account's lock", async () => {
    const { config } = setup()
    for (let i = 0; i < 8; i++) await attempt(config, "ada@example.com", `guess ${i}`)
    expect((await attempt(config, "grace@example.com", "compiler")).signedIn).toBe(true)
  })
})

describe("spraying one password over many accounts from one address", () => {
  it("the client address is throttled too when the proxy that names it is trusted", async () => {
    const { config, authorize } = setup({ ip: { freeAttempts: 3, lockoutAfter: 10 } })
    const from = { "x-forwarded-for": "203.0.113.7" }
    for (let i = 0; i < 3; i++) expect((await attempt(config, `user${i}@example.com`, "Summer2026!", from)).retryAfter).toBeNull()
    const refused = await attempt(config, "user3@example.com", "Summer2026!", from)
    expect(refused.location).toBe(wrongAnswer)
    expect(refused.retryAfter).toBe("1")
    expect(authorize).toHaveBeenCalledTimes(3)
    // Another client is not affected, nor is a right password from another address.
    expect((await attempt(config, "grace@example.com", "compiler", { "x-forwarded-for": "198.51.100.2" })).signedIn).toBe(true)
  })

  it("without a trusted proxy, a forged X-Forwarded-For neither counts nor escapes: there is no per-IP limit", async () => {
    const { config, authorize } = setup(true, { trustHost: undefined })
    for (let i = 0; i < 12; i++) await attempt(config, `user${i}@example.com`, "Summer2026!", { "x-forwarded-for": "203.0.113.7" })
    expect(authorize).toHaveBeenCalledTimes(12)
  })
})

describe("several instances", () => {
  it("share the counts through the adapter's counters", async () => {
    const adapter = MemoryAdapter()
    const one = setup({}, { adapter, session: { strategy: "jwt" } })
    const two = setup({}, { adapter, session: { strategy: "jwt" } })
    for (let i = 0; i < 5; i++) await attempt(i % 2 ? one.config : two.config, "ada@example.com", `guess ${i}`)
    expect((await attempt(one.config, "ada@example.com", "guess")).retryAfter).toBe("1")
    expect((await attempt(two.config, "ada@example.com", "guess")).retryAfter).toBe("1")
    expect((await adapter.store.findMany(counterModel)).every(({ key }) => !String(key).includes("ada"))).toBe(true)
  })
})

describe("the legitimate flow and the configuration", () => {
  it("is on by default when the form has an email field: the sixth guess waits, in this process's memory without an adapter", async () => {
    const { config, authorize } = setup("default")
    // Its own account: the default store is the process's, shared by every test of this file.
    for (let i = 0; i < 5; i++) expect((await attempt(config, "grace@example.com", `guess ${i}`)).retryAfter).toBeNull()
    expect((await attempt(config, "grace@example.com", "guess 5")).retryAfter).toBe("1")
    expect(authorize).toHaveBeenCalledTimes(5)
  })

  it("is off with `throttle: false`: authorize sees every attempt", async () => {
    const { config, authorize } = setup(false)
    for (let i = 0; i < 12; i++) expect((await attempt(config, "ada@example.com", `guess ${i}`)).retryAfter).toBeNull()
    expect(authorize).toHaveBeenCalledTimes(12)
    expect((await attempt(config, "ada@example.com", "analytical engine")).signedIn).toBe(true)
  })

  it("is off by default for a form without an email or username field, which names no account", async () => {
    const authorize = vi.fn(() => null)
    const config: AuthConfig = { secret, trustHost: true, providers: [Credentials({ credentials: { login: {}, password: {} }, authorize })], logger: { error: () => {}, warn: () => {}, debug: () => {} } }
    for (let i = 0; i < 8; i++) {
      const jar = new CookieJar()
      const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), login: "ada", password: `guess ${i}` } })
      expect(response.headers.get("retry-after")).toBeNull()
    }
    expect(authorize).toHaveBeenCalledTimes(8)
  })

  it("a form without an email or username field must name the throttle's field", async () => {
    const config: AuthConfig = {
      secret,
      trustHost: true,
      providers: [Credentials({ credentials: { login: {}, password: {} }, authorize: () => null, throttle: true })],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
    expect((await send(config, "/auth/providers")).status).toBe(500)
    const named = { ...config, providers: [Credentials({ credentials: { login: {}, password: {} }, authorize: () => null, throttle: { field: "login" } })] }
    expect((await send(named, "/auth/providers")).status).toBe(200)
    const bad = { ...config, providers: [Credentials({ credentials: { email: {} }, authorize: () => null, throttle: { freeAttempts: -1 } })] }
    expect((await send(bad, "/auth/providers")).status).toBe(500)
  })
})
