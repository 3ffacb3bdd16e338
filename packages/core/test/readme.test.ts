/**
 * The README's quick-start example, extracted and run as written.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { startDevIdp } from "@sesame/dev-idp"
import type { AuthConfig } from "@sesame/core"
import type { MemoryAdapterInstance } from "@sesame/core/adapters"
import { aliceCredentials, CookieJar, signInAlice } from "./helpers.js"
import { accounts, client, clientSecret, session, signIn } from "./oauth/harness.js"

const root = join(import.meta.dirname, "..", "..", "..")
const scratch = join(import.meta.dirname, ".scratch")

/** The code block that follows `<!-- example: <name> ... -->` in a Markdown file. */
export function readmeExample(file: string, name: string): string {
  const text = readFileSync(file, "utf8")
  const marker = text.indexOf(`<!-- example: ${name}`)
  if (marker === -1) throw new Error(`no example "${name}" in ${file}`)
  const match = /```(?:ts|typescript)\n([\s\S]*?)```/.exec(text.slice(marker))
  if (!match) throw new Error(`example "${name}" has no code block`)
  return match[1]!
}

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("package README: getToken", () => {
  it("runs as written: 401 without a session, the user id with one", async () => {
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "get-token.ts")
    writeFileSync(file, readmeExample(join(root, "packages", "core", "README.md"), "get-token"))
    const { handler } = (await import(file)) as { handler: (r: Request) => Promise<Response> }
    expect((await handler(new Request("http://localhost:3000/api/me"))).status).toBe(401)
    const config = { trustHost: true, providers: [aliceCredentials()] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const res = await handler(new Request("http://localhost:3000/api/me", { headers: { cookie: jar.header() } }))
    expect(await res.json()).toEqual({ userId: "1" })
  })
})

describe("README quick start", () => {
  it("runs as written: sign-in page, credentials sign-in, session", async () => {
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "quick-start.ts")
    writeFileSync(file, readmeExample(join(root, "README.md"), "quick-start"))
    const app = (await import(file)).default as { fetch: (r: Request) => Promise<Response> }
    const jar = new CookieJar()
    const call = async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      headers.set("cookie", jar.header())
      const res = await app.fetch(new Request(`http://localhost:3000${path}`, { ...init, headers }))
      jar.apply(res)
      return res
    }
    const page = await (await call("/auth/signin")).text()
    expect(page).toContain('name="username"')
    const { csrfToken } = await (await call("/auth/csrf")).json()
    const signIn = await call("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical engine" }).toString(),
    })
    expect(signIn.status).toBe(302)
    expect(await (await call("/auth/session")).json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com", image: null } })
  })
})

describe("package README: OAuth and getAccessToken", () => {
  it("runs as written: signs in with the OIDC provider, then calls its API with a refreshed token", async () => {
    const idp = await startDevIdp({ clients: [client("company")], accounts, accessTokenTtl: 1 })
    try {
      vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
      vi.stubEnv("AUTH_COMPANY_ID", "company")
      vi.stubEnv("AUTH_COMPANY_SECRET", clientSecret)
      vi.stubEnv("AUTH_COMPANY_ISSUER", idp.issuer)
      mkdirSync(scratch, { recursive: true })
      const file = join(scratch, "oauth.ts")
      writeFileSync(file, readmeExample(join(root, "packages", "core", "README.md"), "oauth"))
      const example = (await import(file)) as { config: AuthConfig; callAsUser: (userId: string, url: string) => Promise<Response> }
      const { config, callAsUser } = example
      const jar = new CookieJar()
      await signIn(config, jar, "company")
      expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })

      const [account] = [...(config.adapter as MemoryAdapterInstance).tables.accounts.values()]
      while (Date.now() / 1000 <= account!.expires_at!) await new Promise((r) => setTimeout(r, 100))
      const { userinfo_endpoint } = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string }
      const response = await callAsUser(account!.userId, userinfo_endpoint)
      expect(await response.json()).toMatchObject({ sub: "alice", email: "alice@example.com" })
      expect(idp.tokenRequests("refresh_token")).toBe(1)
    } finally {
      await idp.close()
    }
  })
})
