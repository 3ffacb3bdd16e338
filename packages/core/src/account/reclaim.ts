/**
 * Taking an address back from whoever claimed it without proof.
 *
 * A user whose `emailVerified` is null holds its address on someone's word only: a passkey signed
 * up with any address typed in, or a provider account whose provider does not vouch for the
 * address. That someone may not own the address. If such a user were simply handed to the owner
 * when the owner proves the address (an emailed link, a provider asserting the address is
 * verified), the squatter's passkey or provider account would stay linked and keep signing in as
 * the owner: account pre-hijacking. If the owner were refused instead, they would be locked out of
 * their own address.
 *
 * So the proof wins and everything attached before it goes: every linked account, passkey and
 * stored password and every database session of that user are removed, its name and image replaced by the prover's
 * when a provider's profile came with the proof, and the address marked verified, in one transaction when the adapter has them. The user's id is
 * kept, so an app's rows that point at it survive. JWT sessions cannot be deleted: they carry a mark
 * when they were issued to an unverified user and end once the address is verified (`session/`).
 * The cost falls on an honest user who signed up with a passkey and later proves the same address
 * another way: their earlier passkey goes and must be added again once signed in.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import type { User } from "../types.js"

/**
 * The adapter methods a reclaim needs, by what the configuration uses (validated with it): the
 * accounts and the user always, passkeys with a passkey provider, sessions with database
 * sessions. A method a configuration does not need is still called when the adapter has it (an
 * app that dropped passkeys may still store some).
 */
export const reclaimMethods = {
  always: ["listAccountsByUserId", "unlinkAccount", "updateUser"],
  passkeys: ["listAuthenticatorsByUserId", "deleteAuthenticator"],
  databaseSessions: ["deleteSessionsByUserId"],
} as const

/**
 * Clears what an unverified `owner` had attached and marks its address verified. `prover`, when
 * the proof came with a profile (a provider's), replaces the user's name and image. Returns the
 * updated user.
 */
export async function reclaimAddress(ctx: RequestContext, adapter: CheckedAdapter, owner: AdapterUser, prover?: Pick<User, "name" | "image">): Promise<AdapterUser> {
  const user = await adapter.transaction(async (tx) => {
    // Passkeys first: an authenticator row may refer to its account.
    if (tx.has("listAuthenticatorsByUserId") && tx.has("deleteAuthenticator")) {
      for (const authenticator of await tx.listAuthenticatorsByUserId(owner.id)) await tx.deleteAuthenticator(authenticator.credentialID)
    }
    for (const account of await tx.listAccountsByUserId(owner.id)) {
      await tx.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    }
    if (tx.has("deleteSessionsByUserId")) await tx.deleteSessionsByUserId(owner.id)
    // A password set by whoever claimed the address is one of the ways in that go.
    if (tx.has("deletePassword")) await tx.deletePassword(owner.id)
    // So is a second factor: the owner must not meet a stranger's authenticator at their own door.
    if (tx.has("deleteTwoFactor")) await tx.deleteTwoFactor(owner.id)
    const profile = prover ? { name: prover.name ?? null, image: prover.image ?? null } : {}
    return tx.updateUser({ id: owner.id, ...profile, emailVerified: new Date() })
  })
  ctx.config.logger.debug("account: an unverified user's address was proven; the sign-in methods attached before the proof were removed")
  await emit(ctx.config, "updateUser", { user })
  return user
}
