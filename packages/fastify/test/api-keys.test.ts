/**
 * `@sesame/api-keys` through Fastify, over real HTTP and through `fastify.inject`: the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`; a key as the session at `getSession(request, reply, config)` with
 * `sessions: true`; `api(request, config).verifyApiKey()` answering 200, 429 and 401;
 * CSRF-protected POSTs refused to a key alone; one user's key never another's session).
 */
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, type ServerFunctionsOf } from "@sesame/fastify"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { appWith, CookieJar, secret, send, transports } from "./helpers.js"

for (const { label, serve } of transports) {
  apiKeyScenarios(`Fastify, ${label}`, async ({ sessions }) => {
    const { adapter, config: base } = sesameWithApiKeys(sessions)
    const config = { secret, ...base }
    const app = await appWith(config)
    app.get("/api/me", async (request, reply) => ({ session: await getSession(request, reply, config) }))
    app.get("/api/things", async (request, reply) => {
      const answer = keyResponse(await (api(request, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey())
      return reply.code(answer.status).headers(Object.fromEntries(answer.headers)).send(await answer.text())
    })
    // `serve` closes the app when the test ends.
    const served = await serve(app)
    return driverOver({ origin: served.origin, authPath: "/auth", adapter, send: (path, options) => send(served, path, options), jar: () => new CookieJar() })
  })
}
