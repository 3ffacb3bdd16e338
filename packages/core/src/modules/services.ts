/**
 * Modules' machine-to-machine APIs (`SesameModule.services`): the request handed to the service
 * whose prefix its path falls under, as it came. No cookie is read or set and no origin or CSRF
 * check made (see `ModuleService`); what the service answers goes out as it is, kept out of caches
 * unless it says otherwise. A storage outage is the `503` with `Retry-After` every endpoint
 * answers; any other failure is logged and answered `500` without its details.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { asAuthError, logUnreported, unavailableBody } from "../http/error-response.js"
import type { Incoming } from "../http/incoming.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { reportedOutage } from "../adapters/availability.js"
import { requestOrigin } from "../http/context.js"
import type { ModuleService, SesameModule } from "./types.js"

/** The service `pathname` falls under, with the rest of the path; undefined when none. */
export function serviceFor(config: ResolvedConfig, pathname: string): { module: SesameModule; service: ModuleService; path: string } | undefined {
  const base = `${config.basePath}/`
  if (!pathname.startsWith(base)) return undefined
  const path = pathname.slice(base.length)
  for (const { prefix, module, service } of config.modules.services) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return { module, service, path: path.slice(prefix.length + 1) }
  }
  return undefined
}

/** `request` without its cookies: a browser sends them by itself, so they must not reach a machine API. */
function withoutCookies(request: Request): Request {
  if (!request.headers.has("cookie")) return request
  const headers = new Headers(request.headers)
  headers.delete("cookie")
  const hasBody = request.method !== "GET" && request.method !== "HEAD"
  return new Request(request.url, { method: request.method, headers, ...(hasBody ? { body: request.body, duplex: "half" } : {}) } as RequestInit)
}

export async function runService(config: ResolvedConfig, incoming: Incoming, found: { service: ModuleService; path: string }): Promise<InternalResponse> {
  try {
    const origin = requestOrigin(incoming.headers, incoming.url, config)
    if (typeof origin !== "string") throw origin
    const response = await found.service.handle(withoutCookies(incoming.request()), { ...config.modules.context, path: found.path, authUrl: `${origin}${config.basePath}` })
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      // A service sets no cookie: what it answers is for a machine, never a browser's session.
      if (name !== "set-cookie") headers[name] = value
    })
    const body = response.status === 204 || response.status === 304 ? undefined : await response.text()
    return { status: response.status, headers: { ...noStore, ...headers }, ...(body === undefined ? {} : { body }) }
  } catch (error) {
    const unavailable = storageUnavailable(error)
    if (unavailable) {
      if (!reportedOutage(unavailable)) logUnreported(config, unavailable)
      return { status: 503, headers: { ...noStore, "Retry-After": String(unavailable.retryAfter), "Content-Type": "application/json" }, body: JSON.stringify(unavailableBody(unavailable)) }
    }
    config.logger.error(asAuthError(error))
    return { status: 500, headers: { ...noStore, "Content-Type": "application/json" }, body: JSON.stringify({ error: "ServerError" }) }
  }
}
