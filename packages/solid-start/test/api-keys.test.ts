/**
 * `@sesame/api-keys` through SolidStart, over real HTTP (`serve` of @sesame/testing routing to
 * `SolidAuth`'s handlers and to API routes as SolidStart calls them, with the request of their
 * event): a signed-in user creates, lists, rotates and revokes keys at `/api/auth/api-keys/…`
 * (cookie session, CSRF token, JSON); the app's routes read a key as the session with
 * `getSession(request, options)` (`sessions: true`) and check it with `api(request,
 * options).verifyApiKey()`: 200, 429 over the key's rate limit, 401 once revoked or expired, and
 * both keys within a rotation's overlap. A key alone never acts on a CSRF-protected POST, and one
 * user's key is never another user's session.
 */
import { createHash } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { apiKeys, keyOfSession, type ApiKeys } from "@sesame/api-keys"
import { api, getSession, SolidAuth, type ServerFunctionsOf, type SolidAuthConfig } from "@sesame/solid-start"
import { serve } from "@sesame/testing"
import { CookieJar, request, type RequestOptions } from "../../core/test/helpers.js"
import { event, secret } from "./helpers.js"

const open: (() => Promise<void>)[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(open.splice(0).map((close) => close()))
})

/** `SolidAuth`'s handlers under /api/auth, a route reading the session, and an API route checking the key; stored users sign in by address. */
function appWith(sessions: boolean) {
  const adapter = MemoryAdapter()
  const config: SolidAuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [Credentials({ createUser: false, credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail(email) : null) })],
    plugins: [apiKeys({ scopes: ["read", "write"], rotationOverlap: 600, sessions })],
  }
  const handlers = SolidAuth(config)
  /** `GET /api/me`: the route's `event.request` read with the getter. */
  const me = async (request: Request) => Response.json({ session: await getSession(request, config) })
  /** `GET /api/things`: the key checked with the plugin's server function. */
  const things = async (request: Request) => {
    const key = await (api(request, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey()
    if (!key) return Response.json({ error: "Unauthorized" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } })
    if (key.rateLimited) return Response.json({ error: "TooManyRequests" }, { status: 429, headers: { "Retry-After": String(key.retryAfter) } })
    return Response.json({ userId: key.userId, scopes: key.scopes })
  }
  async function app(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/api/auth/")) return (await (request.method === "POST" ? handlers.POST : handlers.GET)(event(request))) ?? new Response(null, { status: 404 })
    if (pathname === "/api/me") return me(request)
    if (pathname === "/api/things") return things(request)
    return new Response(null, { status: 404 })
  }
  return { adapter, app }
}

