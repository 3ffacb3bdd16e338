import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Redis } from "ioredis"
import { afterAll, describe, expect, it, vi } from "vitest"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const scratch = join(import.meta.dirname, ".scratch")
const prefix = testPrefix()
// Fails fast, naming the command that starts Redis, when it is not running.
const admin = await connectRedis()

afterAll(async () => {
  vi.unstubAllEnvs()
  await dropPrefix(admin, prefix)
  await admin.quit()
})

describe("README example", () => {
  it("runs as written against the Redis server", async () => {
    vi.stubEnv("AUTH_SECRET", "redis-readme-secret-0123456789abcdef")
    vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379")
    vi.stubEnv("REDIS_PREFIX", prefix)
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const code = /<!-- example: redis[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "redis.ts"), code)
    const example = (await import(join(scratch, "redis.ts"))) as { default: { fetch: (r: Request) => Promise<Response> }; redis: Redis }
    const app = example.default
    try {
      const csrf = await app.fetch(new Request("http://localhost:3000/auth/csrf"))
      const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
      const { csrfToken } = await csrf.json()
      const signIn = await app.fetch(
        new Request("http://localhost:3000/auth/callback/credentials", {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken, email: "ada@example.com", password: "open sesame" }).toString(),
        }),
      )
      const session = signIn.headers.getSetCookie().find((c) => c.startsWith("sesame.session-token="))!.split(";")[0]!
      const body = await (await app.fetch(new Request("http://localhost:3000/auth/session", { headers: { cookie: session } }))).json()
      expect(body.user.email).toBe("ada@example.com")
      // The session is a key under the prefix, expiring when the session does.
      const [sessionKey] = (await keysUnder(admin, prefix)).filter((key) => key.startsWith(`${prefix}session:`))
      expect(await admin.pttl(sessionKey!)).toBeGreaterThan(29 * 86_400_000)
      await app.fetch(
        new Request("http://localhost:3000/auth/signout", {
          method: "POST",
          headers: { cookie: `${cookie}; ${session}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken }).toString(),
        }),
      )
      expect(await admin.exists(sessionKey!)).toBe(0)
    } finally {
      await example.redis.quit()
    }
  })
})
