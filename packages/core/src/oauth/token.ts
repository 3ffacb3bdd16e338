/**
 * The token endpoint: exchanging the authorization code, and checking what comes back.
 *
 * A token response is processed by oauth4webapi, which checks an ID token's claims (`iss` against
 * the issuer, `aud` against the client id, `exp`, `iat`, and the `nonce` against the one this
 * browser's cookie holds). oauth4webapi leaves the signature to the caller (it trusts TLS); Sesame
 * checks it too, against the provider's JWKS, so that an ID token is accepted only when all of
 * these hold. A provider configured with a custom `token.request` gets the same checks: its result
 * is processed as if it were the token endpoint's response.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { InvalidEndpoints, OAuthCallbackError } from "../errors.js"
import type { CheckValues } from "./checks.js"
import { clientAuthOf, clientOf } from "./client.js"
import { httpOptions } from "./http.js"
import { loggableError } from "./protocol-error.js"
import type { OAuthProvider } from "./provider.js"
import { isIssuerTemplate, tenantIssuer } from "./tenant.js"
import type { TokenSet } from "./types.js"

export interface CodeExchange {
  tokens: TokenSet
  /** The ID token's validated claims (always present for `oidc`). */
  idToken: oauth.IDToken | undefined
}

/**
 * The token set as Sesame hands it on: `expires_at` computed from `expires_in` (oauth4webapi has
 * already lower-cased `token_type`).
 */
export function tokenSet(response: oauth.TokenEndpointResponse): TokenSet {
  const tokens: TokenSet = { ...response }
  const expiresIn = Number(response.expires_in)
  if (response.expires_in !== undefined && Number.isFinite(expiresIn)) tokens.expires_at = Math.floor(Date.now() / 1000) + expiresIn
  return tokens
}

/** Checks the signature of the ID token in an already processed token `response`, if it has one. */
export async function verifyIdTokenSignature(
  provider: OAuthProvider,
  metadata: oauth.AuthorizationServer,
  response: Response,
  tokens: oauth.TokenEndpointResponse,
): Promise<void> {
  if (tokens.id_token === undefined) return
  if (!metadata.jwks_uri) {
    throw new InvalidEndpoints(`Provider "${provider.id}" has no JWKS URL to check ID tokens with: its metadata lists none; set \`jwks_endpoint\`.`)
  }
  try {
    await oauth.validateApplicationLevelSignature(metadata, response, httpOptions(metadata.jwks_uri, provider))
  } catch (error) {
    throw new OAuthCallbackError(`The signature of the ID token from provider "${provider.id}" does not verify.`, { cause: loggableError(error) })
  }
}

async function codeGrantResponse(
  provider: OAuthProvider,
  metadata: oauth.AuthorizationServer,
  params: URLSearchParams,
  redirectUri: string,
  checks: CheckValues,
  callback: URLSearchParams,
): Promise<Response> {
  if (provider.token.request) {
    const { tokens } = await provider.token.request({
      provider: provider.config,
      params: { code: params.get("code") ?? "", redirect_uri: redirectUri, ...(checks.pkce ? { code_verifier: checks.pkce } : {}) },
      checks: { code_verifier: checks.pkce, nonce: checks.nonce, state: checks.state },
      callback: new URLSearchParams(callback),
    })
    return Response.json(tokens)
  }
  return oauth.authorizationCodeGrantRequest(
    metadata,
    clientOf(provider),
    await clientAuthOf(provider),
    params,
    redirectUri,
    checks.pkce ?? oauth.nopkce,
    { ...httpOptions(metadata.token_endpoint, provider), additionalParameters: provider.token.params },
  )
}

/**
 * Exchanges the code in `params` (from `validateAuthResponse`) for tokens, with the PKCE verifier
 * and expected nonce in `checks`, and checks the response. `callback` is the whole authorization
 * response, for a custom token request. Throws `OAuthCallbackError`.
 */
export async function exchangeCode(
  provider: OAuthProvider,
  metadata: oauth.AuthorizationServer,
  params: URLSearchParams,
  redirectUri: string,
  checks: CheckValues,
  callback: URLSearchParams = params,
): Promise<CodeExchange> {
  let response: Response
  let processed: oauth.TokenEndpointResponse
  try {
    response = await codeGrantResponse(provider, metadata, params, redirectUri, checks, callback)
    if (provider.token.conform) response = (await provider.token.conform(response.clone())) ?? response
    // The ID token of a multi-tenant endpoint names the user's tenant as issuer (`tenant.ts`).
    const claimsMetadata = isIssuerTemplate(metadata.issuer) ? { ...metadata, issuer: await tenantIssuer(metadata.issuer, response) } : metadata
    processed = await oauth.processAuthorizationCodeResponse(claimsMetadata, clientOf(provider), response, {
      expectedNonce: checks.nonce ?? oauth.expectNoNonce,
      requireIdToken: provider.type === "oidc",
    })
  } catch (error) {
    throw new OAuthCallbackError(`Exchanging the authorization code with provider "${provider.id}" failed.`, { cause: loggableError(error) })
  }
  await verifyIdTokenSignature(provider, metadata, response, processed)
  return { tokens: tokenSet(processed), idToken: oauth.getValidatedIdTokenClaims(processed) }
}
