/**
 * Redirect proxy, for deployments whose URL the provider cannot know in advance (preview
 * deployments): the provider only knows one callback URL, on a stable deployment (the proxy), and
 * the proxy sends each callback on to the deployment that started the sign-in.
 *
 * - The `redirect_uri` of a deployment that is not the proxy is `<redirectProxyUrl>/callback/<id>`.
 * - The state parameter names the callback URL of the deployment that started the sign-in. It is
 *   sealed with the secret (see `checks.ts`), so the proxy forwards only to URLs that a deployment
 *   sharing its secret wrote, never to one a third party chose: no open redirect.
 * - And only to origins the app lists in `trustedOrigins`. The seal alone is not enough: a
 *   deployment that took its origin from a forged header would seal the forger's origin, and the
 *   proxy would hand him the victim's authorization code. A deployment now takes its origin only
 *   from what its app trusts (`http/context.ts`), and the proxy checks the target again against
 *   its own list, so a misconfigured preview cannot leak codes to a host nobody allowed.
 * - The proxy forwards a callback when its state names another origin and the same provider. The
 *   deployment that receives it checks everything as usual (its own state, PKCE and nonce cookies),
 *   and exchanges the code with the same `redirect_uri` it sent.
 * - `form_post` callbacks are not proxied: forwarding a POST would turn it into a GET with the code
 *   in the URL, which `form_post` exists to avoid. Such sign-ins use the deployment's own callback.
 *
 * Both deployments need the same secret and the same `redirectProxyUrl` (AUTH_REDIRECT_PROXY_URL),
 * and the proxy needs the deployments' origins in `trustedOrigins` (AUTH_TRUSTED_ORIGINS).
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { readStateParameter } from "./checks.js"
import type { OAuthProvider } from "./provider.js"

function callbackPath(provider: OAuthProvider): string {
  return `/callback/${encodeURIComponent(provider.id)}`
}

/** This deployment's own callback URL for `provider`. */
export function ownCallbackUrl(ctx: RequestContext, provider: OAuthProvider): string {
  return `${ctx.authUrl}${callbackPath(provider)}`
}

function proxyOf(ctx: RequestContext, provider: OAuthProvider, formPost: boolean): string | undefined {
  const proxy = provider.redirectProxyUrl
  if (!proxy || formPost || new URL(proxy).origin === ctx.origin) return undefined
  return proxy
}

/** Whether this deployment sends `provider`'s callbacks through the redirect proxy. */
export function usesProxy(ctx: RequestContext, provider: OAuthProvider, formPost: boolean): boolean {
  return proxyOf(ctx, provider, formPost) !== undefined
}

/** The `redirect_uri` for `provider` on this deployment (the same when starting and finishing). */
export function redirectUri(ctx: RequestContext, provider: OAuthProvider, formPost: boolean): string {
  const proxy = proxyOf(ctx, provider, formPost)
  return proxy ? `${proxy}${callbackPath(provider)}` : ownCallbackUrl(ctx, provider)
}

/**
 * On the proxy: where to forward this callback, or null when it is this deployment's own.
 * `params` are the callback's query parameters.
 */
export async function forwardTarget(ctx: RequestContext, provider: OAuthProvider, params: URLSearchParams): Promise<string | null> {
  const stateValue = params.get("state")
  if (!provider.redirectProxyUrl || !stateValue) return null
  const state = await readStateParameter(ctx, stateValue)
  if (!state?.callback || state.provider !== provider.id) return null
  let target: URL
  try {
    target = new URL(state.callback)
  } catch {
    return null
  }
  if ((target.protocol !== "https:" && target.protocol !== "http:") || target.origin === ctx.origin) return null
  if (!ctx.config.trustedOrigins.matches(target.origin)) {
    ctx.config.logger.debug(`oauth: not forwarding a callback of provider "${provider.id}" to an origin outside trustedOrigins`)
    return null
  }
  target.search = params.toString()
  return target.href
}
