/**
 * `@sesame/api-keys` through Astro, over real HTTP (`serve` of @sesame/testing in front of the
 * Astro app of helpers.ts: Astro's own middleware pieces and contexts): the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`; a key as the session at `getSession(context)` with `sessions: true`;
 * `api(context).verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs refused to a key
 * alone; one user's key never another's session).
 */
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, sesame, sessionMiddleware, type AuthConfig, type ServerFunctionsOf } from "@sesame/astro"
import { serve } from "@sesame/testing"
import { CookieJar, request, secret, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { handle, type Site } from "./helpers.js"

/**
 * The endpoint under /auth; `/api/me` reading the session behind the middleware; `/api/things`
 * checking the key in an app without the middleware, as in the other integrations' scenarios
 * (behind it, a key counts twice per request: docs/features/api-keys.md, "Limits").
 */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config: AuthConfig = { secret, trustHost: true, ...base }
  const withSession: Site = {
    onRequest: sessionMiddleware(config),
    endpoints: { "/auth/*": sesame(config), "/api/me": { GET: async (context) => Response.json({ session: await getSession(context) }) } },
  }
  const withoutSession: Site = {
    endpoints: { "/api/things": { GET: async (context) => keyResponse(await (api(context, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey()) } },
  }
  const app = (incoming: Request) => handle(new URL(incoming.url).pathname === "/api/things" ? withoutSession : withSession, incoming)
  return { adapter, app }
}

apiKeyScenarios("Astro", async ({ sessions }) => {
  const { adapter, app } = appWith(sessions)
  const server = await serve(app)
  const send = async (path: string, options: RequestOptions = {}) => {
    const response = await fetch(request(`${server.origin}${path}`, options), { redirect: "manual" })
    options.jar?.apply(response)
    return response
  }
  return driverOver({ origin: server.origin, authPath: "/auth", adapter, send, jar: () => new CookieJar(), close: () => server.close() })
}, "the session middleware")
