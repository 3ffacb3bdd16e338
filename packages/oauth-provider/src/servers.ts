/**
 * Which server a request reaches: the one of the app's configured URL (`AUTH_URL` and the base
 * path, then `/oauth`), built once per issuer. Without `AUTH_URL` only a loopback host has one
 * (development): a server named after a request's `Host` would let that header choose the issuer.
 *
 * @module
 */
import type { ModuleContext } from "@sesame/core"
import type { ResolvedOptions } from "./options.js"
import { buildServer, type Server } from "./server.js"

const loopback = new Set(["localhost", "127.0.0.1", "[::1]"])

export type ServerFor = (context: ModuleContext, authUrl: string) => Promise<Server | null>

export function servers(options: ResolvedOptions): ServerFor {
  const built = new Map<string, Promise<Server>>()
  return (context, authUrl) => {
    const base = context.publicAuthUrl ?? (loopback.has(new URL(authUrl).hostname) ? authUrl : null)
    if (base === null) {
      context.logger.error(new Error("oauthProvider: set AUTH_URL to the app's public URL; the authorization server never takes its issuer from a request's Host."))
      return Promise.resolve(null)
    }
    const issuer = `${base}/oauth`
    let server = built.get(issuer)
    if (!server) {
      server = buildServer(issuer, options, context)
      built.set(issuer, server)
      // A failure (the store out) is tried again at the next request, not remembered.
      server.catch(() => built.delete(issuer))
    }
    return server
  }
}
