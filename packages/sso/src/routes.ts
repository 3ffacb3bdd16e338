/**
 * The connections' JSON endpoints, for an app's own admin screens: the same functions as the
 * server functions (`connections.ts`), with their checks. `GET sso/connections?organizationId=…`
 * lists; `POST sso/connections/create|update|delete` change, with the CSRF token. A refusal is
 * `{ error: code, message }` with its status.
 *
 * @module
 */
import type { ModuleRequest, ModuleResponse, ModuleRoute } from "@sesame/core"
import type { connectionApi } from "./connections.js"
import { SsoError } from "./errors.js"

type Api = ReturnType<typeof connectionApi>

function json(action: (request: ModuleRequest) => Promise<unknown>): ModuleRoute {
  return {
    async run(request): Promise<ModuleResponse> {
      try {
        const result = await action(request)
        return result === undefined ? { status: 204 } : { body: result }
      } catch (error) {
        if (error instanceof SsoError) return { status: error.status, body: { error: error.code, message: error.message } }
        throw error
      }
    },
  }
}

/** The fields of a POST other than the ids and the CSRF token: what the connection is given. */
function input(request: ModuleRequest): Record<string, unknown> {
  const { csrfToken: _token, organizationId: _org, connectionId: _id, ...rest } = request.body
  return rest
}

const id = (request: ModuleRequest, name: string): string => (request.method === "GET" ? request.query[name] : request.body[name]) as string

export function connectionRoutes(api: Api): Record<string, ModuleRoute> {
  return {
    "GET sso/connections": json((r) => api.listConnections(r, id(r, "organizationId"))),
    "GET sso/connections/one": json((r) => api.getConnection(r, id(r, "organizationId"), id(r, "connectionId"))),
    "POST sso/connections/create": json((r) => api.createConnection(r, id(r, "organizationId"), input(r) as never)),
    "POST sso/connections/update": json((r) => api.updateConnection(r, id(r, "organizationId"), id(r, "connectionId"), input(r))),
    "POST sso/connections/delete": json((r) => api.deleteConnection(r, id(r, "organizationId"), id(r, "connectionId"))),
  }
}
