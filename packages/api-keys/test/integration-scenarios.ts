/**
 * The scenario every integration's `api-keys.test.ts` runs against `@sesame/api-keys`: a signed-in
 * user creates, lists, rotates and revokes keys at `<auth>/api-keys/…` (cookie session, CSRF token,
 * JSON); the app's routes read a key as the session with the integration's session getter
 * (`sessions: true`) and check it with the integration's `api.verifyApiKey()`: 200, 429 over the
 * key's rate limit, 401 once revoked or expired, and both keys within a rotation's overlap. A key
 * alone never acts on a CSRF-protected POST, and one user's key is never another user's session.
 *
 * Each integration's file wires its app (the endpoints, a route answering `{ session }` from its
 * getter, and a route answering `keyResponse()` of its `verifyApiKey()`), implements `Driver`
 * (usually through `driverOver()` around its own request function and cookie jar), and calls
 * `apiKeyScenarios()`; what only one integration checks stays in its own file.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest"
import type { AuthConfig, Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { apiKeys, keyOfSession, type ApiKeyVerification } from "@sesame/api-keys"

/** A browser of its own: a cookie jar, signed in once `Driver.user()` returns it. */
export interface Browser {
  /** The stored user's id ("" for a browser no one signed in). */
  readonly id: string
  /** A fresh CSRF token from the endpoints (its cookie into this browser's jar). */
  csrfToken(): Promise<string>
  /** `POST <auth>/api-keys/<path>` with this browser's cookies, a fresh CSRF token and `fields` as JSON. */
  post(path: string, fields: Record<string, unknown>): Promise<{ status: number; body: any }>
  /** `GET <auth>/api-keys/<path>` with this browser's cookies: the JSON answer. */
  get(path: string): Promise<any>
}

/** An app of one integration, as the scenario drives it. */
export interface Driver {
  readonly origin: string
  /** A browser with an empty jar. */
  browser(): Browser
  /** A stored user, signed in through the credentials endpoint in a browser of their own. */
  user(email: string): Promise<Browser>
  /** `GET /api/me`, the app's route answering its session getter's session: with `Authorization: Bearer <key>` and/or the browser's cookies. */
  sessionOf(options?: { key?: string; as?: Browser }): Promise<Session | null>
  /** `GET /api/things`, the app's route answering `keyResponse()` of the integration's `api.verifyApiKey()`, with `Authorization: Bearer <key>`. */
  checkKey(key: string): Promise<Response>
  /** A request to `<auth>/<path>` as given (the browser's cookies if one is named; its jar takes the cookies set). */
  raw(method: string, path: string, headers: Record<string, string>, body?: string, as?: Browser): Promise<Response>
  close(): Promise<void>
}

/** The request options every integration's request function takes (the core tests' `RequestOptions`). */
export interface SendOptions<Jar> {
  jar?: Jar
  method?: string
  headers?: Record<string, string>
  json?: unknown
  form?: Record<string, string>
  body?: string
}

/** What `driverOver()` needs of an integration: its request function, its cookie jar, where its endpoints are. */
export interface Transport<Jar> {
  readonly origin: string
  /** The endpoints' base path: `/auth` or `/api/auth`. */
  readonly authPath: string
  /** The stored users are created here (`sesameWithApiKeys().adapter`). */
  readonly adapter: ReturnType<typeof sesameWithApiKeys>["adapter"]
  /** A request to the app, redirects not followed; `options.jar` sends its cookies and takes those set. */
  send(path: string, options?: SendOptions<Jar>): Promise<Response>
  jar(): Jar
  close?(): Promise<void>
}

