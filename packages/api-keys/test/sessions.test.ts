/**
 * A user's key as a session (`apiKeys({ sessions: true })`): what `GET <basePath>/session` (and so
 * every integration's getter) answers for a request that carries a key and no session cookie, and
 * where a key is never a session (a POST with the CSRF rules, a sign-out, the module's own
 * endpoints, a request with a session cookie).
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { readSession } from "@sesame/core/integration"
import { admin } from "@sesame/admin"
import { apiKeys } from "@sesame/api-keys"
import { describe, expect, it } from "vitest"
import { acme, makeWorld, origin } from "./world.js"

const sessionWith = async (config: AuthConfig, headers: Record<string, string>, method = "GET") =>
  Auth(new Request(`${origin}/auth/session`, { method, headers: method === "POST" ? { ...headers, origin, "content-type": "application/json" } : headers, body: method === "POST" ? "{}" : undefined }), config)

describe.each(["database", "jwt"] as const)("a key as a session (%s sessions)", (strategy) => {
  it("GET session and the integrations' readSession answer the key's user, scopes and expiry, and set no cookie", async () => {
    const world = makeWorld({ strategy, keys: { sessions: true } })
    const ada = await world.user("ada@example.com")
    const created = await ada.api("createApiKey", { name: "ci", scopes: ["read"], expiresIn: 3600 })
    const response = await sessionWith(world.config, { authorization: `Bearer ${created.key}` })
    expect(response.status).toBe(200)
    expect(response.headers.get("set-cookie")).toBeNull()
    const session = await response.json()
    expect(session).toEqual({
      user: { id: ada.id, name: "ada", email: "ada@example.com", image: null },
      expires: new Date(created.expiresAt).toISOString(),
      "api-keys": { keyId: created.id, name: "ci", scopes: ["read"] },
    })
    const read = await readSession(world.config, new Request(`${origin}/api/things`, { headers: { authorization: `Bearer ${created.key}` } }))
    expect(read.session).toEqual(session)
    expect(read.cookies).toEqual([])
  })

  it("a browser's session cookie wins over a key, and a key is never a session on a POST or a sign-out", async () => {
    const world = makeWorld({ strategy, keys: { sessions: true } })
    const ada = await world.user("ada@example.com")
    const bob = await world.user("bob@example.com")
    const { key } = await ada.api("createApiKey", { name: "ci" })
    const mixed = await (await sessionWith(world.config, { authorization: `Bearer ${key}`, cookie: bob.jar.header() })).json()
    expect(mixed.user.email).toBe("bob@example.com")
    expect(mixed["api-keys"]).toBeUndefined()
    // POST session: the CSRF-protected update refuses a request without the token, key or not.
    const posted = await sessionWith(world.config, { authorization: `Bearer ${key}` }, "POST")
    expect(await posted.json()).toBeNull()
    // The module's own endpoints act for the cookie session's user only.
    const listed = await Auth(new Request(`${origin}/auth/api-keys/list`, { headers: { authorization: `Bearer ${key}` } }), world.config)
    expect(listed.status).toBe(401)
    const signOut = await Auth(new Request(`${origin}/auth/signout`, { method: "POST", headers: { authorization: `Bearer ${key}`, origin, "content-type": "application/json" }, body: "{}" }), world.config)
    expect(signOut.status).not.toBe(200)
    expect(await world.bearer(key)).toMatchObject({ userId: ada.id })
  })

  it("no session for a key that does not hold: unknown, revoked, over its rate limit, or an organization's", async () => {
    const world = makeWorld({ strategy, organizations: true, keys: { sessions: true } })
    const { ada, org } = await acme(world)
    const session = async (key: string) => (await sessionWith(world.config, { authorization: `Bearer ${key}` })).json()
    const revoked = await ada.api("createApiKey", { name: "gone" })
    await ada.api("revokeApiKey", revoked.id)
    expect(await session(revoked.key)).toBeNull()
    const limited = await ada.api("createApiKey", { name: "slow", rateLimit: { max: 1, window: 3600 } })
    expect((await session(limited.key))?.user.id).toBe(ada.id)
    expect(await session(limited.key)).toBeNull()
    const orgKey = await ada.api("createApiKey", { name: "acme", organizationId: org.id })
    expect(await world.bearer(orgKey.key)).toMatchObject({ organizationId: org.id })
    expect(await session(orgKey.key)).toBeNull()
    const made = await ada.api("createApiKey", { name: "typo" })
    expect(await session(`${made.key.slice(0, -1)}${made.key.endsWith("a") ? "b" : "a"}`)).toBeNull()
  })

  it("a suspended user's key is no session while the suspension lasts", async () => {
    const admins: string[] = []
    const world = makeWorld({ strategy, keys: { sessions: true }, plugins: [admin({ admins: (user) => admins.includes(user.id) })] })
    const boss = await world.user("boss@example.com")
    admins.push(boss.id)
    const pat = await world.user("pat@example.com")
    const { key } = await pat.api("createApiKey", { name: "pat's" })
    const session = async () => (await sessionWith(world.config, { authorization: `Bearer ${key}` })).json()
    expect((await session())?.user.id).toBe(pat.id)
    expect((await boss.post("admin/ban", { userId: pat.id })).status).toBe(200)
    expect(await session()).toBeNull()
  })
})

describe("keys as sessions are the app's choice", () => {
  it("without `sessions`, a key is no session anywhere", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const { key } = await ada.api("createApiKey", { name: "ci" })
    expect(await (await sessionWith(world.config, { authorization: `Bearer ${key}` })).json()).toBeNull()
    expect(await world.bearer(key)).toMatchObject({ userId: ada.id })
  })

  it("`sessions` must be a boolean", () => {
    expect(() => apiKeys({ sessions: "yes" as never })).toThrow(/`sessions` must be true or false/)
  })
})
