/**
 * Account management for the signed-in user: the ways in linked to them (`listAccounts`),
 * removing one (`unlinkAccount`), and deleting the user (`deleteUser`). Server functions for an
 * app's account settings, beside session and passkey management; they read the session from the
 * request's cookies (either strategy) and only ever touch that user. Linking another provider is
 * the normal sign-in flow, started while signed in (`signIn("github")`): the account is linked to
 * the signed-in user (`account/decide.ts`).
 *
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../adapters/types.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { checkMaxAge, freshAge, signedInRecently } from "../session/fresh.js"
import { currentActing } from "../session/acting.js"
import { MissingAdapter } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import { signedInFor, type ServerUser } from "../http/server-context.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { currentAdapterUser } from "./passkeys.js"
import { deleteStoredUser } from "./delete.js"
import { keepsAWayIn, type WaysInOptions } from "./ways-in.js"

/** One provider account linked to the signed-in user. Tokens are never included. */
export interface AccountInfo {
  /** The provider's id (`github`, `passkey`, …). */
  provider: string
  /** The account's id with that provider. Pass it to `unlinkAccount`. */
  providerAccountId: string
  type: AdapterAccount["type"]
  /** The provider's name when it is configured, else its id. */
  providerName: string
}

/** Why `unlinkAccount` removed nothing. */
/** `Acting`: the session acts as the user on someone else's behalf (an admin's impersonation), who may not remove their ways in. */
export type UnlinkRefusal = "NotSignedIn" | "NotFound" | "LastSignInMethod" | "Acting"

export type AccountUnlinking = { unlinked: true } | { unlinked: false; reason: UnlinkRefusal }

/** Why `deleteUser` deleted nothing. */
export type UserDeletionRefusal = "NotSignedIn" | "SignInTooOld"

export type UserDeletion = { deleted: true } | { deleted: false; reason: UserDeletionRefusal }

export interface DeleteUserOptions {
  /**
   * How recent, in seconds, the sign-in of the request's session must be: deleting a user is
   * irreversible, so a session left open on a shared computer must not be enough. Default
   * `session.freshAge` (10 minutes). A session whose start is unknown never counts as recent.
   */
  maxSignInAge?: number
}

/** The signed-in stored user of a server function, and when their session's sign-in was (read only when asked). */
/** `actor`: who acts, when the session acts as the user on someone's behalf (`session/acting.ts`). */
export type SignedInUser = ServerUser<{ user: AdapterUser; signedInAt: () => Promise<number | undefined>; actor: () => Promise<string | undefined> }>

/**
 * The request's signed-in stored user (either session strategy) with the adapter, or null when it
 * is not signed in; throws `MissingAdapter` with `missing` when there is no adapter. For the
 * server functions that act for the user: account and passkey management.
 */
export function signedInUser(request: Request, configOrLazy: AuthConfig | LazyAuthConfig, missing: string): Promise<SignedInUser | null> {
  const adapterOf = (config: ResolvedConfig) => config.adapter ?? new MissingAdapter(missing)
  return signedInFor(request, configOrLazy, adapterOf, async (ctx) => {
    const user = await currentAdapterUser(ctx)
    return user && { user, signedInAt: () => ctx.config.sessionStrategy.signedInAt(ctx), actor: async () => (await currentActing(ctx))?.actorId }
  })
}

function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig, feature: string): Promise<SignedInUser | null> {
  return signedInUser(request, configOrLazy, `${feature} needs an \`adapter\`, where accounts are stored.`)
}

function info(config: ResolvedConfig, account: AdapterAccount): AccountInfo {
  const { provider, providerAccountId, type } = account
  return { provider, providerAccountId, type, providerName: config.providers.get(provider)?.name ?? provider }
}

/**
 * The provider accounts linked to the request's user, or null when the request is not signed in.
 * Needs the adapter's `listAccountsByUserId`.
 *
 * @example
 * ```ts
 * const accounts = await listAccounts(request, config)
 * // [{ provider: "github", providerAccountId: "1234", type: "oauth", providerName: "GitHub" }]
 * ```
 */
