/**
 * `@sesame/core/api-tokens`: the app's side of API tokens (`apiTokens` in the configuration), for
 * its server code. The endpoints do the same for the browser: `GET <basePath>/token` and
 * `GET <basePath>/jwks`. Services that receive the tokens check them with `@sesame/core/verify`.
 *
 * ```ts
 * import { getApiToken, apiTokenKeys } from "@sesame/core/api-tokens"
 * const issued = await getApiToken(request, config) // null when nobody is signed in
 * await fetch("https://api.example.com/orders", { headers: { authorization: `Bearer ${issued.token}` } })
 * // a key set at the well-known path, beside <basePath>/jwks:
 * app.get("/.well-known/jwks.json", async () => Response.json(await apiTokenKeys(config)))
 * ```
 *
 * Not to be confused with `getAccessToken`, which returns a provider's tokens (GitHub's, Google's)
 * for calling that provider's API: these are the app's own tokens about its own user.
 *
 * @module
 */
import type { JSONWebKeySet } from "jose"
import { resolveConfig } from "./config/resolve.js"
import type { ResponseCookie } from "./http/cookies.js"
import { getFromCore } from "./integration/core-request.js"
import type { RequestLike } from "./integration/origin.js"
import { publishedKeys, type IssuedApiToken } from "./tokens/issue.js"
import type { AuthConfig } from "./types.js"

export type { IssuedApiToken } from "./tokens/issue.js"

/** An API token for the request's user, and the session cookies the read refreshed. */
export interface ApiTokenGrant extends IssuedApiToken {
  /** Cookies to set on the response, as after any session read (see `readSession`). */
  readonly cookies: readonly ResponseCookie[]
}

/**
 * An API token for the signed-in user of `request` (its cookies), as `GET <basePath>/token` gives
 * it; null when nobody is signed in. Throws an `AuthError` when `apiTokens` is not configured or
 * the configuration cannot be used.
 */
export async function getApiToken(request: RequestLike, config: AuthConfig): Promise<ApiTokenGrant | null> {
  // The endpoint refuses what the browser says another site started; the app's own server asks
  // here, whatever link brought the browser to the page it is rendering.
  const headers = new Headers(request.headers)
  headers.delete("sec-fetch-site")
  const response = await getFromCore(config, { headers, url: request.url }, "token")
  if ((response.status ?? 200) !== 200) return null
  return { ...(response.body as IssuedApiToken), cookies: response.cookies ?? [] }
}

/** The public keys that verify the app's API tokens, as `GET <basePath>/jwks` publishes them. */
export async function apiTokenKeys(config: AuthConfig): Promise<JSONWebKeySet> {
  const resolution = resolveConfig(config)
  if (!resolution.ok) throw resolution.error
  if (!resolution.config.apiTokens) throw new TypeError("apiTokenKeys: `apiTokens` is not configured.")
  return publishedKeys(resolution.config.apiTokens)
}
