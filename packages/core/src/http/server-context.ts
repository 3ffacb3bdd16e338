/**
 * The context of a server function that an app calls with the request it is handling (session and
 * passkey management) rather than an endpoint: the configuration resolved (a lazy one is called
 * with the request) and the request read as a `GET session` would read it; and, for the functions
 * that act for the signed-in user, that user and the adapter they act through.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { resolveConfig, type ResolvedConfig } from "../config/resolve.js"
import { AuthError } from "../errors.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { createContext, type RequestContext } from "./context.js"
import { fromRequest } from "./incoming.js"
import { requestCookies } from "./request.js"

/**
 * Throws the configuration's error when it does not resolve. With `migrateFrom`, an Auth.js session
 * is read as the Sesame session it becomes (`migrate/authjs/`). A server function sends no cookies,
 * which the carrying over allows for: the browser's next request is carried over to the same session.
 */
export async function serverContext(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<RequestContext> {
  const endpoint = endpointContexts.get(request)
  if (endpoint) return endpoint
  const config = typeof configOrLazy === "function" ? await configOrLazy(request) : configOrLazy
  const resolution = resolveConfig(config)
  if (!resolution.ok) throw resolution.error
  const ctx = createContext({
    config: resolution.config,
    incoming: fromRequest(request),
    method: "GET",
    head: false,
    action: "session",
    providerId: undefined,
    query: {},
    body: {},
    cookies: requestCookies(request.headers),
  })
  for (const hook of resolution.config.hooks.beforeRequest) await hook(ctx)
  return ctx
}

/** The contexts of endpoints that call server functions, by the request they hand them (`fromEndpoint`). */
const endpointContexts = new WeakMap<Request, RequestContext>()

/** Stands in for the configuration when an endpoint calls a server function: never called, the endpoint's context has it resolved. */
const endpointConfig: LazyAuthConfig = () => {
  throw new TypeError("A server function called from an endpoint reads the endpoint's context, not a configuration.")
}

/**
 * The arguments for calling a server function from an endpoint (the built-in account page calls
 * the same functions an app's own page does, so that each rule stays in one place): the
 * endpoint's request, which the function reads as the endpoint's own context (its configuration,
 * session and queued cookies), and a placeholder for the configuration.
 */
export function fromEndpoint(ctx: RequestContext): readonly [Request, LazyAuthConfig] {
  const request = ctx.request
  endpointContexts.set(request, ctx)
  return [request, endpointConfig]
}

/**
 * What a server function that acts for the signed-in user works with: `Found` (the user, and what
 * the function read with it), the configuration and its adapter.
 */
export type ServerUser<Found extends { user: AdapterUser }> = Found & { config: ResolvedConfig; adapter: CheckedAdapter }

/**
 * The request's signed-in user for a server function, or null when the request is not signed in.
 * `adapterOf` gives the adapter the function acts through, or the error for a configuration that
 * cannot serve it (thrown before the request is read); `find` reads the user from the request.
 */
export async function signedInFor<Found extends { user: AdapterUser }>(
  request: Request,
  configOrLazy: AuthConfig | LazyAuthConfig,
  adapterOf: (config: ResolvedConfig) => CheckedAdapter | AuthError,
  find: (ctx: RequestContext, adapter: CheckedAdapter) => Promise<Found | null>,
): Promise<ServerUser<Found> | null> {
  const ctx = await serverContext(request, configOrLazy)
  const adapter = adapterOf(ctx.config)
  if (adapter instanceof AuthError) throw adapter
  const found = await find(ctx, adapter)
  return found && { ...found, config: ctx.config, adapter }
}
