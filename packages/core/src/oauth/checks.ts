/**
 * The values that bind a callback to the browser that started the sign-in: the PKCE verifier, the
 * state and the nonce.
 *
 * Each lives in its own cookie (`sesame.pkce.code_verifier`, `sesame.state`, `sesame.nonce`),
 * sealed (`http/sealed-cookie.ts`: encrypted with the secret, the cookie name as salt, so one
 * cookie's value is useless as another's), valid 15 minutes, and bound to the provider it was made
 * for: a value made for one provider is refused by another's callback. The callback clears every
 * check cookie of its provider whatever its outcome, so a value is good for one callback.
 *
 * The state parameter itself is a sealed value too: it names the provider and, when a redirect
 * proxy is used, the callback URL of the deployment that started the sign-in. Only a deployment
 * holding the secret can make one, which is what lets the proxy forward a callback to the URL it
 * names (see `proxy.ts`).
 *
 * @module
 */
import * as oauth from "oauth4webapi"
import { InvalidCheck } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { checkCookieMaxAge, crossSiteCookieOptions, expiredCookie, type CookieOption, type ResponseCookie } from "../http/cookies.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"
import { decode, encode } from "../jwt/index.js"
import type { Check, OAuthProvider } from "./provider.js"

const cookieRoles = { pkce: "pkceCodeVerifier", state: "state", nonce: "nonce" } as const

/** Salt of the sealed state parameter (distinct from every cookie name). */
const stateSalt = "sesame.oauth-state-parameter"

interface SealedCheck {
  value: string
  provider: string
}

/** What the state parameter carries. */
export interface StateParameter {
  provider: string
  /** With a redirect proxy: the callback URL of the deployment that started the sign-in. */
  callback?: string
}

/** The values of a provider's checks, as read back on the callback. */
export type CheckValues = Partial<Record<Check, string>>

function cookieOf(ctx: RequestContext, check: Check): CookieOption {
  return ctx.cookieOptions[cookieRoles[check]]
}

function secrets(ctx: RequestContext): string[] {
  return [...ctx.config.secrets]
}

/** Fresh values for the provider's checks. */
export async function newCheckValues(ctx: RequestContext, provider: OAuthProvider, state: StateParameter): Promise<CheckValues> {
  const values: CheckValues = {}
  if (provider.checks.has("pkce")) values.pkce = oauth.generateRandomCodeVerifier()
  if (provider.checks.has("nonce")) values.nonce = oauth.generateRandomNonce()
  if (provider.checks.has("state")) {
    values.state = await encode<StateParameter & { random: string }>({
      token: { ...state, random: oauth.generateRandomState() },
      secret: secrets(ctx),
      salt: stateSalt,
      maxAge: checkCookieMaxAge,
    })
  }
  return values
}

/**
 * The cookies that carry `values` to the callback; `crossSite` when the callback comes as a
 * cross-site POST (`form_post`), which only cross-site cookies ride along.
 */
export async function checkCookies(
  ctx: RequestContext,
  provider: OAuthProvider,
  values: CheckValues,
  crossSite: boolean,
): Promise<ResponseCookie[]> {
  const cookies: ResponseCookie[] = []
  for (const [check, value] of Object.entries(values) as [Check, string][]) {
    const { name, options } = cookieOf(ctx, check)
    const cookie = { name, options: crossSite ? crossSiteCookieOptions(options, ctx.secure) : options }
    cookies.push(await sealedCookie<SealedCheck>(ctx, cookie, { value, provider: provider.id }, checkCookieMaxAge))
  }
  return cookies
}

/**
 * Reads the provider's check values back from the request's cookies, and queues the deletion of
 * every check cookie of the provider. Throws `InvalidCheck` for a cookie that is missing, does not
 * decrypt, has expired, or was made for another provider.
 */
export async function useCheckValues(ctx: RequestContext, provider: OAuthProvider): Promise<CheckValues> {
  for (const check of provider.checks) {
    const { name, options } = cookieOf(ctx, check)
    ctx.setCookies.push(expiredCookie(name, options))
  }
  const values: CheckValues = {}
  for (const check of provider.checks) {
    const sealed = await unsealCookie(ctx, cookieOf(ctx, check).name)
    const cause = { check, provider: provider.id }
    if (sealed === undefined) throw new InvalidCheck(`The ${check} cookie is missing: the sign-in was not started in this browser, or took longer than 15 minutes.`, { cause })
    if (!sealed || typeof sealed.value !== "string") {
      throw new InvalidCheck(`The ${check} cookie could not be read: it was altered, made with another secret, or has expired.`, { cause })
    }
    if (sealed.provider !== provider.id) {
      throw new InvalidCheck(`The ${check} cookie was made for another provider.`, { cause: { ...cause, madeFor: String(sealed.provider) } })
    }
    values[check] = sealed.value
  }
  return values
}

/** The contents of a state parameter, or null when it is not one of ours (or has expired). */
export async function readStateParameter(ctx: RequestContext, value: string): Promise<StateParameter | null> {
  const state = await decode<Partial<StateParameter>>({ token: value, secret: secrets(ctx), salt: stateSalt })
  if (!state || typeof state.provider !== "string") return null
  if (state.callback !== undefined && typeof state.callback !== "string") return null
  return state.callback === undefined ? { provider: state.provider } : { provider: state.provider, callback: state.callback }
}
