/**
 * The password provider's one-time links: confirming an address, and resetting a password.
 *
 * A link carries 32 random bytes; the adapter keeps only a keyed hash of them under the address
 * (`adapters/one-time-tokens.ts`), and using one deletes it, so it works once. Each kind hashes
 * under its own purpose, so a confirmation link never resets a password. A reset link's purpose
 * also names the password it replaces (a hash of the stored hash): once the password changes, by
 * this link, another one or the account's owner, every reset link sent before stops working.
 *
 * @module
 */
import { backend } from "#crypto"
import { oneTimeHash, stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import type { VerificationToken } from "../adapters/types.js"
import { randomToken, toHex } from "../crypto/encoding.js"
import { maxLinkParameterLength } from "../email/links.js"
import { Verification } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { typedAddress } from "./input.js"
import type { PasswordProvider } from "./provider.js"
import { storedPassword } from "./storage.js"

export type LinkKind = "verify-email" | "reset-password"

/** A link's parameters, as the link carries them and its page posts them back. */
export interface LinkParameters {
  token: string
  email: string
}

/** What the hash of a reset token is bound to: the password it replaces (none: the empty string). */
async function passwordFingerprint(provider: PasswordProvider, userId: string): Promise<string> {
  const stored = await storedPassword(provider.adapter, userId)
  return stored ? toHex(await backend.sha256(stored.hash)) : ""
}

async function purpose(provider: PasswordProvider, kind: LinkKind, userId: string): Promise<string> {
  return kind === "verify-email" ? "sesame-password-verify" : `sesame-password-reset:${await passwordFingerprint(provider, userId)}`
}

/** The URL of a link's endpoint (where its page is, and where that page posts). */
export function linkEndpoint(ctx: RequestContext, provider: Pick<PasswordProvider, "id">, kind: LinkKind): string {
  return `${ctx.authUrl}/${kind}/${encodeURIComponent(provider.id)}`
}

/** Stores a new link of `kind` for the user at `email`; returns its URL, expiry and stored hash (to remove it if the email fails). */
export async function createLink(
  ctx: RequestContext,
  provider: PasswordProvider,
  kind: LinkKind,
  user: { id: string; email: string },
): Promise<{ url: string; expires: Date; token: string; hashed: string }> {
  const token = randomToken(32)
  const maxAge = kind === "verify-email" ? provider.config.verificationMaxAge : provider.config.resetMaxAge
  const expires = new Date(Date.now() + maxAge * 1000)
  const hashed = await oneTimeHash(await purpose(provider, kind, user.id), token, provider.tokenSecrets[0]!)
  await provider.adapter.createVerificationToken({ identifier: user.email, token: hashed, expires })
  // The callback URL travels with the link, so that the user lands where the flow began.
  const params: Record<string, string> = { token, email: user.email, callbackUrl: await ctx.callbackUrl() }
  return { url: `${linkEndpoint(ctx, provider, kind)}?${new URLSearchParams(params)}`, expires, token, hashed }
}

/**
 * The parameters of a link from `source` (the query of its page, or the form it posts);
 * `Verification` when missing or malformed. The address must be one the provider could have sent
 * (already normalised), so a page never shows text a link's maker wrote in its place.
 */
export function linkParameters(source: Readonly<Record<string, unknown>>, provider: PasswordProvider): LinkParameters {
  const { token, email } = source
  const usable = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= maxLinkParameterLength
  if (!usable(token) || !usable(email)) throw new Verification("The link is missing its token or email, or they are malformed.")
  if (typedAddress(provider, email) !== email) throw new Verification("The link's address is not one this provider sends to.")
  return { token, email }
}

/**
 * Uses (and so deletes) the link: the user it is for, or `Verification` when it is unknown, used,
 * expired, for another address, or (a reset link) for a password that has changed since.
 */
export async function useLink(provider: PasswordProvider, kind: LinkKind, link: LinkParameters, spent: VerificationToken[]) {
  const user = await provider.adapter.getUserByEmail(link.email)
  if (!user) throw new Verification("The link is for an address without an account.")
  const stored = await useOneTime(provider.adapter, link.email, await purpose(provider, kind, user.id), link.token, provider.tokenSecrets, spent)
  if (!stored) throw new Verification("The link is unknown, already used, for another address, or for a password that has changed since.")
  if (!stillValid(stored)) throw new Verification("The link has expired.")
  return user
}
