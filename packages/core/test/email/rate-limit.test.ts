/**
 * The rate limit on link requests: per address and per client IP, in a window, answered exactly
 * like a request that sent a link.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import Email, { memoryRateLimitStore, type RateLimitStore, type SendVerificationRequestParams } from "@sesame/core/providers/email"
import { CookieJar, emailConfig, recordingEmail, requestLink } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
})

/** A unique address, so counts in the process-wide default store never meet another test's. */
function address(name: string): string {
  return `${name}-${crypto.randomUUID()}@example.com`
}

/** Everything about a response a visitor could compare. */
async function observable(res: Response) {
  return { status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie(), body: await res.text() }
}

function ask(config: AuthConfig, email: string, ip?: string) {
  return requestLink(config, new CookieJar(), email, { headers: ip ? { "x-forwarded-for": ip } : {} })
}

describe("the per-address limit", () => {
  it("by default, the sixth request in ten minutes sends nothing and gets the very same answer; the window then expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const sent: SendVerificationRequestParams[] = []
    // No rateLimit option: the defaults and the process-wide in-memory store.
    const provider = Email({ sendVerificationRequest: (params) => void sent.push(params) })
    const { config, adapter } = emailConfig([provider])
    const email = address("ada")
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await observable(await ask(config, email)))
    expect(sent).toHaveLength(5)
    const limited = await observable(await ask(config, email))
    expect(sent).toHaveLength(5)
    expect(adapter.tables.verificationTokens.size).toBe(5)
    expect(limited).toEqual(answers[0])
    expect(limited.location).toBe("http://localhost:3000/auth/verify-request?provider=email&type=email")

    vi.setSystemTime(new Date("2030-01-01T00:09:59Z"))
    await ask(config, email)
    expect(sent).toHaveLength(5)
    vi.setSystemTime(new Date("2030-01-01T00:10:01Z"))
    await ask(config, email)
    expect(sent).toHaveLength(6)
  })

  it("counts each address on its own", async () => {
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: 2, store: memoryRateLimitStore() } })
    const { config } = emailConfig([provider])
    const [ada, bob] = [address("ada"), address("bob")]
    for (let i = 0; i < 3; i++) await ask(config, ada)
    expect(sent.map((s) => s.identifier)).toEqual([ada, ada])
    await ask(config, bob)
    await ask(config, bob)
    expect(sent.map((s) => s.identifier)).toEqual([ada, ada, bob, bob])
  })

  it("counts the normalised address, so case and spaces do not reset it", async () => {
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: 1, store: memoryRateLimitStore() } })
    const { config } = emailConfig([provider])
    const email = address("ada")
    await ask(config, email)
    await ask(config, ` ${email.toUpperCase()} `)
    expect(sent).toHaveLength(1)
  })

  it("can be turned off", async () => {
    const { provider, sent } = recordingEmail({ rateLimit: false })
    const { config } = emailConfig([provider])
    const email = address("ada")
    for (let i = 0; i < 8; i++) await ask(config, email)
    expect(sent).toHaveLength(8)
  })
})

describe("the per-IP limit", () => {
  it("with a proxy trusted explicitly, counts the last X-Forwarded-For entry, whatever the client put before it", async () => {
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: false, perIp: 3, store: memoryRateLimitStore() } })
    const { config } = emailConfig([provider], { trustHost: true })
    for (let i = 0; i < 3; i++) await ask(config, address("a"), `198.51.100.${i}, 203.0.113.7`)
    expect(sent).toHaveLength(3)
    await ask(config, address("b"), "10.0.0.1, 203.0.113.7")
    expect(sent).toHaveLength(3)
    await ask(config, address("c"), "203.0.113.8")
    expect(sent).toHaveLength(4)
  })

  it("trusts no header when the proxy is not trusted explicitly (trustHost merely inferred)", async () => {
    vi.stubEnv("AUTH_TRUST_HOST", undefined)
    vi.stubEnv("SESAME_TRUST_HOST", undefined)
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: false, perIp: 1, store: memoryRateLimitStore() } })
    const { config } = emailConfig([provider], { trustHost: undefined })
    for (let i = 0; i < 3; i++) await ask(config, address("a"), "203.0.113.7")
    expect(sent).toHaveLength(3)
  })

  it("AUTH_TRUST_HOST=true trusts the proxy too", async () => {
    vi.stubEnv("AUTH_TRUST_HOST", "true")
    const { provider, sent } = recordingEmail({ rateLimit: { perAddress: false, perIp: 1, store: memoryRateLimitStore() } })
    const { config } = emailConfig([provider], { trustHost: undefined })
    for (let i = 0; i < 3; i++) await ask(config, address("a"), "203.0.113.7")
    expect(sent).toHaveLength(1)
  })

  it("uses the app's clientIp function when there is one", async () => {
    const { provider, sent } = recordingEmail({
      rateLimit: { perAddress: false, perIp: 2, store: memoryRateLimitStore(), clientIp: (request) => request.headers.get("cf-connecting-ip") },
    })
    const { config } = emailConfig([provider])
    const from = (ip: string) => requestLink(config, new CookieJar(), address("a"), { headers: { "cf-connecting-ip": ip, "x-forwarded-for": "1.1.1.1" } })
    for (let i = 0; i < 3; i++) await from("192.0.2.1")
    await from("192.0.2.2")
    expect(sent).toHaveLength(3)
  })
})

describe("the store", () => {
  it("is given keys that name the provider and hide the address", async () => {
    const keys: string[] = []
    const counts = memoryRateLimitStore()
    const store: RateLimitStore = {
      increment(key, windowMs) {
        keys.push(`${key} ${windowMs}`)
        return counts.increment(key, windowMs)
      },
    }
    const { provider } = recordingEmail({ rateLimit: { store, window: 60 } })
    const { config } = emailConfig([provider], { trustHost: true })
    await ask(config, "ada@example.com", "203.0.113.7")
    expect(keys.sort()).toEqual([expect.stringMatching(/^sesame:email:email:address:[0-9a-f]{64} 60000$/), "sesame:email:email:ip:203.0.113.7 60000"])
    expect(keys.join(" ")).not.toContain("ada@example.com")
  })

  it("a failing store lets the request through and logs why", async () => {
    const { provider, sent } = recordingEmail({
      rateLimit: {
        store: {
          increment() {
            throw new Error("redis is down")
          },
        },
      },
    })
    const { config, logs } = emailConfig([provider])
    await ask(config, address("ada"))
    expect(sent).toHaveLength(1)
    expect(logs.join("\n")).toMatch(/rate-limit store failed[\s\S]*redis is down/)
  })

  it("in memory, stays bounded: expired windows go first, then the oldest", () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(0)
    const store = memoryRateLimitStore({ maxKeys: 2 })
    expect(store.increment("a", 1000)).toBe(1)
    expect(store.increment("a", 1000)).toBe(2)
    expect(store.increment("b", 5000)).toBe(1)
    vi.setSystemTime(2000)
    // "a" has expired: making room for "c" drops it and keeps "b".
    expect(store.increment("c", 5000)).toBe(1)
    expect(store.increment("b", 5000)).toBe(2)
    // Full of live windows: the oldest ("b") goes.
    expect(store.increment("d", 5000)).toBe(1)
    expect(store.increment("c", 5000)).toBe(2)
    expect(store.increment("b", 5000)).toBe(1)
  })
})
