/**
 * The sign-in decision's rules: which user a verified identity belongs to, and what is created or
 * linked on the way. `sign-in.ts` applies them, after the `signIn` callback.
 *
 * With an adapter, the account-linking policy is this table (the README's "Account linking" has
 * it too; the tests in `test/account/linking-policy.test.ts` go through it row by row). "Unproven"
 * is a user Sesame itself made without proof of its address (`unproven.ts`); a user whose
 * `emailVerified` is null but who carries no such mark (every OAuth user Auth.js stored; a
 * credentials user) is "unverified".
 *
 * | stored user with the address | the newcomer came with | outcome |
 * |---|---|---|
 * | none | an email link or code, a provider that vouches | a new verified user |
 * | none | a provider that does not vouch, a passkey sign-up | a new unproven user |
 * | any | a provider account or passkey already linked | its own user signs in; nothing else changes |
 * | verified, or unverified | an email link or code | that user signs in, now verified; every way in kept |
 * | unproven | an email link or code | that user is set aside (`set-aside.ts`), the prover gets a new verified user |
 * | any | a new provider account, nobody signed in | `OAuthAccountNotLinked`; nothing changes |
 * | verified, or unverified | a new provider account that vouches, with `allowDangerousEmailAccountLinking` | linked; the address is verified |
 * | unproven | the same | set aside; the prover gets a new verified user with the account |
 * | any | a passkey sign-up | refused before any ceremony (`passkeys.ts`); nothing changes |
 * | (signed in) | a new provider account or passkey | linked to the signed-in user, unless the provider's callbacks are not bound to the browser (`checks: ["none"]`) |
 *
 * The password provider follows the same rows (`password/`): a sign-up for a taken address stores
 * nothing; a reset link is an email proof; the confirmation link, which also asks for the password,
 * proves that whoever chose the password owns the address.
 *
 * Why, class by class (Sudhodanan and Paverd, "Pre-hijacked accounts", 2022):
 * - classic-federated merge, non-verifying IdP: a provider's word, vouched or not, never merges
 *   into an existing user (the spec's rule); an email proof of an unproven user's address sets the
 *   claimant aside rather than merging into it.
 * - trojan identifier: whatever the claimant attached (a passkey, a provider account, a password,
 *   a second factor) stays on the set-aside user, never on the owner's.
 * - unexpired session: the claimant's sessions stay with the set-aside user; a JWT session issued
 *   for the address ends once its user no longer holds it.
 * - unchanged email: links issued for the claimant's user name that user, so they never act on
 *   the owner's new one.
 * What this does not stop: a user Auth.js stored from a provider that does not check addresses
 * carries no mark, and an email link to its address signs into it with that provider's account
 * kept, as Auth.js did (and as its owner needs, when the account is theirs).
 *
 * - **Credentials**. The app's `authorize` vouches for the user: its word is not checked against
 *   any proof. With JWT sessions nothing is stored. With database sessions the user that
 *   `authorize` returned must be known to the adapter (by id, then by email), or is created when
 *   the provider sets `createUser`.
 *
 * Without an adapter, the user is whoever the provider says. For provider accounts the user id is
 * derived from the provider and the account id (`subject.ts`): the same at every sign-in, never
 * shared by two providers' users.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { CredentialsProvider } from "../credentials/provider.js"
import { AccessDenied, CallbackRouteError, OAuthAccountNotLinked, Verification, type SignInError } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import { signedInUser } from "../session/index.js"
import type { Account, User } from "../types.js"
import { newUserFields, UserFieldValueError } from "../user/fields.js"
import { setAside } from "./set-aside.js"
import { accountSubject } from "./subject.js"
import { createUnprovenUser, markUnproven, takeUnprovenMark } from "./unproven.js"

export interface Decision {
  user: User | AdapterUser
  isNewUser: boolean
  /**
   * For a provider account with an adapter: whether the account still belongs to the user, asked
   * again once the session exists (see `SignInResult.recheck`).
   */
  recheck?: () => Promise<boolean>
}

/**
 * The app's user fields of `user` (a provider's `profile()`, the app's `authorize`), checked, the
 * defaults filling what it lacks. A value that does not fit its declaration is the app's mistake,
 * refused before anything is stored or signed in.
 */