export async function listAccounts(request: Request, config: AuthConfig | LazyAuthConfig): Promise<AccountInfo[] | null> {
  const me = await signedIn(request, config, "listAccounts")
  if (!me) return null
  return (await me.adapter.listAccountsByUserId(me.user.id)).map((account) => info(me.config, account))
}

/**
 * Removes one of the request user's provider accounts (a passkey's account takes its passkey
 * along), unless it is their last way to sign in (`account/ways-in.ts`; `canSignInWithout` tells
 * of ways Sesame cannot see). Checked and removed in one transaction. Sends `unlinkAccount`.
 *
 * @example
 * ```ts
 * const result = await unlinkAccount(request, config, { provider: "github", providerAccountId: "1234" })
 * if (!result.unlinked && result.reason === "LastSignInMethod") showMessage("Add another way to sign in first.")
 * ```
 */
export async function unlinkAccount(
  request: Request,
  config: AuthConfig | LazyAuthConfig,
  account: { provider: string; providerAccountId: string },
  options: WaysInOptions = {},
): Promise<AccountUnlinking> {
  const me = await signedIn(request, config, "unlinkAccount")
  if (!me) return { unlinked: false, reason: "NotSignedIn" }
  if (await me.actor()) return { unlinked: false, reason: "Acting" }
  if (typeof account?.provider !== "string" || typeof account.providerAccountId !== "string") return { unlinked: false, reason: "NotFound" }
  const result = await me.adapter.transaction(async (adapter): Promise<{ removed: AdapterAccount } | AccountUnlinking> => {
    const stored = await adapter.getAccount(account.providerAccountId, account.provider)
    if (!stored || stored.userId !== me.user.id) return { unlinked: false, reason: "NotFound" }
    const passkey = stored.type === "webauthn" ? await adapter.getAuthenticator(stored.providerAccountId) : null
    const leaving = { account: stored, ...(passkey ? { passkey } : {}) }
    if (!(await keepsAWayIn(me.config, adapter, me.user, leaving, options))) return { unlinked: false, reason: "LastSignInMethod" }
    if (passkey && passkey.userId === me.user.id) await adapter.deleteAuthenticator(passkey.credentialID)
    await adapter.unlinkAccount({ provider: stored.provider, providerAccountId: stored.providerAccountId })
    return { removed: stored }
  })
  if (!("removed" in result)) return result
  await emit(me.config, "unlinkAccount", { user: me.user, account: info(me.config, result.removed) })
  await emitSecurity(me.config, request.headers, { type: result.removed.type === "webauthn" ? "passkey.removed" : "account.unlinked", userId: me.user.id, provider: result.removed.provider })
  return { unlinked: true }
}

/**
 * Deletes the request's user with everything stored for them (the adapter's `deleteUser`: their
 * accounts and provider tokens, sessions, passkeys and password), when the session's sign-in is
 * recent (`maxSignInAge`). Sends `deleteUser`. Database sessions end with the user; JWT sessions
 * end with `session.revocation` (without it, sign the browser out afterwards: the session is no
 * longer readable as a stored user either way).
 *
 * @example
 * ```ts
 * const result = await deleteUser(request, config)
 * if (!result.deleted && result.reason === "SignInTooOld") redirect("/auth/signin?callbackUrl=/settings")
 * ```
 */
export async function deleteUser(request: Request, config: AuthConfig | LazyAuthConfig, options: DeleteUserOptions = {}): Promise<UserDeletion> {
  checkMaxAge(options.maxSignInAge, "maxSignInAge")
  const me = await signedIn(request, config, "deleteUser")
  if (!me) return { deleted: false, reason: "NotSignedIn" }
  if (!signedInRecently(await me.signedInAt(), freshAge(me.config, options.maxSignInAge))) return { deleted: false, reason: "SignInTooOld" }
  await deleteStoredUser(me.config, me.adapter, me.user)
  await emitSecurity(me.config, request.headers, { type: "user.deleted", userId: me.user.id })
  return { deleted: true }
}
