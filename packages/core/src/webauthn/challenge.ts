/**
 * The challenge of a passkey ceremony, carried from `webauthn-options` to the callback in the
 * `sesame.challenge` cookie.
 *
 * The cookie is sealed like the OAuth check cookies (`http/sealed-cookie.ts`), HttpOnly and
 * SameSite=Lax, and its contents name the provider and the ceremony
 * (`authenticate` or `register`) it was made for; for a registration they also name who the
 * passkey is for: the signed-in user's id, or the new user's email address. The sealed value
 * expires a minute after the ceremony's timeout, whatever the cookie's own lifetime.
 *
 * The callback deletes the cookie whatever its outcome, but a deleted cookie is only one the
 * browser forgets: whoever captured it with a response could post both again while the sealed
 * value lives, and synced passkeys keep no signature counter to notice. So the server remembers
 * each challenge it issued, through the adapter, as a verification token: the identifier names the
 * purpose and provider (`webauthn-challenge:<provider id>`), the token is HMAC-SHA-256 of the
 * challenge keyed with the secret (as for email tokens: a copy of the table holds no challenge),
 * and it expires with the sealed value. The callback consumes it with `useVerificationToken`, which
 * returns and deletes in one step, before anything else: a challenge serves one response, once,
 * whoever sends it, and of two concurrent callbacks only one finds it. A response made for one
 * challenge fails against any other.
 *
 * @module
 */
import type { Ceremony } from "../account/passkeys.js"
import { oneTimeHash, stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import { WebAuthnVerificationError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { expiredCookie } from "../http/cookies.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"
import type { PasskeyProvider } from "./provider.js"

export type { Ceremony }

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

/** The verification-token identifier under which a provider's challenges are remembered. */
function identifier(provider: PasskeyProvider): string {
  return `webauthn-challenge:${provider.id}`
}

/** The purpose under which challenges are hashed for the adapter (`adapters/one-time-tokens.ts`). */
const challengePurpose = "sesame-webauthn-challenge"

/** Remembers the challenge server-side and queues the challenge cookie on the response. */
export async function setChallenge(ctx: RequestContext, provider: PasskeyProvider, challenge: Challenge): Promise<void> {
  const { name, options } = ctx.cookieOptions.webauthnChallenge
  const lifetime = Math.ceil(provider.config.timeout / 1000) + graceSeconds
  const [secret] = ctx.config.secrets as [string]
  await provider.adapter.createVerificationToken({
    identifier: identifier(provider),
    token: await oneTimeHash(challengePurpose, challenge.challenge, secret),
    expires: new Date(Date.now() + lifetime * 1000),
  })
  ctx.setCookies.push(await sealedCookie(ctx, { name, options }, challenge, lifetime))
}

/**
 * Consumes the remembered challenge: true when it was issued here, not used yet and not expired.
 * Each secret is tried, newest first, so that a ceremony started before a rotation still completes.
 */
async function consume(ctx: RequestContext, provider: PasskeyProvider, challenge: string): Promise<boolean> {
  const stored = await useOneTime(provider.adapter, identifier(provider), challengePurpose, challenge, ctx.config.secrets, ctx.spentOneTime)
  return stored !== null && stillValid(stored)
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
 * Reads the request's challenge for `provider`, consumes its server-side record and queues the
 * cookie's deletion. Throws `WebAuthnVerificationError` when the cookie is missing, altered,
 * expired, or made for another provider, or when the challenge was already used.
 */
export async function useChallenge(ctx: RequestContext, provider: PasskeyProvider): Promise<Challenge> {
  const { name, options } = ctx.cookieOptions.webauthnChallenge
  ctx.setCookies.push(expiredCookie(name, options))
  const sealed = await unsealCookie(ctx, name)
  if (sealed === undefined) {
    throw new WebAuthnVerificationError("The challenge cookie is missing: the ceremony was not started in this browser, was already used, or took too long.", {
      cause: { provider: provider.id },
    })
  }
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
  if (!(await consume(ctx, provider, sealed.challenge))) {
    throw new WebAuthnVerificationError("The challenge was already used, or has expired: a passkey response is accepted once.", {
      cause: { provider: provider.id },
    })
  }
  const { provider: id, action, challenge, userId, email } = sealed
  return { provider: id, action, challenge, ...(userId !== undefined ? { userId } : {}), ...(email !== undefined ? { email } : {}) }
}
