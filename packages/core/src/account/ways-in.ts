/**
 * Whether a user keeps a way to sign in once something is removed: the rule that keeps
 * `unlinkAccount` and `deletePasskey` from locking a user out. What counts, read in the caller's
 * transaction:
 * - a configured email provider, when the user has an address (they can always ask for a link);
 * - a configured password provider, when the user has an address: with a password they sign in,
 *   and without one the forgotten-password link sets one;
 * - an account linked to the user with a configured OAuth or OIDC provider, other than the one
 *   leaving (read with the adapter's `listAccountsByUserId`; without it, no such account is
 *   counted, so the check errs on refusing);
 * - a passkey of the user, other than the one leaving, whose account belongs to a configured
 *   WebAuthn provider;
 * - what the app says through `canSignInWithout`: a credentials provider's `authorize` is the
 *   app's own code, so only the app knows whether this user has, say, a password.
 *
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { Awaitable } from "../types.js"

/** What a removal takes away: an account, a passkey, or both (a passkey goes with its account). */
export interface Leaving {
  account?: Pick<AdapterAccount, "provider" | "providerAccountId">
  passkey?: Pick<AdapterAuthenticator, "credentialID">
}

/** The app's word on ways to sign in that Sesame cannot see. */
export interface WaysInOptions {
  /**
   * Whether the user can sign in without what is being removed in a way Sesame cannot see, such as
   * a password your credentials provider checks. Default: no.
   */
  canSignInWithout?: (user: AdapterUser) => Awaitable<boolean>
}

function sameAccount(a: Pick<AdapterAccount, "provider" | "providerAccountId">, b: Leaving["account"]): boolean {
  return !!b && a.provider === b.provider && a.providerAccountId === b.providerAccountId
}

/** The accounts of `authenticator` with configured WebAuthn providers that belong to `user`. */
export async function passkeyAccounts(config: ResolvedConfig, adapter: CheckedAdapter, user: AdapterUser, authenticator: AdapterAuthenticator): Promise<AdapterAccount[]> {
  const found: AdapterAccount[] = []
  for (const provider of config.providers.values()) {
    if (provider.type !== "webauthn") continue
    const account = await adapter.getAccount(authenticator.providerAccountId, provider.id)
    if (account && account.userId === user.id) found.push(account)
  }
  return found
}

/** Whether `user` keeps a way to sign in once `leaving` is gone (see the module's list). */
export async function keepsAWayIn(
  config: ResolvedConfig,
  adapter: CheckedAdapter,
  user: AdapterUser,
  leaving: Leaving,
  options: WaysInOptions = {},
): Promise<boolean> {
  if (user.email && [...config.providers.values()].some((p) => p.type === "email" || p.type === "password")) return true
  if (adapter.has("listAccountsByUserId")) {
    for (const account of await adapter.listAccountsByUserId(user.id)) {
      const type = config.providers.get(account.provider)?.type
      if ((type === "oauth" || type === "oidc") && (account.type === "oauth" || account.type === "oidc") && !sameAccount(account, leaving.account)) return true
    }
  }
  if (adapter.has("listAuthenticatorsByUserId")) {
    for (const other of await adapter.listAuthenticatorsByUserId(user.id)) {
      if (other.credentialID === leaving.passkey?.credentialID) continue
      const accounts = await passkeyAccounts(config, adapter, user, other)
      if (accounts.some((account) => !sameAccount(account, leaving.account))) return true
    }
  }
  return (await options.canSignInWithout?.(user)) === true
}