function userFieldsOf(ctx: RequestContext, user: User): Record<string, unknown> {
  try {
    return newUserFields(ctx.config.userFields, user)
  } catch (error) {
    if (!(error instanceof UserFieldValueError)) throw error
    throw new CallbackRouteError(`The user's field "${error.field}" (from the provider's \`profile\` or the app's \`authorize\`) does not fit its declaration in \`user.fields\`.`)
  }
}

/**
 * A new user: the spec's fields, and the app's user fields ({@link userFieldsOf}).
 */
function newUser(ctx: RequestContext, user: User, emailVerified: Date | null): AdapterUser {
  return {
    ...userFieldsOf(ctx, user),
    id: crypto.randomUUID(),
    name: user.name ?? null,
    email: user.email as string,
    image: user.image ?? null,
    emailVerified,
  }
}

/** The user a provider account is linked to; null for a new account, and always without an adapter. */
export async function linkedUser(ctx: RequestContext, account: Pick<Account, "provider" | "providerAccountId">): Promise<AdapterUser | null> {
  const { adapter } = ctx.config
  if (!adapter) return null
  return adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
}

/**
 * A user signing in with a provider account (OAuth, OIDC, WebAuthn). `account` is what to store,
 * `linked` what `linkedUser` found for it.
 */
export async function decideForAccount(
  ctx: RequestContext,
  params: {
    user: User
    account: Account
    linked: AdapterUser | null
    allowDangerousEmailAccountLinking?: boolean
    /** Whether the provider vouches that the person owns `user.email`. Default false. */
    emailVerified?: boolean
    /**
     * Whether the callback was bound to the browser that started the sign-in (state, PKCE, nonce,
     * a passkey challenge). Default true; false for OAuth providers with `checks: ["none"]`.
     */
    boundToBrowser?: boolean
    /** The error for an account that belongs to someone else. Default `OAuthAccountNotLinked`. */
    notLinked?: new (message: string) => SignInError
    /** Writes that belong with a newly linked account, made in the transaction that links it. */
    onLink?: (adapter: CheckedAdapter, userId: string) => Promise<void>
  },
): Promise<Decision> {
  const { config } = ctx
  const { account, linked } = params
  const NotLinked = params.notLinked ?? OAuthAccountNotLinked
  // Nothing is stored: the provider's user, with the app's user fields as a stored one would have them.
  if (!config.adapter) {
    return { user: { ...params.user, ...userFieldsOf(ctx, params.user), id: await accountSubject(account.provider, account.providerAccountId) }, isNewUser: false }
  }
  const adapter = config.adapter
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  // Between this decision and the session, the account may be unlinked (the user removed it from
  // another browser): the session strategy asks this once the session exists, and ends it if not.
  const stillLinked = (userId: string) => async () => (await adapter.getUserByAccount(key))?.id === userId
  const current = await signedInUser(ctx)
  const link = (tx: CheckedAdapter, userId: string) => {
    const stored = storedAccount(account, userId)
    return tx.linkAccount(stored).then(async () => {
      await params.onLink?.(tx, userId)
      return stored
    })
  }
  if (linked) {
    if (current && current.id !== linked.id) {
      throw new NotLinked("This account is already linked to another user.")
    }
    if (adapter.has("updateAccount")) await adapter.updateAccount({ ...storedAccount(account, linked.id), ...key })
    return { user: linked, isNewUser: false, recheck: stillLinked(linked.id) }
  }
  if (current?.id) {
    if (params.boundToBrowser === false) {
      throw new NotLinked(`Provider "${account.provider}" has no checks, so its accounts cannot be linked to a signed-in user.`)
    }
    const stored = await adapter.transaction((tx) => link(tx, String(current.id)))
    await emit(config, "linkAccount", { user: current, account: stored, profile: params.user })
    await linkedEvent(ctx, String(current.id), stored)
    return { user: current, isNewUser: false, recheck: stillLinked(String(current.id)) }
  }
  const email = params.user.email
  const owner = email ? await adapter.getUserByEmail(email) : null
  const vouched = params.emailVerified === true
  if (owner) {
    // A provider's word never merges into an existing user (the spec's rule), vouched or not,
    // unless the app lets this provider link by address and it vouches for this one.
    if (!params.allowDangerousEmailAccountLinking || !vouched) {
      throw new NotLinked("Another user already has this email address; sign in with the method used before.")
    }
    const linkedOwner = await adapter.transaction(async (tx) => {
      const proven = await ownerProved(ctx, tx, owner, params.user)
      return { ...proven, stored: await link(tx, proven.user.id) }
    })
    await announce(ctx, linkedOwner, owner)
    await emit(config, "linkAccount", { user: linkedOwner.user, account: linkedOwner.stored, profile: params.user })
    await linkedEvent(ctx, linkedOwner.user.id, linkedOwner.stored)
    return { user: linkedOwner.user, isNewUser: linkedOwner.isNewUser, recheck: stillLinked(linkedOwner.user.id) }
  }
  if (!email) {
    throw new CallbackRouteError(`Provider "${account.provider}" returned no email address, which is needed to create a user.`)
  }
  const { user, stored } = await adapter.transaction(async (tx: CheckedAdapter) => {
    const user = newUser(ctx, { ...params.user, email }, vouched ? new Date() : null)
    // Nobody has proven an address the provider does not vouch for: its owner's later proof sets
    // this user aside (set-aside.ts).
    const created = vouched ? await tx.createUser(user) : await createUnprovenUser(tx, user)
    return { user: created, stored: await link(tx, created.id) }
  })
  await emit(config, "createUser", { user })
  await emitSecurity(config, ctx.headers, { type: "user.created", userId: user.id, provider: account.provider })
  await emit(config, "linkAccount", { user, account: stored, profile: params.user })
  await linkedEvent(ctx, user.id, stored)
  return { user, isNewUser: true, recheck: stillLinked(user.id) }
}