/** A `Driver` over an integration's request function: the Sesame endpoints, `/api/me` and `/api/things`. */
export function driverOver<Jar>({ origin, authPath, adapter, send, jar: newJar, close = async () => {} }: Transport<Jar>): Driver {
  const jars = new WeakMap<Browser, Jar>()
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
  function browser(id = ""): Browser {
    const jar = newJar()
    const csrfToken = async () => ((await (await send(`${authPath}/csrf`, { jar })).json()) as { csrfToken: string }).csrfToken
    const made: Browser = {
      id,
      csrfToken,
      post: async (path, fields) => {
        const response = await send(`${authPath}/api-keys/${path}`, { jar, json: { csrfToken: await csrfToken(), ...fields }, headers: { origin } })
        return { status: response.status, body: (await response.json()) as any }
      },
      get: async (path) => (await send(`${authPath}/api-keys/${path}`, { jar })).json(),
    }
    jars.set(made, jar)
    return made
  }
  return {
    origin,
    browser: () => browser(),
    async user(email) {
      const { id } = await adapter.createUser({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: new Date() })
      const signedIn = browser(id)
      const response = await send(`${authPath}/callback/credentials`, { jar: jars.get(signedIn), form: { csrfToken: await signedIn.csrfToken(), email }, headers: { origin } })
      expect(response.status).toBe(302)
      return signedIn
    },
    sessionOf: async ({ key, as } = {}) =>
      ((await (await send("/api/me", { jar: as && jars.get(as), headers: key ? bearer(key) : {} })).json()) as { session: Session | null }).session,
    checkKey: (key) => send("/api/things", { headers: bearer(key) }),
    raw: (method, path, headers, body, as) => send(`${authPath}/${path}`, { method, headers, body, jar: as && jars.get(as) }),
    close,
  }
}

/** The memory adapter, and the configuration every integration's app starts from (spread it, with the integration's `secret`). */
export function sesameWithApiKeys(sessions: boolean) {
  const adapter = MemoryAdapter()
  const config = {
    adapter,
    session: { strategy: "database" },
    providers: [Credentials({ createUser: false, credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail(email) : null) })],
    plugins: [apiKeys({ scopes: ["read", "write"], rotationOverlap: 600, sessions })],
  } satisfies Omit<AuthConfig, "secret">
  return { adapter, config }
}

/** What `/api/things` answers for `verifyApiKey()`'s result: 401 with `WWW-Authenticate: Bearer`, 429 with `Retry-After`, or the key's user and scopes. */
export function keyResponse(key: ApiKeyVerification | null): Response {
  if (!key) return Response.json({ error: "Unauthorized" }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } })
  if (key.rateLimited) return Response.json({ error: "TooManyRequests" }, { status: 429, headers: { "Retry-After": String(key.retryAfter) } })
  return Response.json({ userId: key.userId, scopes: key.scopes })
}

const sha256 = async (text: string) => Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("hex")

/**
 * `describe("API keys on <name>")` with the scenario's tests; `start` wires a fresh app
 * (`sessions`: the plugin's option), `getter` names the session getter in the tests' titles.
 */
