/**
 * From tokens to a user: the provider's profile (the ID token's claims, or the userinfo endpoint's
 * answer), then the provider's `profile` callback.
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { foldEmail } from "../email/normalize.js"
import { InvalidEndpoints, OAuthCallbackError, OAuthProfileParseError } from "../errors.js"
import type { Profile, User } from "../types.js"
import { clientOf } from "./client.js"
import { httpOptions } from "./http.js"
import { loggableError } from "./protocol-error.js"
import type { OAuthProvider } from "./provider.js"
import type { TokenSet } from "./types.js"

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value)
}

async function userinfo(provider: OAuthProvider, metadata: oauth.AuthorizationServer, tokens: TokenSet, idToken: oauth.IDToken | undefined) {
  if (provider.userinfo.request) return provider.userinfo.request({ provider: provider.config, tokens })
  if (!metadata.userinfo_endpoint) {
    throw new InvalidEndpoints(`Provider "${provider.id}" has no userinfo endpoint: its metadata lists none and none is configured.`)
  }
  const url = new URL(metadata.userinfo_endpoint)
  for (const [key, value] of Object.entries(provider.userinfo.params)) url.searchParams.set(key, value)
  const accessToken = tokens.access_token ?? ""
  if (provider.type === "oidc") {
    // An OpenID userinfo response: its `sub` must be the ID token's.
    const endpoint = { ...metadata, userinfo_endpoint: url.href }
    const client = clientOf(provider)
    const response = await oauth.userInfoRequest(endpoint, client, accessToken, httpOptions(url, provider))
    return oauth.processUserInfoResponse(endpoint, client, idToken?.sub ?? oauth.skipSubjectCheck, response)
  }
  const response = await oauth.protectedResourceRequest(accessToken, "GET", url, new Headers({ accept: "application/json" }), null, httpOptions(url, provider))
  if (response.status !== 200) throw new Error(`The userinfo endpoint answered with status ${response.status}.`)
  const body: unknown = await response.json()
  if (!isObject(body)) throw new Error("The userinfo endpoint did not answer with a JSON object.")
  return body
}

/** The provider's profile of the signed-in person. Throws `OAuthCallbackError`. */
export async function fetchProfile(
  provider: OAuthProvider,
  metadata: oauth.AuthorizationServer,
  tokens: TokenSet,
  idToken: oauth.IDToken | undefined,
): Promise<Profile> {
  if (provider.profileFromIdToken && idToken) return { ...idToken }
  let profile: unknown
  try {
    profile = await userinfo(provider, metadata, tokens, idToken)
  } catch (error) {
    if (error instanceof InvalidEndpoints) throw error
    throw new OAuthCallbackError(`Fetching the profile from provider "${provider.id}" failed.`, { cause: loggableError(error) })
  }
  if (!isObject(profile)) throw new OAuthProfileParseError(`The userinfo of provider "${provider.id}" is not an object.`)
  return profile
}

/** The user the provider's `profile` callback makes of `profile`, with a string id and a normalised (NFKC, lower-case) email. */
export async function userOf(provider: OAuthProvider, profile: Profile, tokens: TokenSet): Promise<User & { id: string }> {
  let user: unknown
  try {
    user = await provider.profile(profile, tokens)
  } catch (error) {
    throw new OAuthProfileParseError(`The profile callback of provider "${provider.id}" threw.`, { cause: error })
  }
  if (!isObject(user)) throw new OAuthProfileParseError(`The profile callback of provider "${provider.id}" returned no user object.`)
  const id = user.id
  if ((typeof id !== "string" && typeof id !== "number") || id === "") {
    throw new OAuthProfileParseError(`The profile callback of provider "${provider.id}" returned a user without an id.`)
  }
  return { ...(user as User), id: String(id), email: providerEmail(user.email) }
}

/**
 * An address a provider gave, folded (NFKC as for email sign-in, so a look-alike address never
 * names a different user than the one it imitates); null when there is none.
 */
export function providerEmail(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? foldEmail(value) : null
}

/**
 * `profile` with the provider's `profileFromCallback` parameters of the authorization response
 * added (JSON-decoded when they hold a JSON object). They never replace a claim the profile has.
 */
export function withCallbackParams(provider: OAuthProvider, profile: Profile, params: URLSearchParams): Profile {
  if (provider.profileFromCallback.length === 0) return profile
  const added: Profile = { ...profile }
  for (const name of provider.profileFromCallback) {
    const value = params.get(name)
    if (value === null || name in added) continue
    added[name] = parseJsonObject(value) ?? value
  }
  return added
}

function parseJsonObject(value: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(value)
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}
