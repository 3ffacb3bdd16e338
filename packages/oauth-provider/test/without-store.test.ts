/**
 * With an adapter that has no store (an Auth.js adapter, or one with only the spec's operations),
 * the module is off and says so once at start-up; sign-in and sessions work as before, and its
 * endpoints answer as paths Sesame does not serve, never a 500.
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { oauthProvider } from "@sesame/oauth-provider"
import { describe, expect, it } from "vitest"
import { CookieJar } from "../../core/test/helpers.js"
import { defaultOptions, secret } from "./world.js"

describe("the module without a store", () => {
  it("is off: sign-in and sessions work, its endpoints are not served", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const lines: string[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: withoutStore,
      session: { strategy: "database" },
      providers: [Credentials({ credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await withoutStore.getUserByEmail!(email) : null) })],
      plugins: [oauthProvider(defaultOptions)],
      logger: { error: (error) => void lines.push(String(error)), warn: (code) => void lines.push(String(code)), debug: (message, meta) => void lines.push(`${message} ${JSON.stringify(meta)}`) },
      debug: true,
    }
    await withoutStore.createUser!({ id: "u1", email: "ada@example.com", name: "Ada", emailVerified: new Date() })
    const origin = "http://localhost:3000"
    const jar = new CookieJar()
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await Auth(new Request(`${origin}${path}`, { ...init, headers: { cookie: jar.header(), ...(init.headers as Record<string, string>) } }), config)
      jar.apply(response)
      return response
    }
    const { csrfToken } = (await (await send("/auth/csrf")).json()) as { csrfToken: string }
    const signedIn = await send("/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin }, body: new URLSearchParams({ csrfToken, email: "ada@example.com" }).toString() })
    expect(signedIn.status).toBe(302)
    expect(await (await send("/auth/session")).json()).toMatchObject({ user: { email: "ada@example.com" } })
    for (const path of ["/auth/oauth/.well-known/openid-configuration", "/auth/oauth/token", "/auth/oauth/consents"]) {
      const response = await send(path)
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(response.status, path).toBeLessThan(500)
    }
    expect(lines.join("\n")).toMatch(/plugin-storage-missing|plugins off/)
  })
})
