/**
 * `GET|POST callback/:provider` for `oauth`/`oidc` providers: checking the authorization response
 * and signing the user in.
 *
 * In order:
 * 1. On a redirect proxy, a callback whose sealed state names another deployment is forwarded
 *    there (`proxy.ts`).
 * 2. The check cookies are read and cleared (`checks.ts`); the `state` parameter must be the one
 *    the cookie holds. Failures are `InvalidCheck`.
 * 3. oauth4webapi validates the response: an `error` from the provider, a missing code, an `iss`
 *    (RFC 9207) other than the issuer's are `OAuthCallbackError`.
 * 4. The code is exchanged (with the PKCE verifier) and the tokens checked (`token.ts`), the
 *    profile read and mapped to a user (`profile.ts`).
 * 5. The verified identity goes to the sign-in decision (`account/sign-in.ts`).
 *
 * A `POST` callback is a `form_post` response: its parameters are the form fields.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { signIn } from "../account/sign-in.js"
import { timingSafeEqual } from "../crypto/timing.js"
import { InvalidCheck, OAuthCallbackError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { Profile } from "../types.js"
import { useCheckValues } from "./checks.js"
import { clientOf } from "./client.js"
import { fetchProfile, userOf, withCallbackParams } from "./profile.js"
import { loggableError } from "./protocol-error.js"
import type { OAuthProvider } from "./provider.js"
import { forwardTarget, redirectUri } from "./proxy.js"
import { authorizationServer } from "./server.js"
import { exchangeCode } from "./token.js"

function callbackParams(ctx: RequestContext): URLSearchParams {
  const source = ctx.method === "POST" ? ctx.body : ctx.query
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(source)) if (typeof value === "string") params.set(key, value)
  return params
}

function validateResponse(provider: OAuthProvider, metadata: oauth.AuthorizationServer, params: URLSearchParams, state: string | undefined) {
  try {
    return oauth.validateAuthResponse(metadata, clientOf(provider), params, state ?? oauth.expectNoState)
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new OAuthCallbackError(`Provider "${provider.id}" answered the sign-in with the error "${error.error}".`, {
        cause: loggableError(error),
      })
    }
    throw new OAuthCallbackError(`The authorization response from provider "${provider.id}" is invalid.`, { cause: loggableError(error) })
  }
}

/** The provider's word on the address; a rule that throws vouches for nothing. */
function emailVerified(provider: OAuthProvider, profile: Profile): boolean {
  try {
    return provider.isEmailVerified(profile) === true
  } catch {
    return false
  }
}

export async function finishAuthorization(ctx: RequestContext, provider: OAuthProvider): Promise<InternalResponse> {
  const params = callbackParams(ctx)
  if (ctx.method === "GET") {
    const target = await forwardTarget(ctx, provider, params)
    if (target) {
      ctx.config.logger.debug(`oauth: forwarding a callback of provider "${provider.id}" to ${new URL(target).origin}`)
      return { redirect: target }
    }
  }

  const checks = await useCheckValues(ctx, provider)
  if (checks.state !== undefined && !timingSafeEqual(params.get("state") ?? "", checks.state)) {
    throw new InvalidCheck("The state parameter does not match the state cookie.", { cause: { check: "state", provider: provider.id } })
  }
  let metadata: oauth.AuthorizationServer
  try {
    metadata = await authorizationServer(provider)
  } catch (error) {
    throw new OAuthCallbackError(`Discovering the endpoints of provider "${provider.id}" failed.`, { cause: loggableError(error) })
  }
  // Without a discovered issuer there is nothing to compare an `iss` parameter with; the callback URL,
  // which names the provider, already keeps responses of different providers apart (RFC 9700 4.4).
  if (!provider.discovery) params.delete("iss")
  const validated = validateResponse(provider, metadata, params, checks.state)
  const { tokens, idToken } = await exchangeCode(provider, metadata, validated, redirectUri(ctx, provider, ctx.method === "POST"), checks, params)
  const profile = withCallbackParams(provider, await fetchProfile(provider, metadata, tokens, idToken), params)
  const user = await userOf(provider, profile, tokens)

  return signIn(ctx, { kind: "oauth", provider, user, profile, tokens, emailVerified: !!user.email && emailVerified(provider, profile) })
}
