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
import { BadRequest } from "../errors.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { asAuthError, logUnreported, unavailableBody } from "../http/error-response.js"
import type { Incoming } from "../http/incoming.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { reportedOutage } from "../adapters/availability.js"
import { createContext, requestOrigin } from "../http/context.js"
import { setPeerAddress } from "../http/client-ip.js"
import { fixedAuthUrl } from "../http/issuer.js"
import { requestCookies } from "../http/request.js"
import { signedInUser } from "../session/index.js"
import type { AdapterUser } from "../adapters/types.js"
import type { User } from "../types.js"
import { checkPluginEvent, emitSecurity, type SecurityEventInput } from "../security-events.js"
import type { ModuleService, ModuleServiceContext, SesameModule } from "./types.js"

/**
 * The service `pathname` falls under, with the rest of the path; undefined when none. A module's
 * endpoint under its service's prefix stays the endpoint (an authorization server's consent page
 * beside its protocol endpoints).
 */
export function serviceFor(config: ResolvedConfig, pathname: string): { module: SesameModule; service: ModuleService; path: string } | undefined {
  const base = `${config.basePath}/`
  if (!pathname.startsWith(base)) return undefined
  const path = pathname.slice(base.length)
  if (config.modules.paths.has(path)) return undefined
  for (const { prefix, module, service } of config.modules.services) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return { module, service, path: path.slice(prefix.length + 1) }
  }
  return undefined
}

/**
 * Whether cookie `name` is the module's own: named as its endpoints' cookies are
 * (`[__Secure-]sesame.<id>.…`, `http/cookies.ts`), so that its endpoints read what its service set.
 */
function ownCookie(module: SesameModule, name: string): boolean {
  return name.replace(/^__Secure-/, "").startsWith(`sesame.${module.id}.`)
}

/**
 * `request` with only the cookies `keep` allows: a browser sends cookies by itself, so none
 * reaches a machine API, and a browser service sees only its own (never Sesame's session token).
 */
function withCookies(request: Request, keep: (name: string) => boolean): Request {
  const cookie = request.headers.get("cookie")
  if (cookie === null) return request
  const kept = cookie
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "" && keep(pair.slice(0, pair.indexOf("=") >>> 0)))
  const headers = new Headers(request.headers)
  if (kept.length > 0) headers.set("cookie", kept.join("; "))
  else headers.delete("cookie")
  const hasBody = request.method !== "GET" && request.method !== "HEAD"
  return new Request(request.url, { method: request.method, headers, ...(hasBody ? { body: request.body, duplex: "half" } : {}) } as RequestInit)
}

/**
 * The request the service is handed, with its body: read here within the core's limit (a `413`
 * beyond), whatever carried the request. A Node.js request's body is only in its web `Request`
 * once read (`toNodeHandler`), and a web `Request`'s is read once.
 */
async function withBody(incoming: Incoming): Promise<Request> {
  if (incoming.method === "GET" || incoming.method === "HEAD") return incoming.request()
  const bytes = await incoming.body()
  const original = incoming.request()
  return new Request(original.url, { method: original.method, headers: original.headers, ...(bytes.byteLength > 0 ? { body: bytes as Uint8Array<ArrayBuffer> } : {}) })
}

/** The signed-in user as a browser service reads it: the core's rule, on a context made for the read alone. */
function signedInFor(config: ResolvedConfig, incoming: Incoming): () => Promise<User | AdapterUser | null> {
  let read: Promise<User | AdapterUser | null> | undefined
  return () =>
    (read ??= signedInUser(
      createContext({ config, incoming, method: "GET", head: false, action: "session", providerId: undefined, query: {}, body: {}, cookies: requestCookies(incoming.headers) }),
    ))
}

export async function runService(config: ResolvedConfig, incoming: Incoming, found: { module: SesameModule; service: ModuleService; path: string }): Promise<InternalResponse> {
  try {
    const origin = requestOrigin(incoming.headers, incoming.url, config)
    if (typeof origin !== "string") throw origin
    const { module, service } = found
    const browser = service.browser === true
    const request = withCookies(await withBody(incoming), (name) => browser && ownCookie(module, name))
    setPeerAddress(request, incoming.peer)
    const user = browser ? signedInFor(config, incoming) : undefined
    const securityEvent = async (event: SecurityEventInput) => {
      const input = checkPluginEvent(event)
      const actorId = input.actorId !== undefined ? input.actorId : user ? ((await user())?.id ?? null) : null
      await emitSecurity(config, incoming.headers, { ...input, actorId })
    }
    const context: ModuleServiceContext = { ...config.modules.context, path: found.path, authUrl: `${origin}${config.basePath}`, publicAuthUrl: fixedAuthUrl({ config, origin, url: incoming.url }), securityEvent, ...(user ? { user } : {}) }
    const response = await service.handle(request, context)
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      // A service sets no cookie of Sesame's: a machine API none, a browser service only its own.
      if (name !== "set-cookie") headers[name] = value
    })
    const cookies = browser ? response.headers.getSetCookie().filter((line) => ownCookie(module, line.slice(0, line.indexOf("=") >>> 0).trim())) : []
    const body = response.status === 204 || response.status === 304 ? undefined : await response.text()
    return {
      status: response.status,
      headers: { ...noStore, ...headers },
      ...(cookies.length > 0 ? { setCookieLines: cookies } : {}),
      ...(body === undefined ? {} : { body }),
    }
  } catch (error) {
    if (error instanceof BadRequest) return { status: error.status, headers: { ...noStore, "Content-Type": "application/json" }, body: JSON.stringify({ error: "BadRequest", message: error.message }) }
    const unavailable = storageUnavailable(error)
    if (unavailable) {
      if (!reportedOutage(unavailable)) logUnreported(config, unavailable)
      return { status: 503, headers: { ...noStore, "Retry-After": String(unavailable.retryAfter), "Content-Type": "application/json" }, body: JSON.stringify(unavailableBody(unavailable)) }
    }
    config.logger.error(asAuthError(error))
    return { status: 500, headers: { ...noStore, "Content-Type": "application/json" }, body: JSON.stringify({ error: "ServerError" }) }
  }
}
