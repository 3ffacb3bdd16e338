/**
 * `@sesame/api-keys` through SvelteKit's `handle` hook, as `plugin-api.test.ts` runs it (events
 * made here, with `event.cookies` as SvelteKit keeps them; no app build): the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`, which the hook serves; a key as the session at `event.locals.auth()` with
 * `sessions: true`; `api(event).verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs
 * refused to a key alone; one user's key never another's session).
 */
import type { Cookies, RequestEvent } from "@sveltejs/kit"
import type { ApiKeys } from "@sesame/api-keys"
import { SvelteKitAuth, type ServerFunctionsOf, type SvelteKitAuthConfig } from "../src/index.js"
import { CookieJar, origin, request, secret, type RequestOptions } from "../../core/test/helpers.js"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"

/** `event.cookies` as SvelteKit keeps them: the request's, with those set during the request (`set`) in their place. */
function kitCookies(request: Request, set: Map<string, string>): Cookies {
  const sent = new Map<string, string>()
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = pair.indexOf("=")
    if (eq > 0) sent.set(pair.slice(0, eq).trim(), decodeURIComponent(pair.slice(eq + 1).trim()))
  }
  return {
    get: (name) => (set.has(name) ? set.get(name) : sent.get(name)),
    getAll: () => [...new Map([...sent, ...set])].map(([name, value]) => ({ name, value })),
    set: (name, value) => void set.set(name, value),
    delete: (name) => void set.set(name, ""),
    serialize: () => {
      throw new Error("not used")
    },
  }
}

/** The hook serving /auth, a route reading the session, and an API route checking the key; stored users sign in by address. */
function appWith(sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config: SvelteKitAuthConfig = { secret, ...base }
  const { handle, api } = SvelteKitAuth(config)
  const routes: Record<string, (event: RequestEvent) => Promise<Response>> = {
    /** `src/routes/api/me/+server.ts`: the session `locals.auth()` reads. */
    "/api/me": async (event) => Response.json({ session: await event.locals.auth() }),
    /** `src/routes/api/things/+server.ts`: the key checked with the plugin's server function. */
    "/api/things": async (event) => keyResponse(await (api(event) as ServerFunctionsOf<ApiKeys>).verifyApiKey()),
  }
  /** `path` through `handle`, resolved by the route of its path; the answer's cookies, and those set through `event.cookies`, into `options.jar`. */
  async function send(path: string, options: RequestOptions = {}): Promise<Response> {
    const built = request(`${origin}${path}`, options)
    const set = new Map<string, string>()
    const url = new URL(built.url)
    const event = { request: built, url, locals: {}, cookies: kitCookies(built, set), params: {}, route: { id: url.pathname } } as unknown as RequestEvent
    const route = routes[url.pathname] ?? (() => Promise.resolve(new Response(null, { status: 404 })))
    const response = await handle({ event, resolve: route })
    options.jar?.apply(response)
    for (const [name, value] of set) {
      if (value === "") options.jar?.cookies.delete(name)
      else options.jar?.cookies.set(name, encodeURIComponent(value))
    }
    return response
  }
  return { adapter, send }
}

apiKeyScenarios(
  "SvelteKit",
  async ({ sessions }) => {
    const { adapter, send } = appWith(sessions)
    return driverOver({ origin, authPath: "/auth", adapter, send, jar: () => new CookieJar() })
  },
  "locals.auth()",
)
