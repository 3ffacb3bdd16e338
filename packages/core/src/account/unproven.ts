/**
 * Which unverified users Sesame made itself, without any proof of their address.
 *
 * `emailVerified: null` says two different things. A user Sesame created from a passkey sign-up, a
 * password sign-up or a provider that did not vouch for the address holds that address on someone's
 * word only: maybe a stranger's, squatting it before its owner arrives (account pre-hijacking).
 * But Auth.js stores every OAuth user with `emailVerified: null`, whatever its provider said, and
 * credentials users are the app's own word: for those, null means only "never followed an email
 * link", and their owner must keep every way in.
 *
 * The spec's adapter contract has no field to tell them apart, so Sesame writes its own mark for
 * the first kind, through the one storage every address-proving configuration already has: a
 * verification token whose identifier names the user (`sesame:unproven:<id>`), never an address,
 * so it can never be used as a link. Written in the transaction that creates the user, taken
 * (used once, like every verification token) when the address is proven. A user without the
 * mark is treated as Auth.js treated it (`decide.ts`).
 *
 * An adapter without verification tokens gets no mark; it cannot send links either, so no email
 * proof ever asks for one, and a provider's proof never takes over an existing user.
 *
 * @module
 */
import type { AdapterUser, VerificationToken } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"

/** How long the mark is kept: long enough to outlive any squat, and before 2038 for 32-bit timestamp columns. */
const markLifetimeMs = 9 * 365 * 24 * 60 * 60 * 1000

function mark(userId: string) {
  // The token is unique per user too: some schemas (Prisma's) make `token` unique on its own.
  return { identifier: `sesame:unproven:${userId}`, token: `unproven:${userId}` }
}

function canMark(adapter: CheckedAdapter): boolean {
  return adapter.has("createVerificationToken") && adapter.has("useVerificationToken")
}

/** Records that `userId` was made by Sesame with an address nobody has proven. */
export async function markUnproven(adapter: CheckedAdapter, userId: string): Promise<void> {
  if (!canMark(adapter)) return
  await adapter.createVerificationToken({ ...mark(userId), expires: new Date(Date.now() + markLifetimeMs) })
}

/**
 * Creates `user`, unproven: the mark is written first, under the id Sesame chose, so that no proof
 * ever finds the new user without it (an adapter without transactions shows the user as soon as it
 * is created); an adapter that assigns ids of its own gets the mark again under the id it chose.
 */
export async function createUnprovenUser(adapter: CheckedAdapter, user: AdapterUser): Promise<AdapterUser> {
  await markUnproven(adapter, user.id)
  const created = await adapter.createUser(user)
  if (String(created.id) !== user.id) await markUnproven(adapter, String(created.id))
  return created
}

/**
 * The mark of `userId`, taken (the address is being proven now, so the mark has served), or null
 * when it carries none. Of two proofs at once, exactly one gets it.
 */
export async function takeUnprovenMark(adapter: CheckedAdapter, userId: string): Promise<VerificationToken | null> {
  if (!canMark(adapter)) return null
  return adapter.useVerificationToken(mark(userId))
}
