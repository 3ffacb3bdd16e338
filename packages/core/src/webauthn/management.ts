/**
 * Passkey management for the signed-in user: list their passkeys, rename one, delete one. These
 * are server functions for an app's account settings; they read the session from the request's
 * cookies (either strategy) and only ever touch that user's passkeys: another user's passkey id is
 * "not found".
 *
 * Deleting is refused when the passkey is the user's last way to sign in. What counts as another
 * way, checked in the transaction that deletes:
 * - another passkey of the user whose account belongs to a configured WebAuthn provider;
 * - an account linked to the user with a configured OAuth or OIDC provider (read with the adapter's
 *   `listAccountsByUserId`; without it, no such account is counted, so the check errs on refusing);
 * - a configured email provider, since the user can always ask for a link to their address;
 * - what the app says through `canSignInWithout`: a credentials provider's `authorize` is the
 *   app's own code, so only the app knows whether this user has, say, a password.
 *
 * The adapter needs `updateAuthenticator` to rename, and `deleteAuthenticator` and `unlinkAccount`
 * to delete (the passkey's authenticator and its `webauthn` account go together).
 *
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { MissingAdapter } from "../errors.js"
import { serverContext } from "../http/server-context.js"
import type { AuthConfig, Awaitable, LazyAuthConfig } from "../types.js"
import { currentAdapterUser } from "./current-user.js"
import type { PasskeyInfo } from "./types.js"

/** Longest passkey name accepted, in characters. */
const maxPasskeyNameLength = 64

interface SignedIn {
  config: ResolvedConfig
  adapter: CheckedAdapter
  user: AdapterUser
}

/** The request's signed-in user (either session strategy), or null. Throws for a bad configuration. */
async function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<SignedIn | null> {
  const ctx = await serverContext(request, configOrLazy)
  const resolved = ctx.config
  if (!resolved.adapter) throw new MissingAdapter("Passkey management needs an `adapter`, where the passkeys are stored.")
  const user = await currentAdapterUser(ctx)
  return user ? { config: resolved, adapter: resolved.adapter, user } : null
}

function info(authenticator: AdapterAuthenticator): PasskeyInfo {
  return {
    id: authenticator.credentialID,
    name: authenticator.name ?? null,
    createdAt: authenticator.createdAt ? new Date(authenticator.createdAt) : null,
    deviceType: authenticator.credentialDeviceType,
    backedUp: authenticator.credentialBackedUp,
    transports: authenticator.transports ? authenticator.transports.split(",").filter(Boolean) : [],
  }
}

/** The user's passkey `id`, or null when it does not exist or is someone else's. */
async function owned(me: SignedIn, id: unknown): Promise<AdapterAuthenticator | null> {
  if (typeof id !== "string" || id.length === 0) return null
  const authenticator = await me.adapter.getAuthenticator(id)
  return authenticator && authenticator.userId === me.user.id ? authenticator : null
}

/**
 * The passkeys of the request's user, oldest first, or null when the request is not signed in.
 *
 * @example
 * ```ts
 * const passkeys = await listPasskeys(request, config)
 * ```
 */
export async function listPasskeys(request: Request, config: AuthConfig | LazyAuthConfig): Promise<PasskeyInfo[] | null> {
  const me = await signedIn(request, config)
  if (!me) return null
  const passkeys = (await me.adapter.listAuthenticatorsByUserId(me.user.id)).map(info)
  return passkeys.sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0))
}

/**
 * Names one of the request user's passkeys (e.g. "Work laptop"). Returns the renamed passkey, or
 * null when the request is not signed in or the passkey is not theirs. Throws a `TypeError` for a
 * name that is empty, longer than 64 characters, or holds control characters.
 */
export async function renamePasskey(request: Request, config: AuthConfig | LazyAuthConfig, id: string, name: string): Promise<PasskeyInfo | null> {
  const trimmed = typeof name === "string" ? name.trim() : ""
  // Control characters would let a name break the lines of a settings page or a log.
  if (trimmed.length === 0 || [...trimmed].length > maxPasskeyNameLength || /\p{Cc}/u.test(trimmed)) {
    throw new TypeError(`A passkey name must be 1 to ${maxPasskeyNameLength} characters, without control characters.`)
  }
  const me = await signedIn(request, config)
  if (!me || !(await owned(me, id))) return null
  return info(await me.adapter.updateAuthenticator(id, { name: trimmed }))
}

/** Why `deletePasskey` deleted nothing. */
export type PasskeyDeletionRefusal = "NotSignedIn" | "NotFound" | "LastSignInMethod"

export type PasskeyDeletion = { deleted: true } | { deleted: false; reason: PasskeyDeletionRefusal }

export interface DeletePasskeyOptions {
  /**
   * Whether the user can sign in without passkeys in a way Sesame cannot see, such as a password
   * your credentials provider checks. Default: no.
   */
  canSignInWithout?: (user: AdapterUser) => Awaitable<boolean>
}

/** The `webauthn` accounts of configured providers that belong to `authenticator`. */
async function accountsOf(me: SignedIn, adapter: CheckedAdapter, authenticator: AdapterAuthenticator): Promise<AdapterAccount[]> {
  const found: AdapterAccount[] = []
  for (const provider of me.config.providers) {
    if (provider.type !== "webauthn") continue
    const account = await adapter.getAccount(authenticator.providerAccountId, provider.id)
    if (account && account.userId === me.user.id) found.push(account)
  }
  return found
}

/** Whether the user keeps a way to sign in once `leaving` is gone (see the module's list). */
async function keepsAWayIn(me: SignedIn, adapter: CheckedAdapter, leaving: AdapterAuthenticator, options: DeletePasskeyOptions): Promise<boolean> {
  const { config, user } = me
  if (user.email && config.providers.some((p) => p.type === "email")) return true
  for (const other of await adapter.listAuthenticatorsByUserId(user.id)) {
    if (other.credentialID !== leaving.credentialID && (await accountsOf(me, adapter, other)).length > 0) return true
  }
  if (adapter.has("listAccountsByUserId")) {
    const oauth = (await adapter.listAccountsByUserId(user.id)).filter((a) => a.type === "oauth" || a.type === "oidc")
    if (oauth.some((a) => config.oauthProviders.has(a.provider))) return true
  }
  return (await options.canSignInWithout?.(user)) === true
}

/**
 * Deletes one of the request user's passkeys, with its `webauthn` account, unless it is their last
 * way to sign in (see the module documentation for what counts).
 *
 * @example
 * ```ts
 * const result = await deletePasskey(request, config, id, { canSignInWithout: (user) => hasPassword(user.id) })
 * if (!result.deleted && result.reason === "LastSignInMethod") showMessage("Add another way to sign in first.")
 * ```
 */
export async function deletePasskey(
  request: Request,
  config: AuthConfig | LazyAuthConfig,
  id: string,
  options: DeletePasskeyOptions = {},
): Promise<PasskeyDeletion> {
  const me = await signedIn(request, config)
  if (!me) return { deleted: false, reason: "NotSignedIn" }
  // Checked and deleted in one transaction, so that two deletions at once cannot both pass the check.
  return me.adapter.transaction(async (adapter): Promise<PasskeyDeletion> => {
    const authenticator = await owned({ ...me, adapter }, id)
    if (!authenticator) return { deleted: false, reason: "NotFound" }
    if (!(await keepsAWayIn(me, adapter, authenticator, options))) return { deleted: false, reason: "LastSignInMethod" }
    for (const account of await accountsOf(me, adapter, authenticator)) {
      await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    }
    await adapter.deleteAuthenticator(authenticator.credentialID)
    return { deleted: true }
  })
}
