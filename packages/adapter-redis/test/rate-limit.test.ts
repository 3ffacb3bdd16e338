/**
 * Rate limits shared across instances: three instances of an app (each its own configuration and
 * Redis connection, as three processes have) keep their counts in one Redis, so a client spreading
 * a burst over them is refused as if it hit one; and Redis may hold the counts while the rest
 * lives elsewhere (`storeCounters`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Auth, type AuthConfig } from "@sesame/core"
import { readmeExample, roomInWindow } from "@sesame/testing"
import RedisAdapter from "@sesame/adapter-redis"
import { MemoryAdapter } from "@sesame/core/adapters"
import { setPeerAddress } from "@sesame/core/integration"
import { storeCounters } from "@sesame/core/password"
import Credentials from "@sesame/core/providers/credentials"
import type { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const prefix = testPrefix()
const clients: Redis[] = []

beforeAll(async () => {
  for (let i = 0; i < 3; i++) clients.push(await connectRedis())
})

afterAll(async () => {
  await dropPrefix(clients[0]!, prefix)
  for (const client of clients) client.disconnect()
})

const credentials = () => Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: async () => null })
const secret = "rate-limit-test-secret-0123456789-abcdefghijklmnop"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

async function guess(config: AuthConfig, peer: string, headers: Record<string, string> = {}) {
  const request = new Request("http://localhost:3000/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "username=alice&password=wrong",
  })
  setPeerAddress(request, peer)
  return (await Auth(request, config)).status
}

const page = join(import.meta.dirname, "..", "..", "..", "docs", "deploy", "rate-limits.md")

/** The JSON block after the marker `name` on the page. */
function jsonBlock(name: string): unknown {
  const text = readFileSync(page, "utf8")
  return JSON.parse(/```json\n([\s\S]*?)```/.exec(text.slice(text.indexOf(`<!-- example: ${name} `)))![1]!)
}

describe("rate limits in Redis", () => {
  it("three instances sharing Redis share the counts: a burst spread over them is refused past the limit, and the counts are Redis keys", async () => {
    const instances: AuthConfig[] = clients.map((client) => ({
      secret,
      providers: [credentials()],
      adapter: RedisAdapter(client, { prefix }),
      rateLimit: { enabled: true, store: "adapter", rules: { "sign-in": { max: 6, window: 60 } } },
      logger: quiet,
    }))
    await roomInWindow(60)
    const statuses: number[] = []
    for (let i = 0; i < 9; i++) statuses.push(await guess(instances[i % 3]!, "203.0.113.30"))
    expect(statuses.slice(0, 6).every((status) => status !== 429)).toBe(true)
    expect(statuses.slice(6)).toEqual([429, 429, 429])
    // Another client is another count, on any instance.
    expect(await guess(instances[1]!, "203.0.113.31")).not.toBe(429)
    const keys = await keysUnder(clients[0]!, prefix)
    expect(keys.some((key) => key.startsWith(`${prefix}model:sesame_counters:sesame%3Arate%3Asign-in%3A203.0.113.30%3A`))).toBe(true)
  })

  it("Redis keeps the counts while the users live in another adapter (storeCounters)", async () => {
    const shared = storeCounters(RedisAdapter(clients[0]!, { prefix: `${prefix}counts:` }).store!)
    const instances: AuthConfig[] = [0, 1].map(() => ({
      secret,
      providers: [credentials()],
      adapter: MemoryAdapter(),
      rateLimit: { enabled: true, store: shared, rules: { "sign-in": { max: 2, window: 60 } } },
      logger: quiet,
    }))
    await roomInWindow(60)
    expect([await guess(instances[0]!, "203.0.113.32"), await guess(instances[1]!, "203.0.113.32"), await guess(instances[0]!, "203.0.113.32")].at(-1)).toBe(429)
  })

  it("docs/deploy/rate-limits.md: the example's counts live in Redis behind Cloudflare's header, its kiosk rule applies, and a refusal's body is the page's", async () => {
    const scratch = join(import.meta.dirname, ".scratch")
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "rate-limits.ts")
    writeFileSync(file, readmeExample(page, "rate-limits").replace('"myapp:"', JSON.stringify(`${prefix}docs:`)))
    const { rateLimits } = (await import(file)) as { rateLimits: Pick<AuthConfig, "trustedProxy" | "rateLimit"> }
    const config: AuthConfig = { secret, providers: [credentials()], logger: quiet, ...rateLimits, rateLimit: { ...(rateLimits.rateLimit as object), enabled: true } }
    await roomInWindow(60)
    const statuses: number[] = []
    for (let i = 0; i < 121; i++) statuses.push(await guess(config, "10.0.0.1", { "cf-connecting-ip": "203.0.113.50" }))
    expect(statuses.filter((status) => status === 429)).toEqual([429])
    expect(statuses.at(-1)).toBe(429)
    const request = new Request("http://localhost:3000/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": "203.0.113.50" }, body: "username=a" })
    const body = (await (await Auth(request, config)).json()) as Record<string, string>
    const documented = jsonBlock("rate-limited-body") as Record<string, string>
    expect(Object.keys(body)).toEqual(Object.keys(documented))
    expect(body.error).toBe(documented.error)
    expect(body.message).toMatch(new RegExp(`^${documented.message!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("42", "\\d+")}$`))
  })
})
