/**
 * `@sesame/next`: Sesame for Next.js 15 and 16 (App Router and pages router).
 *
 * @example
 * ```ts
 * // auth.ts
 * import Sesame from "@sesame/next"
 * import Credentials from "@sesame/core/providers/credentials"
 *
 * export const { handlers, auth, signIn, signOut, unstable_update } = Sesame({
 *   providers: [Credentials({ authorize: async (credentials) => findUser(credentials) })],
 * })
 * ```
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { cache } from "react"
import { signInAction, signOutAction, updateAction } from "./actions.js"
import { createHandlers } from "./handlers.js"
import { checkGuardOptions, guard } from "./guard.js"
import { serverFunctions } from "./server-functions.js"
import { sessionForPages, sessionFromNext } from "./server-session.js"
import type {
  AuthenticatedHandler,
  AuthFunction,
  PagesContext,
  PagesRequest,
  PagesResponse,
  PrimaryAuthConfigInput,
  SesameResult,
  SignInAction,
  SignOutAction,
} from "./types.js"
import type { NextRequest } from "next/server.js"

export type {
  Account,
  AccountInfo,
  AccountUnlinking,
  AuthConfig,
  DefaultSession,
  DeletePasskeyOptions,
  DeleteUserOptions,
  PasskeyDeletion,
  PasskeyInfo,
  Profile,
  Session,
  SessionInfo,
  User,
  UserDeletion,
  WaysInOptions,
} from "@sesame/core"
export type { JWT } from "@sesame/core/jwt"
export { AuthError, CredentialsSignin, StorageUnavailable } from "@sesame/core/errors"
export { isStorageUnavailable } from "@sesame/core/integration"
export type {
  AuthenticatedHandler,
  AuthenticatedSession,
  AuthFunction,
  AuthorizationParams,
  AuthorizedCallback,
  AuthorizedParams,
  GuardOptions,
  NextAuthRequest,
  PagesContext,
  PagesRequest,
  PagesResponse,
  PrimaryAuthConfig,
  PrimaryAuthConfigInput,
  PrimaryCallbacksOptions,
  SesameResult,
  ServerFunctions,
  SessionUpdate,
  SignInAction,
  SignInOptions,
  SignOutAction,
  SignOutOptions,
} from "./types.js"

function isWebRequest(value: unknown): value is NextRequest {
  return typeof value === "object" && value !== null && typeof (value as { headers?: { get?: unknown } }).headers?.get === "function"
}

function isPagesContext(value: unknown): value is PagesContext {
  return typeof value === "object" && value !== null && "req" in value && "res" in value
}

/**
 * Sets Sesame up for a Next.js app. Takes the configuration, or a function of the request that
 * returns it (the request is absent in server components and server actions).
 *
 * @returns `handlers` for the catch-all route under `basePath` (`/api/auth` by default), `auth`
 * (the session, the proxy/middleware guard and handler wrapper), the server actions `signIn`,
 * `signOut` and `unstable_update`, and the server functions for the signed-in user's accounts,
 * sessions and passkeys (`listAccounts`, `unlinkAccount`, `deleteUser`, … see `ServerFunctions`).
 */
export default function Sesame(config: PrimaryAuthConfigInput): SesameResult {
  // One session read per request however many server components ask: React's `cache` is scoped
  // to the request being rendered (outside a render it simply calls through).
  const sessionOfRequest = cache((): Promise<Session | null> => sessionFromNext(config))

  function auth(...args: unknown[]): unknown {
    const [first, second] = args
    if (args.length === 0 || first === undefined) return sessionOfRequest()
    if (typeof first === "function") {
      const handler = first as AuthenticatedHandler<unknown>
      const options = checkGuardOptions(second)
      return (request: NextRequest, context: unknown) => guard(config, request, context, handler, options)
    }
    if (isWebRequest(first)) return guard(config, first, second)
    if (isPagesContext(first)) return sessionForPages(config, first.req, first.res)
    return sessionForPages(config, first as PagesRequest, second as PagesResponse)
  }

  return {
    handlers: createHandlers(config),
    auth: auth as AuthFunction,
    signIn: ((provider, options, authorizationParams) => signInAction(config, provider, options, authorizationParams)) as SignInAction,
    signOut: ((options) => signOutAction(config, options)) as SignOutAction,
    unstable_update: (data) => updateAction(config, data),
    ...serverFunctions(config),
  }
}
