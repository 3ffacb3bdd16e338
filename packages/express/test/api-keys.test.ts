/**
 * `@sesame/api-keys` through Express (5 and 4), over real HTTP: the scenario of
 * `packages/api-keys/test/integration-scenarios.ts` (create, list, rotate, revoke at
 * `/auth/api-keys/…`; a key as the session at `getSession(req, config)` with `sessions: true`;
 * `api(req, config).verifyApiKey()` answering 200, 429 and 401; CSRF-protected POSTs refused to a
 * key alone; one user's key never another's session) on an Express app of each major.
 */
import type { Express } from "express"
import type { ApiKeys } from "@sesame/api-keys"
import { api, getSession, SesameAuth, type ServerFunctionsOf } from "@sesame/express"
import { apiKeyScenarios, driverOver, keyResponse, sesameWithApiKeys } from "../../api-keys/test/integration-scenarios.js"
import { CookieJar, secret, send, serve, versions, type ExpressModule } from "./helpers.js"

/** The endpoints, a route reading the session, and an API route checking the key; stored users sign in by address. */
function appWith(express: ExpressModule, sessions: boolean) {
  const { adapter, config: base } = sesameWithApiKeys(sessions)
  const config = { secret, ...base }
  const app = express()
  app.use("/auth", SesameAuth(config))
  app.get("/api/me", (req, res, next) => {
    getSession(req, config).then((session) => res.json({ session }), next)
  })
  app.get("/api/things", (req, res, next) => {
    ;(api(req, config) as ServerFunctionsOf<ApiKeys>).verifyApiKey().then(async (key) => {
      const answer = keyResponse(key)
      res.status(answer.status).set(Object.fromEntries(answer.headers)).send(await answer.text())
    }, next)
  })
  return { adapter, app: app as Express }
}

for (const { label, express } of versions) {
  apiKeyScenarios(label, async ({ sessions }) => {
    const { adapter, app } = appWith(express, sessions)
    // `serve` closes the server when the test ends.
    const served = await serve(app)
    return driverOver({ origin: served.origin, authPath: "/auth", adapter, send: (path, options) => send(served, path, options), jar: () => new CookieJar() })
  })
}