async function start(sessions = true) {
  const { adapter, app } = appWith(sessions)
  const server = await serve(app)
  open.push(() => server.close())
  const { origin } = server
  const send = async (path: string, options: RequestOptions = {}) => {
    const response = await fetch(request(`${origin}${path}`, options), { redirect: "manual" })
    options.jar?.apply(response)
    return response
  }
  const csrf = async (jar: CookieJar) => ((await (await send("/api/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
  /** A stored user, signed in through the credentials endpoint in a browser of their own. */
  async function user(email: string) {
    const { id } = await adapter.createUser({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: new Date() })
    const jar = new CookieJar()
    const signedIn = await send("/api/auth/callback/credentials", { jar, form: { csrfToken: await csrf(jar), email }, headers: { origin } })
    expect(signedIn.status).toBe(302)
    const post = async (path: string, fields: Record<string, unknown>) => {
      const response = await send(`/api/auth/api-keys/${path}`, { jar, json: { csrfToken: await csrf(jar), ...fields }, headers: { origin } })
      return { status: response.status, body: (await response.json()) as any }
    }
    return { id, jar, post, list: async () => (await (await send("/api/auth/api-keys/list", { jar })).json()) as { result: any[] } }
  }
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
  const me = async (options: { key?: string; jar?: CookieJar } = {}) =>
    ((await (await send("/api/me", { jar: options.jar, headers: options.key ? bearer(options.key) : {} })).json()) as { session: Session | null }).session
  const things = (key: string) => send("/api/things", { headers: bearer(key) })
  return { origin, send, csrf, user, bearer, me, things }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

describe("API keys on SolidStart", () => {
  it("a signed-in user creates and lists a key; the key is that user's session at getSession, never another's", async () => {
    const { user, me } = await start()
    const ada = await user("ada@example.com")
    const bob = await user("bob@example.com")
    const created = await ada.post("create", { name: "ci", scopes: ["read"], expiresIn: 3600 })
    expect(created.status).toBe(200)
    const { key, id: keyId } = created.body.result as { key: string; id: string }
    expect(key).toMatch(/^sesame_[0-9A-Za-z]{49}$/)
    const listed = await ada.list()
    expect(listed.result).toEqual([expect.objectContaining({ id: keyId, name: "ci", scopes: ["read"], userId: ada.id, start: key.slice(0, 11) })])
    expect(JSON.stringify(listed)).not.toContain(key)
    expect(JSON.stringify(listed)).not.toContain(sha256(key))
    expect(listed.result[0]).not.toHaveProperty("keyHash")
    expect((await bob.list()).result).toEqual([])

    const session = await me({ key })
    expect(session?.user).toMatchObject({ id: ada.id, email: "ada@example.com" })
    expect((session as Record<string, unknown> | null)?.["api-keys"]).toEqual({ keyId, name: "ci", scopes: ["read"] })
    expect(keyOfSession(session)).toEqual({ keyId, name: "ci", scopes: ["read"] })
    expect(await me()).toBeNull()
    const browser = await me({ jar: ada.jar })
    expect(browser?.user?.email).toBe("ada@example.com")
    expect(keyOfSession(browser)).toBeUndefined()

    // Ada's key is Ada, whoever sends it; Bob's cookie is Bob's own session, never Ada's key's.
    const bobs = (await bob.post("create", { name: "bob's" })).body.result.key as string
    expect((await me({ key: bobs }))?.user?.id).toBe(bob.id)
    expect((await me({ key }))?.user?.id).not.toBe(bob.id)
    const mixed = await me({ key, jar: bob.jar })
    expect(mixed?.user?.email).toBe("bob@example.com")
    expect(keyOfSession(mixed)).toBeUndefined()
    // Nor can Bob manage Ada's key.
    expect(await bob.post("revoke", { keyId })).toMatchObject({ status: 404, body: { error: "NotFound" } })
  })

  it("api.verifyApiKey(): 200 for a good key, 429 with Retry-After over its rate limit, 401 after revoke", async () => {
    const { user, things } = await start()
    const ada = await user("ada@example.com")
    const good = (await ada.post("create", { name: "good", scopes: ["write"] })).body.result
    const slow = (await ada.post("create", { name: "slow", rateLimit: { max: 1, window: 3600 } })).body.result
    const ok = await things(good.key)
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ userId: ada.id, scopes: ["write"] })
    expect((await things(slow.key)).status).toBe(200)
    const limited = await things(slow.key)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(3600)

    expect(await ada.post("revoke", { keyId: good.id })).toEqual({ status: 200, body: { result: true } })
    const revoked = await things(good.key)
    expect(revoked.status).toBe(401)
    expect(revoked.headers.get("www-authenticate")).toBe("Bearer")
    expect((await ada.list()).result.map((k: { name: string }) => k.name)).toEqual(["slow"])
  })

  it("after rotate both keys work within the overlap; the old stops after it, the new once expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { user, things, me } = await start()
    const ada = await user("ada@example.com")
    const old = (await ada.post("create", { name: "deploys", expiresIn: 3600 })).body.result
    const rotated = await ada.post("rotate", { keyId: old.id })
    expect(rotated.status).toBe(200)
    const next = rotated.body.result as { key: string; id: string }
    expect(next.key).not.toBe(old.key)
    expect((await things(old.key)).status).toBe(200)
    expect((await things(next.key)).status).toBe(200)
    expect((await ada.list()).result.find((k: { id: string }) => k.id === old.id)).toMatchObject({ replacedBy: next.id })

    vi.setSystemTime(Date.now() + 601_000)
    expect((await things(old.key)).status).toBe(401)
    expect((await things(next.key)).status).toBe(200)
    vi.setSystemTime(Date.now() + 3600_000)
    expect((await things(next.key)).status).toBe(401)
    expect(await me({ key: next.key })).toBeNull()
  })

  it("a key alone is refused on the CSRF-protected POSTs: create (token or not), sign-out, session", async () => {
    const { origin, send, csrf, user, bearer, me, things } = await start()
    const ada = await user("ada@example.com")
    const { key } = (await ada.post("create", { name: "ci" })).body.result
    const json = { "content-type": "application/json", origin: origin, ...bearer(key) }
    const noToken = await send("/api/auth/api-keys/create", { headers: json, body: JSON.stringify({ name: "minted" }), method: "POST" })
    // Refused before the module runs: the core's CSRF refusal, a redirect that says why.
    expect(noToken.status).toBe(302)
    expect(noToken.headers.get("location")).toMatch(/[?&]error=MissingCSRF/)
    // A script may fetch a CSRF token and its cookie: still no session cookie, so no one to act for.
    const script = new CookieJar()
    const withToken = await send("/api/auth/api-keys/create", { jar: script, headers: json, body: JSON.stringify({ name: "minted", csrfToken: await csrf(script) }), method: "POST" })
    expect(withToken.status).toBe(401)
    expect(await withToken.json()).toMatchObject({ error: "NotSignedIn" })
    expect((await ada.list()).result.map((k: { name: string }) => k.name)).toEqual(["ci"])

    const signOut = await send("/api/auth/signout", { headers: json, body: "{}", method: "POST" })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.get("location")).toMatch(/[?&]error=MissingCSRF/)
    const session = await send("/api/auth/session", { headers: json, body: JSON.stringify({ data: { name: "Eve" } }), method: "POST" })
    expect(await session.json()).toBeNull()
    // Nothing changed: the key and Ada's browser session still hold.
    expect((await things(key)).status).toBe(200)
    expect((await me({ jar: ada.jar }))?.user?.name).toBe("ada")
  })

  it("without `sessions`, a key is no session at getSession, and api.verifyApiKey() still checks it", async () => {
    const { user, me, things } = await start(false)
    const ada = await user("ada@example.com")
    const { key } = (await ada.post("create", { name: "ci" })).body.result
    expect(await me({ key })).toBeNull()
    expect((await things(key)).status).toBe(200)
  })
})
