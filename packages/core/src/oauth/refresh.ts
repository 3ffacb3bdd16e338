/**
 * Provider access tokens for calling the provider's APIs on a user's behalf, refreshed when they
 * have expired.
 *
 * Policy:
 * - The account's tokens are the ones the adapter stores (sign-in stores them, and updates them on
 *   every later sign-in with that account).
 * - A token counts as expired `leeway` seconds (default 30) before its `expires_at`, so that it does
 *   not expire on the way to the API. A token without `expires_at` never expires.
 * - An expired token is refreshed with the refresh token (the refresh token grant); the new tokens
 *   are stored with `updateAccount`, keeping the old refresh token when the provider sends no new one.
 * - Single flight: while one call for an account is in progress, every other call for the same
 *   account waits for it and gets its result, so a burst of requests makes one refresh request.
 *   This holds within one process (one `AuthConfig` object); instances of an app that run side by
 *   side can still refresh the same account at the same moment.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { resolveConfig, type ResolvedConfig } from "../config/resolve.js"
import { AccessTokenError, AuthError, InvalidProvider, MissingAdapter } from "../errors.js"
import type { AuthConfig } from "../types.js"
import { clientAuthOf, clientOf } from "./client.js"
import { httpOptions } from "./http.js"
import { loggableError } from "./protocol-error.js"
import type { OAuthProvider } from "./provider.js"
import { authorizationServer } from "./server.js"
import { tokenSet, verifyIdTokenSignature } from "./token.js"
import type { TokenSet } from "./types.js"

/** Which account's access token to get: by provider account id, or by user (who has one account with the provider). */
export type GetAccessTokenParams = {
  /** The provider id (`"github"`…). */
  provider: string
  /**
   * Seconds before `expires_at` from which the token counts as expired and is refreshed, so that it
   * does not expire on its way to the API. Default 30.
   */
  leeway?: number
} & ({ providerAccountId: string; userId?: undefined } | { userId: string; providerAccountId?: undefined })

const defaultLeeway = 30

const inFlight = new WeakMap<ResolvedConfig, Map<string, Promise<string>>>()

async function accountIdOfUser(adapter: CheckedAdapter, provider: OAuthProvider, userId: string): Promise<string> {
  const accounts = (await adapter.listAccountsByUserId(userId)).filter((a) => a.provider === provider.id)
  const [account] = accounts
  if (!account) throw new AccessTokenError("AccountNotFound", `The user has no "${provider.id}" account.`)
  if (accounts.length > 1) {
    throw new AccessTokenError("AmbiguousAccount", `The user has ${accounts.length} "${provider.id}" accounts; pass \`providerAccountId\`.`)
  }
  return account.providerAccountId
}

async function refreshedTokens(provider: OAuthProvider, refreshToken: string): Promise<TokenSet> {
  try {
    const metadata = await authorizationServer(provider)
    const client = clientOf(provider)
    let response = await oauth.refreshTokenGrantRequest(metadata, client, await clientAuthOf(provider), refreshToken, httpOptions(metadata.token_endpoint, provider))
    if (provider.token.conform) response = (await provider.token.conform(response.clone())) ?? response
    const processed = await oauth.processRefreshTokenResponse(metadata, client, response)
    await verifyIdTokenSignature(provider, metadata, response, processed)
    return tokenSet(processed)
  } catch (error) {
    throw new AccessTokenError("RefreshFailed", `Refreshing the access token with provider "${provider.id}" failed.`, {
      cause: error instanceof AuthError ? error : loggableError(error),
    })
  }
}

async function validAccessToken(adapter: CheckedAdapter, provider: OAuthProvider, providerAccountId: string, leeway: number): Promise<string> {
  const account = await adapter.getAccount(providerAccountId, provider.id)
  if (!account) throw new AccessTokenError("AccountNotFound", `There is no "${provider.id}" account with this id.`)
  if (!account.access_token) throw new AccessTokenError("NoAccessToken", `The "${provider.id}" account holds no access token.`)
  const expiresAt = account.expires_at
  if (typeof expiresAt !== "number" || expiresAt - leeway > Date.now() / 1000) return account.access_token
  if (!account.refresh_token) {
    throw new AccessTokenError("NoRefreshToken", `The access token of the "${provider.id}" account has expired and there is no refresh token.`)
  }
  const tokens = await refreshedTokens(provider, account.refresh_token)
  // The account callback picks tokens; which account they belong to is not its to change.
  const { type: _type, userId: _userId, provider: _provider, providerAccountId: _id, ...stored } = provider.account(tokens) ?? {}
  if (!tokens.refresh_token) stored.refresh_token = account.refresh_token
  await adapter.updateAccount({ ...stored, provider: provider.id, providerAccountId })
  if (!tokens.access_token) throw new AccessTokenError("NoAccessToken", `Provider "${provider.id}" refreshed without an access token.`)
  return tokens.access_token
}

/**
 * Returns a valid access token of a user's account with an OAuth/OIDC provider, refreshing it with
 * the refresh token when it has expired, and storing the new tokens through the adapter.
 * Concurrent calls for the same account share one refresh (within this process).
 *
 * Needs an adapter with `getAccount` and `updateAccount` (and `listAccountsByUserId` to find the
 * account by `userId`). Throws {@link AccessTokenError} when no valid token can be had; its `code`
 * says why (`RefreshFailed` with a refused refresh token usually means the user must sign in again).
 *
 * @example
 * ```ts
 * const token = await getAccessToken(config, { provider: "github", userId: session.user.id })
 * const repos = await fetch("https://api.github.com/user/repos", { headers: { authorization: `Bearer ${token}` } })
 * ```
 */
/** The usable `oauth`/`oidc` provider `id`; for an unavailable one, the error naming its missing settings. */
function oauthProviderOf(config: ResolvedConfig, id: string): OAuthProvider {
  const provider = config.providers.get(id)
  if (provider?.type === "oauth" || provider?.type === "oidc") return provider
  throw config.unavailableProviders.get(id) ?? new InvalidProvider(`There is no OAuth or OIDC provider "${id}".`)
}

export async function getAccessToken(config: AuthConfig, params: GetAccessTokenParams): Promise<string> {
  const resolution = resolveConfig(config)
  if (!resolution.ok) throw resolution.error
  const resolved = resolution.config
  const provider = oauthProviderOf(resolved, params.provider)
  const adapter = resolved.adapter
  if (!adapter) throw new MissingAdapter("getAccessToken reads and stores provider tokens through the adapter; configure one.")
  const providerAccountId = params.providerAccountId ?? (await accountIdOfUser(adapter, provider, params.userId))
  let flights = inFlight.get(resolved)
  if (!flights) {
    flights = new Map()
    inFlight.set(resolved, flights)
  }
  const key = `${provider.id}\u0000${providerAccountId}`
  const pending = flights.get(key)
  if (pending) return pending
  const flight = validAccessToken(adapter, provider, providerAccountId, params.leeway ?? defaultLeeway).finally(() => flights.delete(key))
  flights.set(key, flight)
  return flight
}
