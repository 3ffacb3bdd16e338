/**
 * `@sesame/api-keys` through SolidStart, over real HTTP (`serve` of @sesame/testing routing to
 * `SolidAuth`'s handlers and to API routes as SolidStart calls them, with the request of their
 * event): the scenario of `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate,
 * revoke at `/api/auth/api-keys/…`; a key as the session at `getSession(request, options)` with
 * `sessions: true`; `api(request, options).verifyApiKey()` answering 200, 429 and 401;
 * CSRF-protected POSTs refused to a key alone; one user's key never another's session).
 */
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, SolidAuth, type ServerFunctionsOf, type SolidAuthConfig } from "@sesame/solid-start"
import { serve } from "@sesame/testing"
import { CookieJar, request, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { event, secret } from "./helpers.js"

/** `SolidAuth`'s handlers under /api/auth, a route reading the session, and an API route checking the key; stored users sign in by address. */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config: SolidAuthConfig = { secret, trustHost: true, ...base }
  const handlers = SolidAuth(config)
  /** `GET /api/me`: the route's `event.request` read with the getter. */
  const me = async (request: Request) => Response.json({ session: await getSession(request, config) })
  /** `GET /api/things`: the key checked with the plugin's server function. */
  const things = async (request: Request) => keyResponse(await (api(request, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey())
  async function app(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/api/auth/")) return (await (request.method === "POST" ? handlers.POST : handlers.GET)(event(request))) ?? new Response(null, { status: 404 })
    if (pathname === "/api/me") return me(request)
    if (pathname === "/api/things") return things(request)
    return new Response(null, { status: 404 })
  }
  return { adapter, app }
}

apiKeyScenarios("SolidStart", async ({ sessions }) => {
  const { adapter, app } = appWith(sessions)
  const server = await serve(app)
  const send = async (path: string, options: RequestOptions = {}) => {
    const response = await fetch(request(`${server.origin}${path}`, options), { redirect: "manual" })
    options.jar?.apply(response)
    return response
  }
  return driverOver({ origin: server.origin, authPath: "/api/auth", adapter, send, jar: () => new CookieJar(), close: () => server.close() })
})
