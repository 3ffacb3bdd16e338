/**
 * Giving an address back to its owner when someone claimed it first without proof.
 *
 * A user Sesame made without proof of its address (`unproven.ts`: a passkey sign-up, a password
 * sign-up, a provider that did not vouch) may be a stranger's, made with the owner's address
 * before the owner ever came (account pre-hijacking). When the owner proves the address (an
 * emailed link or code, a password-reset link), two outcomes would be wrong: handing that user to
 * the owner (the stranger's passkey, password or provider account would keep signing in as them,
 * and the stranger's rows in the app would become theirs), and refusing the owner (locked out of
 * their own address).
 *
 * So the user is set aside: its address becomes a placeholder (`unproven+<id>.<random>@sesame.invalid`,
 * in a reserved domain that never receives mail, and unguessable: were it known in advance, a
 * squatter could hold it already, so that setting aside fails on the unique address), and the owner
 * gets a new user of their own. Nothing
 * is deleted: whoever made the set-aside user keeps it, its rows and its ways in, but no longer the
 * address, so their JWT sessions end (`session/jwt.ts` ends a token whose user no longer holds the
 * address it was issued for) and their database sessions show the placeholder. When the same person
 * made both (a passkey sign-up, later an email link on another device), their passkey still reaches
 * the first user. Needs only `updateUser`.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { RequestContext } from "../http/context.js"

/** The address a set-aside user holds instead: unique, unguessable, and in a domain reserved never to resolve (RFC 2606). */
export function setAsideAddress(userId: string): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, "0")).join("")
  return `unproven+${userId}.${random}@sesame.invalid`
}

/**
 * Moves an unproven `user` off its address, so that the address's owner can have a user of their
 * own. Returns the updated user; the caller emits `updateUser` once its transaction is over.
 */
export async function setAside(ctx: RequestContext, adapter: CheckedAdapter, user: AdapterUser): Promise<AdapterUser> {
  const aside = await adapter.updateUser({ id: user.id, email: setAsideAddress(user.id) })
  ctx.config.logger.debug("account: the owner proved an address that a user made without proof held; that user was set aside", { userId: user.id })
  return aside
}
