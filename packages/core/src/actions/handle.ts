/**
 * Handling one request, whatever carried it (see `incoming.ts`): the configuration resolved, the
 * request read into a context, the dispatcher run, and any failure turned into its answer. `Auth()`
 * and the Node.js handler differ only in how they read the request and write the answer.
 *
 * @module
 */
import { withActingBanner } from "../pages/acting-banner.js"
import { dispatch } from "./index.js"
import { runService, serviceFor } from "../modules/services.js"
import { endpointNames } from "../config/features.js"
import { resolveConfig } from "../config/resolve.js"
import { reportedOutage } from "../adapters/availability.js"
import { putBack } from "../adapters/one-time-tokens.js"
import { storageUnavailable } from "../adapters/unavailable.js"
import { AuthError, BadRequest } from "../errors.js"
import { printError } from "../logger.js"
import { raw } from "../symbols.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { withoutSessionCookie } from "../http/bearer.js"
import { createContext, type RequestContext } from "../http/context.js"
import { asAuthError, badRequestResponse, configurationJson, configurationResponse, errorResponse, logUnreported } from "../http/error-response.js"
import type { Incoming } from "../http/incoming.js"
import { matchRoute, parseBody, parseQuery, requestCookies } from "../http/request.js"
import type { InternalResponse, ResponseOptions } from "../http/response.js"

/** The answer to a request, and how to write it. */
export interface Handled {
  internal: InternalResponse
  options: ResponseOptions
  /** The configuration asked for the internal response (`raw`): `Auth()` returns it as it is. */
  raw: boolean
  /**
   * The path is under the configuration's base path. When it is not, the answer is a `400` and the
   * body was not read, so a framework's middleware can pass the request on instead.
   */
  ours: boolean
}

/** The configuration a lazy one gives for the request, or the error it threw. */
async function configOf(incoming: Incoming, lazy: LazyAuthConfig): Promise<AuthConfig | Error> {
  try {
    return await lazy(incoming.request())
  } catch (error) {
    return new Error("The lazy configuration function threw.", { cause: error instanceof Error ? error : new Error(String(error)) })
  }
}

/**
 * The answer to `incoming`. Never throws, except in `raw` mode, where the configuration's and the
 * flows' `AuthError`s are thrown for the integration to handle (a client's mistake stays its 4xx).
 */
export async function handle(incoming: Incoming, configOrLazy: AuthConfig | LazyAuthConfig): Promise<Handled> {
  const head = incoming.method === "HEAD"
  // Awaited only when lazy: an await more per request is measurable on a session check.
  const config = typeof configOrLazy === "function" ? await configOf(incoming, configOrLazy) : configOrLazy
  if (config instanceof Error) {
    // No configuration, so no configured logger: the built-in one prints it.
    printError(config)
    return { internal: configurationJson(), options: { returnRedirect: false, head }, raw: false, ours: true }
  }
  // Only the symbol itself: a truthy value that merely looks like it must not change what is returned.
  const isRaw = config?.raw === raw
  const resolution = resolveConfig(config)
  const { url } = incoming
  const method = head ? "GET" : incoming.method
  const basePath = resolution.ok ? resolution.config.basePath : resolution.basePath
  const route = matchRoute(url.pathname, basePath, endpointNames(), resolution.ok ? resolution.config.modules.paths : undefined)
  const ours = url.pathname.startsWith(`${basePath}/`)
  const finish = (internal: InternalResponse, ctx?: RequestContext): Handled => ({
    internal: ctx?.bearer && internal.cookies ? { ...internal, cookies: withoutSessionCookie(internal.cookies, ctx.cookieOptions.sessionToken.name) } : internal,
    options: { returnRedirect: ctx?.returnRedirect ?? false, head },
    raw: isRaw,
    ours,
  })
  if (!resolution.ok) {
    if (isRaw) throw resolution.error
    resolution.logger.error(resolution.error)
    return finish(configurationResponse(resolution, route?.action, method, incoming))
  }
  const resolved = resolution.config

  // A module's machine-to-machine API takes the request as it came: any method, no cookie.
  const service = serviceFor(resolved, url.pathname)
  if (service) return finish((await resolved.hooks.limiter?.service(resolved, incoming)) ?? (await runService(resolved, incoming, service)))

  let ctx: RequestContext
  try {
    if (method !== "GET" && method !== "POST") throw new BadRequest(`Method ${incoming.method} is not supported.`)
    if (!route) throw new BadRequest(`${url.pathname} is not an authentication endpoint.`)
    const query = parseQuery(url.searchParams)
    const body = method === "POST" ? await parseBody(incoming) : {}
    ctx = createContext({
      config: resolved,
      incoming,
      method,
      head,
      action: route.action,
      providerId: route.providerId,
      modulePath: route.modulePath,
      query,
      body,
      cookies: requestCookies(incoming.headers),
    })
  } catch (error) {
    if (error instanceof BadRequest) {
      resolved.logger.debug(`bad request: ${error.message}`)
      return finish(badRequestResponse(error))
    }
    // The configuration refuses this request (a host it does not trust): the configuration error.
    const authError = asAuthError(error)
    resolved.logger.error(authError)
    if (isRaw) throw authError
    const known = { basePath: resolved.basePath, pages: resolved.pages, publicOrigin: resolved.publicUrl?.origin }
    return finish(configurationResponse(known, route?.action, method, incoming))
  }

  try {
    // A capability's hook runs before anything reads the session (an Auth.js session carried over).
    for (const hook of resolved.hooks.beforeRequest) await hook(ctx)
    return finish(await withActingBanner(ctx, await dispatch(ctx)), ctx)
  } catch (error) {
    const unavailable = storageUnavailable(error)
    // What the request used up is put back: the 503 it gets asks the visitor to try again.
    if (unavailable && resolved.adapter && ctx.spentOneTime.length > 0) putBack(resolved.adapter, ctx.spentOneTime)
    // Raw callers get the error to handle, except a client's mistake, which stays its 4xx answer;
    // a storage outage as itself, however deep a flow's error carries it.
    if (isRaw && unavailable) {
      if (!reportedOutage(unavailable)) logUnreported(resolved, unavailable)
      throw unavailable
    }
    if (isRaw && error instanceof AuthError && !(error instanceof BadRequest) && !ctx.returnRedirect) {
      resolved.logger.error(error)
      throw error
    }
    try {
      return finish(await errorResponse(ctx, error), ctx)
    } catch (secondary) {
      resolved.logger.error(asAuthError(secondary))
      return finish(configurationJson())
    }
  }
}
