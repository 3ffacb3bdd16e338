/**
 * Which server a request reaches: the one of the app's fixed URL (`publicAuthUrl`: `AUTH_URL` and
 * the base path, or a loopback request's origin in development), then `/oauth`, built once per
 * issuer. None when the app has no fixed URL (`trustHost` without `AUTH_URL`): a server named
 * after a request's `Host` would let that header choose the issuer.
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import type { ResolvedOptions } from "./options.js"
import { buildServer, type Server } from "./server.js"

/** What finding the server needs of a request: a module endpoint's or service's. */
export type ServerContext = Pick<ModuleRequest, "publicAuthUrl" | "store" | "users" | "sealing" | "logger" | "signingKeys">

export type ServerFor = (context: ServerContext) => Promise<Server | null>

/**
 * With the API tokens' key ring, the server is built again when the ring's signing key changes
 * (oidc-provider takes its keys when it is made): the records it keeps are in the store, so
 * nothing in flight is lost.
 */
export function servers(options: ResolvedOptions): ServerFor {
  const built = new Map<string, { kid: string | null; server: Promise<Server> }>()
  return async (context) => {
    if (context.publicAuthUrl === null) {
      context.logger.error(new Error("oauthProvider: set AUTH_URL to the app's public URL; the authorization server never takes its issuer from a request's Host."))
      return null
    }
    const issuer = `${context.publicAuthUrl}/oauth`
    const kid = context.signingKeys ? (await context.signingKeys.signing()).kid : null
    const entry = built.get(issuer)
    if (entry && entry.kid === kid) return entry.server
    const server = buildServer(issuer, options, context)
    built.set(issuer, { kid, server })
    // A failure (the store out) is tried again at the next request, not remembered.
    server.catch(() => {
      if (built.get(issuer)?.server === server) built.delete(issuer)
    })
    return server
  }
}
