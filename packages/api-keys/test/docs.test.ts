/**
 * docs/features/api-keys.md: its examples run as written (the configuration, and an API route that
 * answers 401, 200, 403 and 429 by the key a request carries), and its table kept true to the
 * module's endpoints and server functions.
 */
import { callModuleApi, type AuthConfig } from "@sesame/core"
import type { MemoryAdapterInstance } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import { readmeExample } from "@sesame/testing"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { apiKeys, keyPattern } from "@sesame/api-keys"
import { CookieJar, csrfToken, send } from "../../core/test/helpers.js"
import { storePassword } from "../../core/src/password/storage.js"

const root = join(import.meta.dirname, "..", "..", "..")
const page = join(root, "docs", "features", "api-keys.md")
const scratch = join(import.meta.dirname, ".scratch")

afterAll(() => vi.unstubAllEnvs())

/** The page's examples `auth` and `route` (or those named), saved and imported as the app would. */
async function load(auth = "auth", route = "route"): Promise<{ config: AuthConfig; GET: (request: Request) => Promise<Response> }> {
  vi.stubEnv("AUTH_SECRET", "api-keys-docs-secret-0123456789abcdefghijklm")
  mkdirSync(scratch, { recursive: true })
  writeFileSync(join(scratch, `${auth}.ts`), readmeExample(page, auth))
  writeFileSync(join(scratch, `${route}.ts`), readmeExample(page, route))
  const { config } = await import(join(scratch, `${auth}.ts`))
  const { GET } = await import(join(scratch, `${route}.ts`))
  return { config, GET }
}

/** Ada, with a password, signed in through the password provider: her browser's cookies, and a request of hers for server functions. */
async function signedInAda(config: AuthConfig): Promise<{ user: { id: string }; jar: CookieJar; signedIn: Request }> {
  const adapter = config.adapter as MemoryAdapterInstance
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", name: null, image: null, emailVerified: new Date() })
  await storePassword(adapter, { userId: user.id, hash: await argon2id().hash("a long enough passphrase"), updatedAt: new Date() })
  const jar = new CookieJar()
  await send(config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(config, jar), email: user.email, password: "a long enough passphrase" } })
  return { user, jar, signedIn: new Request("http://localhost:3000/", { headers: { cookie: jar.header() } }) }
}

describe("docs/features/api-keys.md", () => {
  it("its table names every endpoint and server function, and no other", () => {
    const text = readFileSync(page, "utf8")
    const module = apiKeys()
    const routes = [...text.matchAll(/^\| `(GET|POST) <basePath>\/(api-keys\/[a-z-]+)(?:\?[^`]*)?` \|/gm)].map(([, method, path]) => `${method} ${path}`)
    expect(routes.sort()).toEqual(Object.keys(module.routes!).sort())
    const functions = [...text.matchAll(/^\| [^|]* \| `(\w+)\(/gm)].map(([, fn]) => fn)
    expect(functions.sort()).toEqual(Object.keys(module.api).sort())
  })

  it("its scanner pattern is the keys' pattern", () => {
    const text = readFileSync(page, "utf8")
    const documented = new RegExp(`^${/\\bsesame_\[0-9A-Za-z\]\{49\}\\b/.exec(text)![0].replaceAll("\\b", "")}$`)
    expect(documented.source).toBe(keyPattern("sesame_").source)
  })

  it("runs the examples: a user makes a key, and the API route answers by it", async () => {
    const { config, GET } = await load()
    const { user, signedIn } = await signedInAda(config)
    const reader = (await callModuleApi(signedIn, config, "createApiKey", { name: "reader", scopes: ["projects:read"], rateLimit: { max: 1, window: 60 } })) as { key: string }
    const writer = (await callModuleApi(signedIn, config, "createApiKey", { name: "writer", scopes: ["projects:write"] })) as { key: string }
    const call = (key?: string) => GET(new Request("http://localhost:3000/api/projects", { headers: key ? { authorization: `Bearer ${key}` } : {} }))

    expect((await call()).status).toBe(401)
    const ok = await call(reader.key)
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ owner: user.id, projects: [] })
    expect((await call(writer.key)).status).toBe(403)
    const limited = await call(reader.key)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await call(`${reader.key.slice(0, -1)}${reader.key.endsWith("0") ? "1" : "0"}`)).status).toBe(401)
  })

  it("runs the session examples: the route answers a browser's session and a key's, by its scopes", async () => {
    const { config, GET } = await load("auth-sessions", "session-route")
    const { jar, signedIn } = await signedInAda(config)
    const reader = (await callModuleApi(signedIn, config, "createApiKey", { name: "reader", scopes: ["projects:read"] })) as { key: string }
    const writer = (await callModuleApi(signedIn, config, "createApiKey", { name: "writer", scopes: ["projects:write"] })) as { key: string }
    const call = (headers: Record<string, string>) => GET(new Request("http://localhost:3000/api/me", { headers }))

    expect((await call({})).status).toBe(401)
    expect(await (await call({ cookie: jar.header() })).json()).toEqual({ email: "ada@example.com", viaKey: false })
    expect(await (await call({ authorization: `Bearer ${reader.key}` })).json()).toEqual({ email: "ada@example.com", viaKey: true })
    expect((await call({ authorization: `Bearer ${writer.key}` })).status).toBe(403)
  })
})
