/**
 * The challenge of a passkey ceremony, carried from `webauthn-options` to the callback in the
 * `sesame.challenge` cookie.
 *
 * The cookie is sealed like the OAuth check cookies (a JWE under the secret, with the cookie name
 * as salt), HttpOnly and SameSite=Lax, and its contents name the provider and the ceremony
 * (`authenticate` or `register`) it was made for; for a registration they also name who the
 * passkey is for: the signed-in user's id, or the new user's email address. The sealed value
 * expires a minute after the ceremony's timeout, whatever the cookie's own lifetime.
 *
 * The callback deletes the cookie whatever its outcome, so one challenge serves one attempt in a
 * browser; a response replayed later needs a challenge cookie that no longer exists, and a
 * response made for one challenge fails against any other.
 *
 * @module
 */
import { WebAuthnVerificationError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { expiredCookie } from "../http/cookies.js"
import { decode, encode } from "../jwt/index.js"
import type { ResolvedWebAuthnProvider } from "./provider.js"

export type Ceremony = "authenticate" | "register"

export interface Challenge {
  provider: string
  action: Ceremony
  /** The challenge as sent in the options (base64url). */
  challenge: string
  /** Registration for the signed-in user: their id. */
  userId?: string
  /** Registration of a new user: their email address. */
  email?: string
}

/** Seconds the sealed challenge outlives the ceremony's timeout: clocks and networks are not exact. */
const graceSeconds = 60

/** Queues the challenge cookie on the response. */
export async function setChallenge(ctx: RequestContext, provider: ResolvedWebAuthnProvider, challenge: Challenge): Promise<void> {
  const { name, options } = ctx.cookieOptions.webauthnChallenge
  const value = await encode<Challenge>({
    token: challenge,
    secret: [...ctx.config.secrets],
    salt: name,
    maxAge: Math.ceil(provider.timeout / 1000) + graceSeconds,
  })
  ctx.setCookies.push({ name, value, options })
}

function isChallenge(value: Record<string, unknown> | null): value is Record<string, unknown> & Challenge {
  if (!value) return false
  const { provider, action, challenge, userId, email } = value
  return (
    typeof provider === "string" &&
    (action === "authenticate" || action === "register") &&
    typeof challenge === "string" &&
    (userId === undefined || typeof userId === "string") &&
    (email === undefined || typeof email === "string")
  )
}

/**
 * Reads the request's challenge for `provider` and queues the cookie's deletion. Throws
 * `WebAuthnVerificationError` when the cookie is missing, altered, expired, or made for another
 * provider.
 */
export async function useChallenge(ctx: RequestContext, provider: ResolvedWebAuthnProvider): Promise<Challenge> {
  const { name, options } = ctx.cookieOptions.webauthnChallenge
  ctx.setCookies.push(expiredCookie(name, options))
  const raw = ctx.cookies.get(name)
  if (!raw) {
    throw new WebAuthnVerificationError("The challenge cookie is missing: the ceremony was not started in this browser, was already used, or took too long.", {
      cause: { provider: provider.id },
    })
  }
  const sealed = await decode<Record<string, unknown>>({ token: raw, secret: [...ctx.config.secrets], salt: name })
  if (!isChallenge(sealed)) {
    throw new WebAuthnVerificationError("The challenge cookie could not be read: it was altered, made with another secret, or has expired.", {
      cause: { provider: provider.id },
    })
  }
  if (sealed.provider !== provider.id) {
    throw new WebAuthnVerificationError("The challenge cookie was made for another provider.", {
      cause: { provider: provider.id, madeFor: sealed.provider },
    })
  }
  const { provider: id, action, challenge, userId, email } = sealed
  return { provider: id, action, challenge, ...(userId !== undefined ? { userId } : {}), ...(email !== undefined ? { email } : {}) }
}
