/**
 * `@sesame/api-keys` through Hono, over real HTTP (`@hono/node-server`): the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`; a key as the session at the session middleware and `getSession(c)` with
 * `sessions: true`; `api(c).verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs
 * refused to a key alone; one user's key never another's session), and what only Hono has: the
 * session middleware in front of a route that also checks the key.
 */
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { Hono, type Context } from "hono"
import { describe, expect, it, onTestFinished } from "vitest"
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, sesame, sessionMiddleware, type SesameVariables, type ServerFunctionsOf } from "@sesame/hono"
import { request, secret, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { CookieJar } from "./helpers.js"

/** The endpoints, the session middleware, a route reading the session, and an API route checking the key; stored users sign in by address. */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config = { secret, ...base }
  const app = new Hono<{ Variables: SesameVariables }>()
  app.on(["GET", "POST"], "/auth/*", sesame(config))
  app.get("/api/me", sessionMiddleware(config), async (c) => {
    const session = c.get("session")
    // The middleware's read and the getter's are the same one.
    expect(await getSession(c)).toEqual(session)
    return c.json({ session })
  })
  const things = async (c: Context) => keyResponse(await (api(c, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey())
  app.get("/api/things", things)
  // The same route behind the session middleware, as the README wires it for every route (`app.use("*", …)`).
  app.get("/wired/things", sessionMiddleware(config), things)
  return { adapter, app }
}

async function start({ sessions }: { sessions: boolean }) {
  const { adapter, app } = appWith(sessions)
  let close = async () => {}
  const origin = await new Promise<string>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`))
    close = () => new Promise<void>((done) => server.close(() => done()))
  })
  const send = async (path: string, options: RequestOptions = {}) => {
    const response = await fetch(request(`${origin}${path}`, options), { redirect: "manual" })
    options.jar?.apply(response)
    return response
  }
  const driver = driverOver({ origin, authPath: "/auth", adapter, send, jar: () => new CookieJar(), close })
  return { ...driver, things: (key: string, path: string) => send(path, { headers: { authorization: `Bearer ${key}` } }) }
}

apiKeyScenarios("Hono", start, "the session middleware")

describe("API keys on Hono", () => {
  // FINDING (low, documented in docs/features/api-keys.md "Limits"): with `sessions: true`, a route behind the session middleware that also calls
  // `api(c).verifyApiKey()` counts one request twice against the key's rate limit (the session
  // read's `credentialSession` counts a use, then verifyApiKey counts another): a key limited to
  // one use per hour is refused (429) at its very first request, and every limit is halved there.
  it.fails("one request behind the session middleware counts once against the key's rate limit", async () => {
    const { user, things, close } = await start({ sessions: true })
    onTestFinished(close)
    const ada = await user("ada@example.com")
    const slow = (await ada.post("create", { name: "slow", rateLimit: { max: 1, window: 3600 } })).body.result
    expect((await things(slow.key, "/wired/things")).status).toBe(200)
    expect((await things(slow.key, "/wired/things")).status).toBe(429)
  })
})
