/**
 * The authorization server's metadata: discovered from `issuer` (OpenID Connect Discovery) or
 * `wellKnown`, then overridden by the endpoints the provider sets, or made of those endpoints alone.
 *
 * The result is kept for an hour per provider. Besides saving a round trip per sign-in, keeping
 * the same object matters: oauth4webapi caches the provider's JWKS per metadata object. A failed
 * discovery is not kept, so the next sign-in tries again.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { httpOptions } from "./http.js"
import type { OAuthProvider } from "./provider.js"
import { isIssuerTemplate, matchesIssuerTemplate } from "./tenant.js"

const ttl = 60 * 60 * 1000

const cache = new WeakMap<OAuthProvider, { metadata: Promise<oauth.AuthorizationServer>; expires: number }>()

/**
 * The issuer of a provider configured by endpoints only: its configured `issuer`, which ID tokens
 * and RFC 9207 `iss` parameters are then checked against (as in Auth.js), or, without one, a
 * placeholder that only fills the required field; `.invalid` (RFC 2606) keeps it from ever naming a
 * real server.
 */
function endpointsOnlyIssuer(provider: OAuthProvider): string {
  return provider.issuer ?? `https://${encodeURIComponent(provider.id)}.issuer.invalid`
}

async function baseMetadata(provider: OAuthProvider): Promise<oauth.AuthorizationServer> {
  if (!provider.discovery) return { issuer: endpointsOnlyIssuer(provider) }
  if (provider.wellKnown) {
    const response = await (provider.fetch ?? fetch)(provider.wellKnown.href, { headers: { accept: "application/json" }, redirect: "manual" })
    // Without a configured issuer, the document names it: the wellKnown URL is the trust anchor.
    const expected = provider.issuer ?? (await issuerNamedIn(response.clone()))
    return oauth.processDiscoveryResponse(new URL(expected), response)
  }
  // Discovery without wellKnown is discovery from the issuer (see `resolveOAuthProvider`).
  const configured = provider.issuer ?? ""
  const issuer = new URL(configured)
  const response = await oauth.discoveryRequest(issuer, httpOptions(issuer, provider))
  // A multi-tenant endpoint (`…/common/v2.0`) names a template as its issuer (`tenant.ts`).
  const named = await issuerNamedIn(response.clone()).catch(() => undefined)
  const expected = named !== undefined && isIssuerTemplate(named) && matchesIssuerTemplate(named, configured) ? named : configured
  // Both sides of oauth4webapi's comparison go through `new URL`, which encodes the braces alike.
  return oauth.processDiscoveryResponse(new URL(expected), response)
}

async function issuerNamedIn(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null)
  const issuer = body && typeof body === "object" ? (body as { issuer?: unknown }).issuer : undefined
  if (typeof issuer !== "string") throw new TypeError("The discovery document names no issuer.")
  return issuer
}

async function metadataOf(provider: OAuthProvider): Promise<oauth.AuthorizationServer> {
  const base = await baseMetadata(provider)
  return {
    ...base,
    ...(provider.authorization.url ? { authorization_endpoint: provider.authorization.url.href } : {}),
    ...(provider.token.url ? { token_endpoint: provider.token.url.href } : {}),
    ...(provider.userinfo.url ? { userinfo_endpoint: provider.userinfo.url.href } : {}),
    ...(provider.jwksUri ? { jwks_uri: provider.jwksUri.href } : {}),
  }
}

/** The provider's authorization server metadata (cached; see the module comment). */
export function authorizationServer(provider: OAuthProvider): Promise<oauth.AuthorizationServer> {
  const cached = cache.get(provider)
  if (cached && cached.expires > Date.now()) return cached.metadata
  const metadata = metadataOf(provider)
  cache.set(provider, { metadata, expires: Date.now() + ttl })
  metadata.catch(() => {
    if (cache.get(provider)?.metadata === metadata) cache.delete(provider)
  })
  return metadata
}