export function apiKeyScenarios(name: string, start: (options: { sessions: boolean }) => Promise<Driver>, getter = "getSession") {
  /** A fresh app, closed when the test ends. */
  async function started(sessions = true) {
    const driver = await start({ sessions })
    onTestFinished(() => driver.close())
    return driver
  }
  const names = async (browser: Browser) => ((await browser.get("list")) as { result: { name: string }[] }).result.map((k) => k.name)

  describe(`API keys on ${name}`, () => {
    it(`a signed-in user creates and lists a key; the key is that user's session at ${getter}, never another's`, async () => {
      const { user, sessionOf: me } = await started()
      const ada = await user("ada@example.com")
      const bob = await user("bob@example.com")
      const created = await ada.post("create", { name: "ci", scopes: ["read"], expiresIn: 3600 })
      expect(created.status).toBe(200)
      const { key, id: keyId } = created.body.result as { key: string; id: string }
      expect(key).toMatch(/^sesame_[0-9A-Za-z]{49}$/)
      const listed = (await ada.get("list")) as { result: any[] }
      expect(listed.result).toEqual([expect.objectContaining({ id: keyId, name: "ci", scopes: ["read"], userId: ada.id, start: key.slice(0, 11) })])
      expect(JSON.stringify(listed)).not.toContain(key)
      expect(JSON.stringify(listed)).not.toContain(await sha256(key))
      expect(listed.result[0]).not.toHaveProperty("keyHash")
      expect((await bob.get("list")).result).toEqual([])

      const session = await me({ key })
      expect(session?.user).toMatchObject({ id: ada.id, email: "ada@example.com" })
      expect((session as Record<string, unknown> | null)?.["api-keys"]).toEqual({ keyId, name: "ci", scopes: ["read"] })
      expect(keyOfSession(session)).toEqual({ keyId, name: "ci", scopes: ["read"] })
      expect(await me()).toBeNull()
      const browser = await me({ as: ada })
      expect(browser?.user?.email).toBe("ada@example.com")
      expect(keyOfSession(browser)).toBeUndefined()

      // Ada's key is Ada, whoever sends it; Bob's cookie is Bob's own session, never Ada's key's.
      const bobs = (await bob.post("create", { name: "bob's" })).body.result.key as string
      expect((await me({ key: bobs }))?.user?.id).toBe(bob.id)
      expect((await me({ key }))?.user?.id).not.toBe(bob.id)
      const mixed = await me({ key, as: bob })
      expect(mixed?.user?.email).toBe("bob@example.com")
      expect(keyOfSession(mixed)).toBeUndefined()
      // Nor can Bob manage Ada's key.
      expect(await bob.post("revoke", { keyId })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    })

    it("api.verifyApiKey(): 200 for a good key, 429 with Retry-After over its rate limit, 401 after revoke", async () => {
      const { user, checkKey: things } = await started()
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
      expect(await names(ada)).toEqual(["slow"])
    })

    it("after rotate both keys work within the overlap; the old stops after it, the new once expired", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      onTestFinished(() => void vi.useRealTimers())
      const { user, checkKey: things, sessionOf: me } = await started()
      const ada = await user("ada@example.com")
      const old = (await ada.post("create", { name: "deploys", expiresIn: 3600 })).body.result
      const rotated = await ada.post("rotate", { keyId: old.id })
      expect(rotated.status).toBe(200)
      const next = rotated.body.result as { key: string; id: string }
      expect(next.key).not.toBe(old.key)
      expect((await things(old.key)).status).toBe(200)
      expect((await things(next.key)).status).toBe(200)
      expect((await ada.get("list")).result.find((k: { id: string }) => k.id === old.id)).toMatchObject({ replacedBy: next.id })

      vi.setSystemTime(Date.now() + 601_000)
      expect((await things(old.key)).status).toBe(401)
      expect((await things(next.key)).status).toBe(200)
      vi.setSystemTime(Date.now() + 3600_000)
      expect((await things(next.key)).status).toBe(401)
      expect(await me({ key: next.key })).toBeNull()
    })

    it("a key alone is refused on the CSRF-protected POSTs: create (token or not), sign-out, session", async () => {
      const { origin, user, browser, raw, sessionOf: me, checkKey: things } = await started()
      const ada = await user("ada@example.com")
      const { key } = (await ada.post("create", { name: "ci" })).body.result
      const json = { "content-type": "application/json", origin, authorization: `Bearer ${key}` }
      const noToken = await raw("POST", "api-keys/create", json, JSON.stringify({ name: "minted" }))
      // Refused before the module runs: the core's CSRF refusal, a redirect that says why.
      expect(noToken.status).toBe(302)
      expect(noToken.headers.get("location")).toMatch(/[?&]error=MissingCSRF/)
      // A script may fetch a CSRF token and its cookie: still no session cookie, so no one to act for.
      const script = browser()
      const withToken = await raw("POST", "api-keys/create", json, JSON.stringify({ name: "minted", csrfToken: await script.csrfToken() }), script)
      expect(withToken.status).toBe(401)
      expect(await withToken.json()).toMatchObject({ error: "NotSignedIn" })
      expect(await names(ada)).toEqual(["ci"])

      const signOut = await raw("POST", "signout", json, "{}")
      expect(signOut.status).toBe(302)
      expect(signOut.headers.get("location")).toMatch(/[?&]error=MissingCSRF/)
      const session = await raw("POST", "session", json, JSON.stringify({ data: { name: "Eve" } }))
      expect(await session.json()).toBeNull()
      // Nothing changed: the key and Ada's browser session still hold.
      expect((await things(key)).status).toBe(200)
      expect((await me({ as: ada }))?.user?.name).toBe("ada")
    })

    it(`without \`sessions\`, a key is no session at ${getter}, and api.verifyApiKey() still checks it`, async () => {
      const { user, sessionOf: me, checkKey: things } = await started(false)
      const ada = await user("ada@example.com")
      const { key } = (await ada.post("create", { name: "ci" })).body.result
      expect(await me({ key })).toBeNull()
      expect((await things(key)).status).toBe(200)
    })
  })
}
