/**
 * `@sesame/api-keys` through Next.js, with `next/headers` standing in for Next (`next-request.ts`)
 * and everything of Sesame's running for real, as `server-functions.test.ts` does (no app build):
 * the scenario of `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke
 * at `/api/auth/api-keys/…` through `handlers`; a key as the session at `auth()` with `sessions:
 * true`; `api.verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs refused to a key
 * alone; one user's key never another's session), and what only Next.js has: every session read
 * also through the `auth(handler)` wrapper, which must agree with `auth()`.
 */
import { current, secret } from "./next-request.js"
import { afterEach, expect } from "vitest"
import { NextRequest } from "next/server.js"
import type { ServerFunctionsOf, Session } from "@sesame/core"
import type { ApiKeys } from "@sesame/api-keys"
import Sesame, { type PrimaryAuthConfig } from "@sesame/next"
import { CookieJar, request, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"

const origin = "https://app.example.test:8443"

afterEach(() => {
  current.jar.clear()
})

/** `handlers` under /api/auth, and two route handlers: one reading the session, one checking the key; stored users sign in by address. */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config: PrimaryAuthConfig = { secret, trustHost: true, ...base }
  const sesame = Sesame(config)
  const keys = sesame.api as ServerFunctionsOf<ApiKeys>
  const routes: Record<string, (request: NextRequest) => Promise<Response>> = {
    /** `app/api/me/route.ts`: `auth()`, and the same session through the `auth(handler)` wrapper. */
    "/api/me": async (request) => {
      const session = await sesame.auth()
      const wrapped = (await (await sesame.auth((req) => Response.json(req.auth))(request, {}))!.json()) as Session | null
      expect(wrapped).toEqual(session)
      return Response.json({ session })
    },
    /** `app/api/things/route.ts`: the key checked with the plugin's server function. */
    "/api/things": async () => keyResponse(await keys.verifyApiKey()),
  }
  /** `path` as Next.js serves it: `handlers` under /api/auth, else the route handler with `headers()` and `cookies()` of the request. */
  async function send(path: string, options: RequestOptions = {}): Promise<Response> {
    const built = new NextRequest(request(`${origin}${path}`, { ...options, headers: { host: new URL(origin).host, "x-forwarded-proto": "https", ...options.headers } }))
    let response: Response
    if (path.startsWith("/api/auth/")) response = await (built.method === "POST" ? sesame.handlers.POST : sesame.handlers.GET)(built)
    else {
      current.headers = new Headers(built.headers)
      current.jar = new Map(built.cookies.getAll().map(({ name, value }) => [name, value]))
      current.written = new Map()
      response = await (routes[new URL(built.url).pathname] ?? (() => Promise.resolve(new Response(null, { status: 404 }))))(built)
    }
    options.jar?.apply(response)
    return response
  }
  return { adapter, send }
}

apiKeyScenarios(
  "Next.js",
  async ({ sessions }) => {
    const { adapter, send } = appWith(sessions)
    return driverOver({ origin, authPath: "/api/auth", adapter, send, jar: () => new CookieJar() })
  },
  "auth()",
)