/** What proving an address did to its stored user: the user who signs in now, and whether it is new. */
interface Proven {
  user: AdapterUser
  isNewUser: boolean
  /** The unproven user that was set aside for it, if any. */
  setAside?: AdapterUser
}

/**
 * The owner of `existing`'s address has just proven it (an email link or code, a password-reset
 * link, a vouching provider the app links by address). A verified user is theirs as it is; an
 * unverified one becomes verified, keeping everything (Auth.js's users); an unproven one is set
 * aside and the owner gets a new verified user. `profile`, when the proof came with one (a
 * provider's), names the new user. Call it inside a transaction; emit with `announce` after.
 */
export async function ownerProved(ctx: RequestContext, tx: CheckedAdapter, existing: AdapterUser, profile?: User): Promise<Proven> {
  if (existing.emailVerified) return { user: existing, isNewUser: false }
  const address = existing.email
  const taken = await takeUnprovenMark(tx, existing.id)
  if (taken) {
    try {
      const aside = await setAside(ctx, tx, existing)
      const user = await tx.createUser(newUser(ctx, { ...profile, email: address }, new Date()))
      return { user, isNewUser: true, setAside: aside }
    } catch (error) {
      // Without a transaction nothing rolls back: the mark must not be lost with the attempt, or
      // the next proof would take the unproven user for one of Auth.js's and verify it. When the
      // storage is away it cannot be written back now: it is put back with what the request spent
      // (before the link that proves the address, which was spent first: `putBack` goes backwards).
      if (!tx.inTransaction) await markUnproven(tx, existing.id).catch(() => void ctx.spentOneTime.push(taken))
      throw error
    }
  }
  // No mark: one of Auth.js's users, or an unproven one that a concurrent proof took the mark of
  // and is setting aside. Verify only a user that still holds the address, before and after.
  const now = await tx.getUser(existing.id)
  if (!now || !sameAddress(now.email, address)) return concurrentProof(tx, address)
  const verified = await tx.updateUser({ id: existing.id, emailVerified: new Date() })
  if (!sameAddress(verified.email, address)) {
    await tx.updateUser({ id: existing.id, emailVerified: null })
    return concurrentProof(tx, address)
  }
  return { user: verified, isNewUser: false }
}

function sameAddress(a: string | null | undefined, b: string): boolean {
  return typeof a === "string" && a.toLowerCase() === b.toLowerCase()
}

