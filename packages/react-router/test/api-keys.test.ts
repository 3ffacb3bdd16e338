/**
 * `@sesame/api-keys` through React Router, over real HTTP (`serve` of @sesame/testing in front of
 * React Router's server runtime, as helpers.ts builds it): the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`; a key as the session at `getSession(args)` with `sessions: true`;
 * `api(args).verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs refused to a key
 * alone; one user's key never another's session).
 */
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, sesame, sessionMiddleware, type AuthConfig, type ServerFunctionsOf } from "@sesame/react-router"
import { serve } from "@sesame/testing"
import { describe, expect, it, onTestFinished } from "vitest"
import { CookieJar, request, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { appFor, secret } from "./helpers.js"

type Args = { request: Request; context: unknown }

/**
 * The auth resource route under /auth; a resource route reading the session, behind the session
 * middleware of a pathless layout route; one checking the key without it, as in the other
 * integrations' scenarios; and the same check behind the middleware (`/wired/things`).
 */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config: AuthConfig = { secret, trustHost: true, ...base }
  const things = async (args: Args) => keyResponse(await (api(args, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey())
  const app = appFor(
    {},
    {
      "routes/auth": { path: "auth/*", module: sesame(config) },
      "routes/with-session": { module: { default: () => null, middleware: [sessionMiddleware(config)] } },
      "routes/me": { path: "api/me", parentId: "routes/with-session", module: { loader: async (args: Args) => Response.json({ session: await getSession(args) }) } },
      "routes/wired": { path: "wired/things", parentId: "routes/with-session", module: { loader: things } },
      "routes/things": { path: "api/things", module: { loader: things } },
    },
  )
  return { adapter, app }
}

async function start({ sessions }: { sessions: boolean }) {
  const { adapter, app } = appWith(sessions)
  const server = await serve(app)
  const send = async (path: string, options: RequestOptions = {}) => {
    const response = await fetch(request(`${server.origin}${path}`, options), { redirect: "manual" })
    options.jar?.apply(response)
    return response
  }
  const driver = driverOver({ origin: server.origin, authPath: "/auth", adapter, send, jar: () => new CookieJar(), close: () => server.close() })
  return { ...driver, things: (key: string, path: string) => send(path, { headers: { authorization: `Bearer ${key}` } }) }
}

apiKeyScenarios("React Router", start, "the session middleware")

describe("API keys on React Router", () => {
  // The known limit of every integration whose session middleware reads a key as the session
  // (docs/features/api-keys.md, "Limits"; Hono's test pins the same): with `sessions: true`, a
  // route behind the middleware that also calls verifyApiKey() counts the key twice per request.
  it.fails("one request behind the session middleware counts once against the key's rate limit", async () => {
    const { user, things, close } = await start({ sessions: true })
    onTestFinished(close)
    const ada = await user("ada@example.com")
    const slow = (await ada.post("create", { name: "slow", rateLimit: { max: 1, window: 3600 } })).body.result
    expect((await things(slow.key, "/wired/things")).status).toBe(200)
    expect((await things(slow.key, "/wired/things")).status).toBe(429)
  })
})
