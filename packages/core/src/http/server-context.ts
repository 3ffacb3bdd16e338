/**
 * The context of a server function that an app calls with the request it is handling (session and
 * passkey management) rather than an endpoint: the configuration resolved (a lazy one is called
 * with the request) and the request read as a `GET session` would read it.
 *
 * @module
 */
import { resolveConfig } from "../config/resolve.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { createContext, type RequestContext } from "./context.js"
import { requestCookies } from "./request.js"

/** Throws the configuration's error when it does not resolve. */
export async function serverContext(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<RequestContext> {
  const config = typeof configOrLazy === "function" ? await configOrLazy(request) : configOrLazy
  const resolution = resolveConfig(config)
  if (!resolution.ok) throw resolution.error
  return createContext({
    config: resolution.config,
    request,
    url: new URL(request.url),
    method: "GET",
    head: false,
    action: "session",
    providerId: undefined,
    query: {},
    body: {},
    cookies: requestCookies(request),
  })
}