/**
 * Another proof of `address` set its unproven user aside while this one ran: the owner's user is
 * the one that proof made. Not there yet (it is being made): a conflict the browser may retry.
 */
async function concurrentProof(tx: CheckedAdapter, address: string): Promise<Proven> {
  const owner = await tx.getUserByEmail(address)
  if (owner?.emailVerified) return { user: owner, isNewUser: false }
  throw new Verification("The address was being proven by another request at the same time; follow the link again.")
}

/** The events of `ownerProved`, once its transaction is over. */
export async function announce(ctx: RequestContext, proven: Proven, before: AdapterUser): Promise<void> {
  const { config, headers } = ctx
  if (proven.setAside) {
    await emit(config, "updateUser", { user: proven.setAside })
    // The unproven user's address was taken from it; nobody signed in as that user did it.
    await emitSecurity(config, headers, { type: "user.updated", userId: proven.setAside.id, actorId: proven.user.id, details: { fields: ["email"] } })
  }
  if (proven.isNewUser) {
    await emit(config, "createUser", { user: proven.user })
    await emitSecurity(config, headers, { type: "user.created", userId: proven.user.id })
  } else if (proven.user !== before) {
    await emit(config, "updateUser", { user: proven.user })
    await emitSecurity(config, headers, { type: "user.updated", userId: proven.user.id, details: { fields: ["emailVerified"] } })
  }
}

/** The security event of an account just linked to `userId`: a passkey added, or a provider's account linked. */
async function linkedEvent(ctx: RequestContext, userId: string, stored: { type: string; provider: string }): Promise<void> {
  await emitSecurity(ctx.config, ctx.headers, { type: stored.type === "webauthn" ? "passkey.added" : "account.linked", userId, provider: stored.provider })
}

function storedAccount(account: Account, userId: string) {
  return { ...account, userId, type: account.type as "oauth" | "oidc" | "email" | "webauthn" }
}

/** A user signing in by email link or code with `provider`: the address is proven. `email` is normalised. */
export async function decideForEmail(ctx: RequestContext, adapter: CheckedAdapter, email: string, provider: string): Promise<Decision> {
  const existing = await adapter.getUserByEmail(email)
  if (existing) {
    if (existing.emailVerified) return { user: existing, isNewUser: false }
    const proven = await adapter.transaction((tx) => ownerProved(ctx, tx, existing))
    await announce(ctx, proven, existing)
    return { user: proven.user, isNewUser: proven.isNewUser }
  }
  const user = await adapter.createUser(newUser(ctx, { email }, new Date()))
  await emit(ctx.config, "createUser", { user })
  await emitSecurity(ctx.config, ctx.headers, { type: "user.created", userId: user.id, provider })
  return { user, isNewUser: true }
}

/** A user returned by a credentials provider's `authorize`. */
export async function decideForCredentials(ctx: RequestContext, provider: CredentialsProvider, user: User): Promise<Decision> {
  const { config } = ctx
  const adapter = provider.users
  // JWT sessions store nothing: the app's word is the user (its user fields checked, defaults filled).
  if (!adapter) return { user: { ...user, ...userFieldsOf(ctx, user) }, isNewUser: false }
  const known = (user.id ? await adapter.getUser(user.id) : null) ?? (user.email ? await adapter.getUserByEmail(user.email) : null)
  if (known) return { user: known, isNewUser: false }
  if (!provider.config.createUser) {
    throw new AccessDenied(
      `The credentials provider "${provider.id}" returned a user the adapter does not know (with database sessions, the user \`authorize\` returns must be found in the adapter, by id, then email). ` +
        `Set \`createUser: true\` on the provider to create such users at their first sign-in, create the user first, or use \`session: { strategy: "jwt" }\`.`,
    )
  }
  if (!user.email) {
    throw new CallbackRouteError(`The credentials provider "${provider.id}" must return an email to create a user.`)
  }
  const created = await adapter.createUser({ ...newUser(ctx, user, null), id: user.id ?? crypto.randomUUID() })
  await emit(config, "createUser", { user: created })
  await emitSecurity(config, ctx.headers, { type: "user.created", userId: created.id, provider: provider.id })
  return { user: created, isNewUser: true }
}
