/**
 * The core's server functions for the signed-in user (account, session and passkey management),
 * bound to the request Next.js is handling: server components, route handlers and server actions
 * have the browser's headers (`next/headers`) but no `Request`, so each call builds one the way
 * the server actions do (`coreRequest`: the browser's headers and the cookies of `cookies()`, at the
 * public origin the core's `appOrigin` gives) and passes the configuration `handlers` uses, so the
 * core resolves that one object once for every use.
 *
 * Errors are the caller's, as with the core functions: a configuration without an adapter, or a
 * passkey name that is not allowed, throws.
 *
 * @module
 */
import {
  callModuleApi,
  changePassword,
  deletePasskey,
  deleteUser,
  hasPassword,
  listAccounts,
  listPasskeys,
  listSessions,
  renamePasskey,
  requestEmailChange,
  requireRecentSignIn,
  revokeOtherSessions,
  revokeSession,
  setPassword,
  twoFactorStatus,
  unlinkAccount,
  updateUserFields,
  type RecentSignIn,
  type RecentSignInOptions,
} from "@sesame/core"
import { getApiToken, type IssuedApiToken } from "@sesame/core/api-tokens"
import { moduleApi, type ServerFunction } from "@sesame/core/integration"
import { load } from "./config.js"
import { writeCookies } from "./cookies.js"
import { coreRequest } from "./core-call.js"
import { browserHeaders } from "./server-session.js"
import type { PrimaryAuthConfigInput, ServerFunctions } from "./types.js"

/** `fn` with the request being handled and the package's core configuration filled in. */
function bound<Args extends unknown[], Result>(input: PrimaryAuthConfigInput, fn: ServerFunction<Args, Result>) {
  return async (...args: Args): Promise<Result> => {
    // Before the configuration: reading the headers is what tells Next.js the page is dynamic.
    const { headers } = await browserHeaders()
    const prepared = await load(input, undefined)
    // The request a `GET session` would be: the core reads the session from it as that endpoint does.
    return fn(coreRequest(prepared, headers, "session"), prepared.handlers, ...args)
  }
}

/**
 * `requireRecentSignIn` for the page being rendered or the action being run. Next.js gives no URL
 * of the page, so the browser comes back to `returnTo`, else to the page the request came from
 * (its same-origin `Referer`, which a server action's POST carries), else to the home page.
 */
function recentSignIn(input: PrimaryAuthConfigInput) {
  return async (options: RecentSignInOptions = {}): Promise<RecentSignIn> => {
    const { headers } = await browserHeaders()
    const prepared = await load(input, undefined)
    const request = coreRequest(prepared, headers, "session")
    const origin = new URL(request.url).origin
    const referer = headers.get("referer")
    const fromReferer = referer && URL.canParse(referer) && new URL(referer).origin === origin ? referer : undefined
    return requireRecentSignIn(request, prepared.handlers, { ...options, returnTo: options.returnTo ?? fromReferer ?? `${origin}/` })
  }
}

/**
 * `getApiToken` for the request being handled. The session read behind it may refresh the session
 * cookie: written where Next.js allows it (route handlers, server actions), as `auth()` does.
 */
function apiToken(input: PrimaryAuthConfigInput) {
  return async (): Promise<IssuedApiToken | null> => {
    const { headers, store } = await browserHeaders()
    const prepared = await load(input, undefined)
    const grant = await getApiToken(coreRequest(prepared, headers, "token"), prepared.handlers)
    if (!grant) return null
    const { cookies, ...issued } = grant
    writeCookies(store, cookies)
    return issued
  }
}

/** The server functions of `Sesame(config)`. */
export function serverFunctions(input: PrimaryAuthConfigInput): ServerFunctions {
  return {
    listAccounts: bound(input, listAccounts),
    unlinkAccount: bound(input, unlinkAccount),
    deleteUser: bound(input, deleteUser),
    updateUserFields: bound(input, updateUserFields),
    listSessions: bound(input, listSessions),
    revokeSession: bound(input, revokeSession),
    revokeOtherSessions: bound(input, revokeOtherSessions),
    listPasskeys: bound(input, listPasskeys),
    renamePasskey: bound(input, renamePasskey),
    deletePasskey: bound(input, deletePasskey),
    hasPassword: bound(input, hasPassword),
    changePassword: bound(input, changePassword),
    setPassword: bound(input, setPassword),
    requestEmailChange: bound(input, requestEmailChange),
    requireRecentSignIn: recentSignIn(input),
    twoFactorStatus: bound(input, twoFactorStatus),
    getApiToken: apiToken(input),
    // The plugins' server functions, each bound to the request like the functions above.
    api: moduleApi((name, args) => bound(input, callModuleApi)(name, ...args)),
  }
}
