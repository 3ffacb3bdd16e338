/**
 * The core's server functions for the signed-in user (account, session and passkey management),
 * and the plugins' (`api`), taking the request and the configuration the way `getSession(request, options)` does: the
 * request SolidStart is handling (`getRequestEvent()!.request` in a server function) and the
 * options given to `SolidAuth`, turned into the core configuration `SolidAuth` itself uses, so the
 * core resolves that one object once for every use.
 *
 * Unlike `getSession`, they do not fail closed: they act for the user, and the caller must know
 * when that did not happen. Errors are the caller's, as with the core functions (a configuration
 * without an adapter, a passkey name that is not allowed).
 *
 * @module
 */
import * as core from "@sesame/core"
import { appOrigin, moduleApi, type ModuleApi, type ServerFunction } from "@sesame/core/integration"
import { coreConfig, type SolidAuthOptions } from "./config.js"
import { returnAddress } from "./redirect.js"

/**
 * `fn` taking the integration's options instead of the core configuration. (The parameter is
 * `config`, not `options`: several functions have `options` of their own among `args`.)
 */
function withOptions<Args extends unknown[], Result>(fn: ServerFunction<Args, Result>, owner: string) {
  return async (request: Request, config: SolidAuthOptions, ...args: Args): Promise<Result> =>
    fn(request, coreConfig(config, owner).config, ...args)
}

/**
 * The provider accounts linked to the request's user (never tokens), or null when it is not signed
 * in. Needs an `adapter`.
 *
 * @example
 * ```ts
 * const accounts = await listAccounts(getRequestEvent()!.request, authConfig)
 * // [{ provider: "github", providerAccountId: "1234", type: "oauth", providerName: "GitHub" }]
 * ```
 */
export const listAccounts = withOptions(core.listAccounts, "listAccounts")

/**
 * Removes one of the request user's provider accounts (from `listAccounts`), unless it is their
 * last way to sign in: `{ unlinked: true }`, or `{ unlinked: false, reason }`.
 * `options.canSignInWithout` tells of ways Sesame cannot see (a password).
 */
export const unlinkAccount = withOptions(core.unlinkAccount, "unlinkAccount")

/**
 * Deletes the request's user with their accounts, sessions and passkeys, when the session's sign-in
 * is recent (`options.maxSignInAge`, default 10 minutes): `{ deleted: true }`, or
 * `{ deleted: false, reason }`. Sign a JWT session out afterwards.
 */
export const deleteUser = withOptions(core.deleteUser, "deleteUser")

/**
 * Sets the request user's own fields that `user.fields` declares `input: true` (a locale): `{
 * updated: true, fields }`, or `{ updated: false, reason }` (`InvalidField` names a field users may
 * not set, an undeclared one, or a value of the wrong type; nothing is written then).
 */
export const updateUserFields = withOptions(core.updateUserFields, "updateUserFields")

/** The request user's database sessions, newest first, or null when it is not signed in. */
export const listSessions = withOptions(core.listSessions, "listSessions")

/** Revokes one of the request user's sessions by its `id` (from `listSessions`); whether one was revoked. */
export const revokeSession = withOptions(core.revokeSession, "revokeSession")

/** Signs the request's user out everywhere but this session; how many sessions ended. */
export const revokeOtherSessions = withOptions(core.revokeOtherSessions, "revokeOtherSessions")

/** The request user's passkeys, oldest first, or null when it is not signed in. */
export const listPasskeys = withOptions(core.listPasskeys, "listPasskeys")

/** Names one of the request user's passkeys; null when not signed in or not theirs. Throws a `TypeError` for a bad name. */
export const renamePasskey = withOptions(core.renamePasskey, "renamePasskey")

/** Deletes one of the request user's passkeys with its account, unless it is their last way to sign in. */
export const deletePasskey = withOptions(core.deletePasskey, "deletePasskey")

/** Whether the request's user has a password (the `Password()` provider), or null when it is not signed in. */
export const hasPassword = withOptions(core.hasPassword, "hasPassword")

/**
 * Changes the request user's password: the current one must match (attempts count against the
 * sign-in throttle) and the new one pass the policy: `{ changed: true, sessionsEnded }`, or
 * `{ changed: false, reason }`. Ends the user's other database sessions.
 */
export const changePassword = withOptions(core.changePassword, "changePassword")

/**
 * Sets a first password for the request's user, who has none, after a recent sign-in
 * (`options.maxSignInAge`, default 10 minutes): `{ set: true }`, or `{ set: false, reason }`.
 */
export const setPassword = withOptions(core.setPassword, "setPassword")

/**
 * Emails a link to `email` that moves the request's user to that address once followed, after a
 * recent sign-in: `{ requested: true }` (also when the address is another account's: then nothing
 * is sent), or `{ requested: false, reason }`.
 */
export const requestEmailChange = withOptions(core.requestEmailChange, "requestEmailChange")

/**
 * Whether the request's session signed in recently enough for a sensitive action
 * (`options.maxAge`, default `session.freshAge`, 10 minutes): `{ recent: true }`, or
 * `{ recent: false, reason, redirect }`, where `redirect` sends the browser to prove who it is
 * again and come back to `options.returnTo` (a path), else to the page asked for (a document
 * request) or the page the server function was called from (its same-origin `Referer`), else `/`.
 *
 * @example
 * ```ts
 * const check = await requireRecentSignIn(getRequestEvent()!.request, authConfig)
 * if (!check.recent) throw new Response(null, { status: 302, headers: { location: check.redirect } })
 * ```
 */
export async function requireRecentSignIn(request: Request, config: SolidAuthOptions, options: core.RecentSignInOptions = {}): Promise<core.RecentSignIn> {
  const { config: coreOptions } = coreConfig(config, "requireRecentSignIn")
  // A server function's request is `/_server`: come back to the page it was called from, as the guards do.
  const returnTo = options.returnTo ?? returnAddress(request, appOrigin(coreOptions, request)) ?? "/"
  return core.requireRecentSignIn(request, coreOptions, { ...options, returnTo })
}

/** The request user's second factor (`enabled`, `method`, recovery codes left, the settings page's URL), or null when it is not signed in or two-factor sign-in is off. */
export const twoFactorStatus = withOptions(core.twoFactorStatus, "twoFactorStatus")

/**
 * The server functions of the configuration's plugins (`plugins`), for `request`: each reads the
 * request's signed-in user (or none), as `getSession(request, options)` does, and gets the core
 * configuration `SolidAuth` uses. Nothing per plugin: `api(request, options).<name>(...args)` is the
 * core's `callModuleApi`, with its errors: a function of a plugin that is off (its models need an
 * adapter with a `store`) rejects with `MissingAdapterMethods`, a name no plugin has with a
 * `TypeError`. A bad configuration throws its `TypeError` here. They set no cookies.
 *
 * @returns `api.<name>(...args)` runs the plugin's server function `name`. For their types,
 *   `api(request, options) as ServerFunctionsOf<typeof plugin>` (`ServerFunctionsOf` from this
 *   package or `@sesame/core`).
 *
 * @example
 * ```ts
 * "use server"
 * const plugins = api(getRequestEvent()!.request, authConfig) as ServerFunctionsOf<typeof visits>
 * return plugins.visit()
 * ```
 */
export function api(request: Request, options: SolidAuthOptions): ModuleApi {
  const { config } = coreConfig(options, "api")
  return moduleApi((name, args) => core.callModuleApi(request, config, name, ...args))
}
