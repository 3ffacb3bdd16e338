/**
 * The sign-in decision's rules: which user a verified identity belongs to, and what is created or
 * linked on the way. `sign-in.ts` applies them, after the `signIn` callback.
 *
 * The rules, with an adapter:
 * - **Provider accounts** (OAuth, OIDC, passkeys). The user the account is linked to is looked up
 *   once, first (`linkedUser`; for a passkey, through its authenticator), so that the `signIn`
 *   callback sees the stored user of a returning account; then `decideForAccount` applies these
 *   rules. An account already linked signs its user in; if someone else is signed in on this
 *   browser, that is `OAuthAccountNotLinked` (one account cannot belong to two users). A new
 *   account is linked to the signed-in user, if any, unless the provider's callbacks are not bound
 *   to the browser (`checks: ["none"]`): then a forged callback could plant the forger's account
 *   in the victim's user, so linking is refused (`OAuthAccountNotLinked`). Otherwise its email
 *   decides:
 *   - an unknown email creates the user (verified when the provider vouches for the address) and
 *     links the account, in one transaction when the adapter has them;
 *   - an email whose user is unverified, when the provider vouches for the address: the address
 *     is taken back from whoever claimed it (`reclaim.ts`), then the account is linked;
 *   - any other owned email is `OAuthAccountNotLinked`, because a provider's say-so is not proof
 *     that the person owns that user; `allowDangerousEmailAccountLinking` links anyway, but only
 *     when the provider vouches for the address (`email_verified`, or its `isEmailVerified`).
 *   Passkeys follow the same rules with `AccountNotLinked` as the conflict (they never vouch for
 *   an address), and write their authenticator in the transaction that links the account, so no
 *   account is left without its key.
 * - **Email**. The address is the identity, and following the link proves it: its user signs in,
 *   verified the first time (taking the address back when the user was unverified, as above); an
 *   unknown address creates a verified user. No account row is written.
 * - **Credentials**. The app's `authorize` vouches for the user: its word is not checked against
 *   any proof, and a user it creates is not reclaimed by the rules above unless it is stored
 *   unverified. With JWT sessions nothing is stored. With database sessions the user that
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
import { AccessDenied, CallbackRouteError, OAuthAccountNotLinked, type SignInError } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { signedInUser } from "../session/index.js"
import type { Account, User } from "../types.js"
import { reclaimAddress } from "./reclaim.js"
import { accountSubject } from "./subject.js"

export interface Decision {
  user: User | AdapterUser
  isNewUser: boolean
  /**
   * For a provider account with an adapter: whether the account still belongs to the user, asked
   * again once the session exists (see `SignInResult.recheck`).
   */
  recheck?: () => Promise<boolean>
}

function newUser(user: User, emailVerified: Date | null): AdapterUser {
  return {
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
  if (!config.adapter) return { user: { ...params.user, id: await accountSubject(account.provider, account.providerAccountId) }, isNewUser: false }
  const adapter = config.adapter
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  // Between this decision and the session, the address's owner may prove it and take it back
  // (reclaim.ts): the session strategy asks this once the session exists, and ends it if not.
  const stillLinked = (userId: string) => async () => (await adapter.getUserByAccount(key))?.id === userId
  const current = await signedInUser(ctx)
  const link = (userId: string) =>
    adapter.transaction(async (tx: CheckedAdapter) => {
      const stored = storedAccount(account, userId)
      await tx.linkAccount(stored)
      await params.onLink?.(tx, userId)
      return stored
    })
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
    const stored = await link(current.id)
    await emit(config, "linkAccount", { user: current, account: stored, profile: params.user })
    return { user: current, isNewUser: false, recheck: stillLinked(String(current.id)) }
  }
  const email = params.user.email
  const owner = email ? await adapter.getUserByEmail(email) : null
  const vouched = params.emailVerified === true
  if (owner) {
    if (!owner.emailVerified && vouched) {
      const reclaimed = await reclaimAddress(ctx, adapter, owner, params.user)
      const stored = await link(reclaimed.id)
      await emit(config, "linkAccount", { user: reclaimed, account: stored, profile: params.user })
      return { user: reclaimed, isNewUser: false, recheck: stillLinked(reclaimed.id) }
    }
    if (!params.allowDangerousEmailAccountLinking || !vouched) {
      throw new NotLinked("Another user already has this email address; sign in with the method used before.")
    }
    const stored = await link(owner.id)
    await emit(config, "linkAccount", { user: owner, account: stored, profile: params.user })
    return { user: owner, isNewUser: false, recheck: stillLinked(owner.id) }
  }
  if (!email) {
    throw new CallbackRouteError(`Provider "${account.provider}" returned no email address, which is needed to create a user.`)
  }
  const { user, stored } = await adapter.transaction(async (tx: CheckedAdapter) => {
    const created = await tx.createUser(newUser({ ...params.user, email }, vouched ? new Date() : null))
    const stored = storedAccount(account, created.id)
    await tx.linkAccount(stored)
    await params.onLink?.(tx, created.id)
    return { user: created, stored }
  })
  await emit(config, "createUser", { user })
  await emit(config, "linkAccount", { user, account: stored, profile: params.user })
  return { user, isNewUser: true, recheck: stillLinked(user.id) }
}

function storedAccount(account: Account, userId: string) {
  return { ...account, userId, type: account.type as "oauth" | "oidc" | "email" | "webauthn" }
}

/** A user signing in by email link. `email` is normalised. */
export async function decideForEmail(ctx: RequestContext, adapter: CheckedAdapter, email: string): Promise<Decision> {
  const existing = await adapter.getUserByEmail(email)
  if (existing) {
    if (existing.emailVerified) return { user: existing, isNewUser: false }
    return { user: await reclaimAddress(ctx, adapter, existing), isNewUser: false }
  }
  const user = await adapter.createUser(newUser({ email }, new Date()))
  await emit(ctx.config, "createUser", { user })
  return { user, isNewUser: true }
}

/** A user returned by a credentials provider's `authorize`. */
export async function decideForCredentials(ctx: RequestContext, provider: CredentialsProvider, user: User): Promise<Decision> {
  const { config } = ctx
  const adapter = provider.users
  // JWT sessions store nothing: the app's word is the user.
  if (!adapter) return { user, isNewUser: false }
  const known = (user.id ? await adapter.getUser(user.id) : null) ?? (user.email ? await adapter.getUserByEmail(user.email) : null)
  if (known) return { user: known, isNewUser: false }
  if (!provider.config.createUser) {
    throw new AccessDenied(
      `The credentials provider "${provider.id}" returned a user the adapter does not know. Create the user first, or set \`createUser: true\` on the provider.`,
    )
  }
  if (!user.email) {
    throw new CallbackRouteError(`The credentials provider "${provider.id}" must return an email to create a user.`)
  }
  const created = await adapter.createUser({ ...newUser(user, null), id: user.id ?? crypto.randomUUID() })
  await emit(config, "createUser", { user: created })
  return { user: created, isNewUser: true }
}
