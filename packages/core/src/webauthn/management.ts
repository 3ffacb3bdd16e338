/**
 * Passkey management for the signed-in user: list their passkeys, rename one, delete one. These
 * are server functions for an app's account settings; they read the session from the request's
 * cookies (either strategy) and only ever touch that user's passkeys: another user's passkey id is
 * "not found".
 *
 * Deleting is refused when the passkey is the user's last way to sign in, by the rule of
 * `account/ways-in.ts`, checked in the transaction that deletes.
 *
 * The adapter needs `updateAuthenticator` to rename, and `deleteAuthenticator` and `unlinkAccount`
 * to delete (the passkey's authenticator and its `webauthn` account go together).
 *
 * @module
 */
import { signedInUser, type SignedInUser } from "../account/management.js"
import { keepsAWayIn, passkeyAccounts, type WaysInOptions } from "../account/ways-in.js"
import type { AdapterAuthenticator } from "../adapters/types.js"
import { emitSecurity } from "../security-events.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import type { PasskeyInfo } from "./types.js"

/** Longest passkey name accepted, in characters. */
const maxPasskeyNameLength = 64

/** The request's signed-in user (either session strategy), or null. Throws for a bad configuration. */
function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<SignedInUser | null> {
  return signedInUser(request, configOrLazy, "Passkey management needs an `adapter`, where the passkeys are stored.")
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
async function owned(me: SignedInUser, id: unknown): Promise<AdapterAuthenticator | null> {
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

export type DeletePasskeyOptions = WaysInOptions

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
  let provider = "webauthn"
  const result = await me.adapter.transaction(async (adapter): Promise<PasskeyDeletion> => {
    const authenticator = await owned({ ...me, adapter }, id)
    if (!authenticator) return { deleted: false, reason: "NotFound" }
    const accounts = await passkeyAccounts(me.config, adapter, me.user, authenticator)
    const leaving = { passkey: authenticator, ...(accounts[0] ? { account: accounts[0] } : {}) }
    provider = accounts[0]?.provider ?? provider
    if (!(await keepsAWayIn(me.config, adapter, me.user, leaving, options))) return { deleted: false, reason: "LastSignInMethod" }
    for (const account of accounts) {
      await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    }
    await adapter.deleteAuthenticator(authenticator.credentialID)
    return { deleted: true }
  })
  if (result.deleted) await emitSecurity(me.config, request.headers, { type: "passkey.removed", userId: me.user.id, provider })
  return result
}
