/**
 * `POST signin/:provider` for `oauth`/`oidc` providers: the authorization request.
 *
 * The browser is sent to the authorization endpoint with `response_type=code`, the client id, the
 * `redirect_uri`, the provider's `authorization.params`, and the request's own parameters (query
 * and form fields other than `csrfToken` and `callbackUrl`, e.g. `login_hint` or `prompt`; they
 * win over the provider's). The parameters that bind the response to this request
 * (`response_type`, `client_id`, `redirect_uri`, `state`, `nonce`, `code_challenge`,
 * `code_challenge_method`) are always Sesame's own. The check values go into their cookies, and
 * the callback URL into its cookie.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { InvalidEndpoints, OAuthSignInError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { crossSiteCookieOptions } from "../http/cookies.js"
import type { InternalResponse } from "../http/response.js"
import { checkCookies, newCheckValues } from "./checks.js"
import { loggableError } from "./protocol-error.js"
import type { OAuthProvider } from "./provider.js"
import { ownCallbackUrl, redirectUri, usesProxy } from "./proxy.js"
import { authorizationServer } from "./server.js"

const reserved: ReadonlySet<string> = new Set([
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
])
/** Fields of the sign-in request that are Sesame's, not the provider's. */
const ownFields: ReadonlySet<string> = new Set(["csrfToken", "callbackUrl"])

async function authorizationEndpoint(provider: OAuthProvider): Promise<URL> {
  if (provider.authorization.url) return new URL(provider.authorization.url)
  let metadata: oauth.AuthorizationServer
  try {
    metadata = await authorizationServer(provider)
  } catch (error) {
    throw new OAuthSignInError(`Discovering the endpoints of provider "${provider.id}" failed.`, { cause: loggableError(error) })
  }
  if (!metadata.authorization_endpoint) {
    throw new InvalidEndpoints(`Provider "${provider.id}" has no authorization endpoint: its metadata lists none and none is configured.`)
  }
  return new URL(metadata.authorization_endpoint)
}

function requestParams(ctx: RequestContext): [string, string][] {
  const entries = [...Object.entries(ctx.query), ...Object.entries(ctx.body)]
  return entries.filter((entry): entry is [string, string] => typeof entry[1] === "string" && !ownFields.has(entry[0]))
}

/**
 * The authorization request for `provider`. `extra`: the request's own parameters, in place of the
 * request's fields (a module starting a sign-in chooses them itself).
 */
export async function startAuthorization(ctx: RequestContext, provider: OAuthProvider, extra?: Readonly<Record<string, string>>): Promise<InternalResponse> {
  const url = await authorizationEndpoint(provider)
  const params = url.searchParams
  for (const [key, value] of Object.entries(provider.authorization.params)) params.set(key, value)
  for (const [key, value] of extra ? Object.entries(extra) : requestParams(ctx)) params.set(key, value)
  const formPost = params.get("response_mode") === "form_post"

  for (const name of reserved) params.delete(name)
  params.delete(provider.authorization.clientIdParameter)
  params.set("response_type", "code")
  params.set(provider.authorization.clientIdParameter, provider.clientId)
  params.set("redirect_uri", redirectUri(ctx, provider, formPost))
  const callback = usesProxy(ctx, provider, formPost) ? ownCallbackUrl(ctx, provider) : undefined
  const values = await newCheckValues(ctx, provider, callback ? { provider: provider.id, callback } : { provider: provider.id })
  if (values.pkce) {
    params.set("code_challenge", await oauth.calculatePKCECodeChallenge(values.pkce))
    params.set("code_challenge_method", "S256")
  }
  if (values.state) params.set("state", values.state)
  if (values.nonce) params.set("nonce", values.nonce)

  ctx.setCookies.push(...(await checkCookies(ctx, provider, values, formPost)))
  const { name, options } = ctx.cookieOptions.callbackUrl
  ctx.setCookies.push({ name, value: await ctx.callbackUrl(), options: formPost ? crossSiteCookieOptions(options, ctx.secure) : options })
  ctx.config.logger.debug(`oauth: authorization request for provider "${provider.id}"`, { checks: [...provider.checks], formPost })
  return { redirect: url.href, cookies: ctx.setCookies }
}
