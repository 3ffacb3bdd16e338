/**
 * Guarding an MCP server (or any API) with access tokens from a Sesame authorization server, as
 * the MCP authorization spec asks: the protected resource's metadata (RFC 9728) naming the
 * authorization server, access tokens checked to be JWTs the server signed for this resource
 * alone (RFC 8707 audience, RFC 9068 `at+jwt`), and a `401` whose `WWW-Authenticate` points
 * clients at the metadata. It runs wherever the API runs: `jose` alone, no Sesame configuration.
 *
 * ```ts
 * import { protectedResource } from "@sesame/oauth-provider/mcp"
 *
 * const guard = protectedResource({ resource: "https://mcp.app.example/mcp", authorizationServer: "https://app.example/api/auth/oauth", scopes: ["tools:read"] })
 * // GET guard.metadataPath → Response.json(guard.metadata())
 * // each MCP request: const access = await guard.verify(request); if (!access.ok) return access.response
 * ```
 *
 * @module
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose"

export interface ProtectedResourceOptions {
  /** The resource's URL, exactly as clients name it in `resource` (the MCP server's endpoint). */
  resource: string
  /** The issuer of the Sesame authorization server (`<AUTH_URL>/oauth`). */
  authorizationServer: string
  /** The scopes the resource knows, published in its metadata. */
  scopes?: readonly string[]
  /** A name for the metadata (`resource_name`). */
  name?: string
  /** Clock skew allowed, in seconds. Default 30. */
  clockTolerance?: number
}

/** Who an access token speaks for, once checked. */
export interface Access {
  ok: true
  /** The user's id; for a client's own token (client credentials), the client's id. */
  subject: string
  clientId: string
  scopes: string[]
  claims: JWTPayload
}

/** A refusal, with the response to send as it is. */
export interface Refusal {
  ok: false
  response: Response
}

export interface ProtectedResource {
  /** Where the metadata is served on the resource's origin: `/.well-known/oauth-protected-resource` and the resource's path. */
  readonly metadataPath: string
  /** The metadata's absolute URL. */
  readonly metadataUrl: string
  /** The metadata document (RFC 9728). */
  metadata(): Record<string, unknown>
  /**
   * Checks the request's bearer token: a JWT signed by the authorization server, for this resource
   * only, unexpired, with every scope of `required`. A missing or bad token is a `401` with
   * `WWW-Authenticate: Bearer resource_metadata=…`; a token short of a scope a `403` saying which.
   */
  verify(request: Request, required?: readonly string[]): Promise<Access | Refusal>
}

export function protectedResource(options: ProtectedResourceOptions): ProtectedResource {
  const resource = new URL(options.resource)
  const issuer = options.authorizationServer.replace(/\/$/, "")
  const metadataPath = `/.well-known/oauth-protected-resource${resource.pathname === "/" ? "" : resource.pathname}`
  const metadataUrl = `${resource.origin}${metadataPath}`
  // The server's keys, found through its discovery document, fetched once and on an unknown `kid`.
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined
  let finding: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined
  const keySet = async () => {
    if (keys) return keys
    finding ??= (async () => {
      const response = await fetch(`${issuer}/.well-known/openid-configuration`, { headers: { accept: "application/json" } })
      if (!response.ok) throw new Error(`the authorization server's discovery answered ${response.status}`)
      const discovery = (await response.json()) as { issuer?: string; jwks_uri?: string }
      if (discovery.issuer !== issuer || typeof discovery.jwks_uri !== "string") throw new Error("the authorization server's discovery names another issuer or no jwks_uri")
      return (keys = createRemoteJWKSet(new URL(discovery.jwks_uri)))
    })().catch((error: unknown) => {
      finding = undefined
      throw error
    })
    return finding
  }
  const challenge = (status: 401 | 403, error?: string, description?: string, scope?: string) => {
    const parts = [`resource_metadata="${metadataUrl}"`, ...(error ? [`error="${error}"`] : []), ...(description ? [`error_description="${description}"`] : []), ...(scope ? [`scope="${scope}"`] : [])]
    return { ok: false as const, response: new Response(JSON.stringify({ error: error ?? "unauthorized" }), { status, headers: { "content-type": "application/json", "www-authenticate": `Bearer ${parts.join(", ")}`, "cache-control": "no-store" } }) }
  }
  return {
    metadataPath,
    metadataUrl,
    metadata: () => ({
      resource: options.resource,
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
      ...(options.scopes ? { scopes_supported: [...options.scopes] } : {}),
      ...(options.name ? { resource_name: options.name } : {}),
    }),
    async verify(request, required = []) {
      const header = request.headers.get("authorization") ?? ""
      const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
      // No token: the challenge alone, which tells the client where to get one (RFC 6750 §3.1).
      if (!match) return challenge(401)
      let claims: JWTPayload
      try {
        ;({ payload: claims } = await jwtVerify(match[1]!, await keySet(), {
          issuer,
          audience: options.resource,
          typ: "at+jwt",
          clockTolerance: options.clockTolerance ?? 30,
        }))
      } catch (error) {
        if (error instanceof errors.JOSEError) return challenge(401, "invalid_token", "The access token is not valid for this resource.")
        throw error
      }
      // A token for several audiences could be replayed here by any of them: only this resource's.
      if (Array.isArray(claims.aud) && claims.aud.length !== 1) return challenge(401, "invalid_token", "The access token is not valid for this resource.")
      const scopes = typeof claims.scope === "string" ? claims.scope.split(" ").filter(Boolean) : []
      const missing = required.filter((scope) => !scopes.includes(scope))
      if (missing.length > 0) return challenge(403, "insufficient_scope", "The access token lacks a scope this request needs.", required.join(" "))
      return { ok: true, subject: String(claims.sub), clientId: String(claims.client_id), scopes, claims }
    },
  }
}
