/**
 * Public types of `@sesame/next`: the configuration (`PrimaryAuthConfig`), what `Sesame()`
 * returns, and the shapes of the server actions' arguments.
 *
 * @module
 */
import type { IssuedApiToken } from "@sesame/core/api-tokens"
import type { AuthorizationParams as CoreAuthorizationParams, ModuleApi } from "@sesame/core/integration"
import type {
  AccountInfo,
  AccountUnlinking,
  AuthConfig,
  Awaitable,
  CallbacksOptions,
  DeletePasskeyOptions,
  DeleteUserOptions,
  EmailChangeRequest,
  PasskeyDeletion,
  PasskeyInfo,
  PasswordChanging,
  PasswordSetting,
  Session,
  SessionInfo,
  RecentSignIn,
  User,
  RecentSignInOptions,
  SetPasswordOptions,
  TwoFactorStatus,
  UserDeletion,
  UserFieldsUpdate,
  WaysInOptions,
} from "@sesame/core"
import type { NextRequest } from "next/server.js"

/** What the `authorized` callback receives. */
export interface AuthorizedParams {
  /** The request the proxy (or middleware, or wrapped handler) is looking at. */
  request: NextRequest
  /** The session, or null when signed out. */
  auth: Session | null
}

/**
 * Decides whether a request may go on: `true` (or `undefined`) lets it through, `false` sends the
 * visitor to the sign-in page with a `callbackUrl` back, and a `Response` is sent as it is (a
 * redirect, a 403, a rewrite…).
 */
export type AuthorizedCallback = (params: AuthorizedParams) => Awaitable<boolean | Response | undefined | void>

/** The callbacks of the core plus `authorized`, which only the Next.js guard calls. */
export interface PrimaryCallbacksOptions extends CallbacksOptions {
  authorized: AuthorizedCallback
}

/**
 * The configuration of `Sesame()`: the core's `AuthConfig` plus `callbacks.authorized`. `basePath`
 * defaults to `/api/auth` (or the path of `AUTH_URL` / `SESAME_URL`).
 */
export interface PrimaryAuthConfig extends Omit<AuthConfig, "callbacks" | "raw"> {
  callbacks?: Partial<PrimaryCallbacksOptions>
}

/** A configuration, or a function of the request (absent in server components and actions) that returns one. */
export type PrimaryAuthConfigInput = PrimaryAuthConfig | ((request: NextRequest | undefined) => Awaitable<PrimaryAuthConfig>)

/** A session with a user: what `allow` is handed. */
export type AuthenticatedSession = Session & { user: User }

/** Options of the guard around a handler: `auth(handler, { allow })`. */
export interface GuardOptions {
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission), made
   * after `callbacks.authorized` let the request through: the handler runs only when it resolves
   * to `true`. With it, a request without a signed-in user is answered as `authorized` returning
   * `false` would (the sign-in redirect), and `allow` is not called; the configured sign-in and
   * error pages and the auth endpoints are never checked. Anything but `true` answers `403`:
   * `{ "error": "Forbidden", "message": "Access denied." }` to a client that wants JSON
   * (`Accept: application/json` without `text/html`, or `X-Requested-With`), a plain-text "Access
   * denied." otherwise. A `StorageUnavailable` it throws is the outage's `503` with
   * `Retry-After`; any other error is thrown on, to Next.js (a `500`).
   *
   * @param session - the request's session, with a user.
   * @param request - the request the guard is looking at.
   *
   * @example
   * ```ts
   * // app/api/projects/route.ts: only members whose roles grant project:create, with the
   * // organizations plugin in `plugins` (`api` and `auth` from `Sesame()` in auth.ts).
   * import { api, auth } from "@/auth"
   *
   * export const POST = auth(async (request) => Response.json(await createProject(request), { status: 201 }), {
   *   allow: async (session) => (await api.hasPermission(session.organization?.id, { project: ["create"] })) === true,
   * })
   * ```
   */
  allow?: (session: AuthenticatedSession, request: NextRequest) => boolean | Promise<boolean>
}

/** The request a wrapped handler receives: the `NextRequest` with the session as `auth`. */
export type NextAuthRequest = NextRequest & { auth: Session | null }

/** A proxy, middleware or route handler wrapped by `auth()`. */
export type AuthenticatedHandler<Context> = (request: NextAuthRequest, context: Context) => Awaitable<Response | undefined | void>

/** The request of a pages-router API route or `getServerSideProps` (Node's `IncomingMessage` fits). */
export interface PagesRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>
}

/** The response of a pages-router API route or `getServerSideProps` (Node's `ServerResponse` fits). */
export interface PagesResponse {
  getHeader(name: string): number | string | readonly string[] | undefined
  setHeader(name: string, value: number | string | readonly string[]): unknown
}

/** The context of `getServerSideProps` (anything with `req` and `res`). */
export interface PagesContext {
  req: PagesRequest
  res: PagesResponse
}

/**
 * `auth`, in every form:
 *
 * - `await auth()` in server components, route handlers and server actions: the session or null.
 * - `export { auth as proxy }` (Next.js 16) or `export { auth as middleware }`: the guard, which
 *   calls `callbacks.authorized` and keeps the session alive.
 * - `auth((request) => …)`: a proxy, middleware or route handler with `request.auth`;
 *   `auth(handler, { allow })` adds the app's check of the signed-in session (`403` when it
 *   refuses; see `GuardOptions`).
 * - `await auth(req, res)` or `await auth(context)` in the pages router.
 *
 * While the adapter's storage cannot be reached (a database restart, a failover), the session reads
 * (`auth()`, `auth(req, res)`, `auth(context)`) throw `StorageUnavailable` (`status` 503,
 * `retryAfter` seconds; `isStorageUnavailable(error)` tells it) rather than answer null, which
 * would mean "signed out": the app's error boundary (`error.tsx`) shows, or the app catches it. The
 * guard and a wrapped handler answer `503` with `Retry-After` (a "try again" page, or JSON for a
 * script asking for it) wherever the answer depends on the session, never the sign-in redirect.
 * A JWT session is read without the storage, and keeps working.
 */
export interface AuthFunction {
  (): Promise<Session | null>
  (request: NextRequest, context?: unknown): Promise<Response>
  <Context>(handler: AuthenticatedHandler<Context>, options?: GuardOptions): (request: NextRequest, context: Context) => Promise<Response>
  (context: PagesContext): Promise<Session | null>
  (request: PagesRequest, response: PagesResponse): Promise<Session | null>
}

/** Options of the `signIn` server action. Further keys are sent to the provider (credentials, email). */
export interface SignInOptions extends Record<string, unknown> {
  /** Where to go once signed in. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Options of the `signOut` server action. */
export interface SignOutOptions {
  /** Where to go once signed out. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Extra parameters for the authorization request of an OAuth provider (`login_hint`, `prompt`…). */
export type AuthorizationParams = CoreAuthorizationParams

/** The `signIn` server action. With `redirect: false` it returns the URL; otherwise it redirects. */
export interface SignInAction {
  (provider?: string, options?: FormData | (SignInOptions & { redirect: false }), authorizationParams?: AuthorizationParams): Promise<string>
  (provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<never | string>
}

/** The `signOut` server action. With `redirect: false` it returns the URL; otherwise it redirects. */
export interface SignOutAction {
  (options: SignOutOptions & { redirect: false }): Promise<string>
  (options?: SignOutOptions): Promise<never | string>
}

/** What `unstable_update` takes: a partial session, or an object with a partial user. */
export type SessionUpdate = Partial<Session> | { user: Partial<NonNullable<Session["user"]>> }

/**
 * The core's functions for the signed-in user, bound to the request being handled: call them in
 * server components, route handlers and server actions. Each reads the session from the browser's
 * cookies (either strategy) and only ever acts for that user; all but the session functions need an
 * `adapter`. They answer as the `@sesame/core` functions of the same names do.
 */
export interface ServerFunctions {
  /**
   * The server functions of the configuration's plugins, by name, for the request being handled:
   * `await api.recentSignIns({ limit: 5 })`. For their types, `api as ServerFunctionsOf<ReturnType<typeof plugin>>`
   * (from `@sesame/core`). A function of a plugin that is off throws `MissingAdapterMethods`.
   */
  api: ModuleApi
  /** The provider accounts linked to the user (never tokens), or null when signed out. */
  listAccounts(): Promise<AccountInfo[] | null>
  /**
   * Removes one of the user's provider accounts (from `listAccounts`), unless it is their last way
   * to sign in; `options.canSignInWithout` tells of ways Sesame cannot see (a password).
   */
  unlinkAccount(account: { provider: string; providerAccountId: string }, options?: WaysInOptions): Promise<AccountUnlinking>
  /**
   * Deletes the user with their accounts, sessions and passkeys, when the session's sign-in is
   * recent (`options.maxSignInAge`, default 10 minutes). Sign a JWT session out afterwards.
   */
  deleteUser(options?: DeleteUserOptions): Promise<UserDeletion>
  /**
   * Sets the user's own fields that `user.fields` declares `input: true` (a locale): `{ updated:
   * true, fields }`, or `{ updated: false, reason }` (`InvalidField` names a field users may not set,
   * an undeclared one, or a value of the wrong type; nothing is written then).
   */
  updateUserFields(values: Record<string, unknown>): Promise<UserFieldsUpdate>
  /** The user's database sessions, newest first, or null when signed out. */
  listSessions(): Promise<SessionInfo[] | null>
  /** Revokes one of the user's sessions by its `id` (from `listSessions`); whether one was revoked. */
  revokeSession(id: string): Promise<boolean>
  /** Signs the user out everywhere but this browser; how many sessions ended. */
  revokeOtherSessions(): Promise<number>
  /** The user's passkeys, oldest first, or null when signed out. */
  listPasskeys(): Promise<PasskeyInfo[] | null>
  /** Names one of the user's passkeys; null when signed out or not theirs. Throws a `TypeError` for a bad name. */
  renamePasskey(id: string, name: string): Promise<PasskeyInfo | null>
  /** Deletes one of the user's passkeys with its account, unless it is their last way to sign in. */
  deletePasskey(id: string, options?: DeletePasskeyOptions): Promise<PasskeyDeletion>
  /** Whether the user has a password (the `Password()` provider), or null when signed out. */
  hasPassword(): Promise<boolean | null>
  /**
   * Changes the user's password: the current one must match (attempts count against the sign-in
   * throttle) and the new one pass the policy. Ends the user's other database sessions.
   */
  changePassword(passwords: { currentPassword: string; newPassword: string }): Promise<PasswordChanging>
  /** Sets a first password for a user who has none, after a recent sign-in (`options.maxSignInAge`, default 10 minutes). */
  setPassword(password: { newPassword: string }, options?: SetPasswordOptions): Promise<PasswordSetting>
  /**
   * Emails a link to `email` that moves the user to that address once followed, after a recent
   * sign-in: `{ requested: true }` (also when the address is another account's: then nothing is
   * sent, and nobody learns it is taken), or `{ requested: false, reason }`.
   */
  requestEmailChange(input: { email: string }): Promise<EmailChangeRequest>
  /**
   * Whether the user signed in recently enough for a sensitive action (`options.maxAge`, default
   * `session.freshAge`, 10 minutes), or where to send them to prove who they are again: `if
   * (!check.recent) redirect(check.redirect)`. They come back to `options.returnTo` (a path), else
   * to the page the request came from.
   */
  requireRecentSignIn(options?: RecentSignInOptions): Promise<RecentSignIn>
  /** The user's second factor (`enabled`, `method`, recovery codes left, the settings page's URL), or null when signed out or two-factor sign-in is off. */
  twoFactorStatus(): Promise<TwoFactorStatus | null>
  /**
   * An API token for the signed-in user (`apiTokens` in the configuration), to call another service
   * with `Authorization: Bearer`; null when signed out. Not a provider's token (`getAccessToken`).
   */
  getApiToken(): Promise<IssuedApiToken | null>
}

/** What `Sesame()` returns. */
export interface SesameResult extends ServerFunctions {
  /** `export const { GET, POST } = handlers` in `app/api/auth/[...sesame]/route.ts`. */
  handlers: { GET: (request: NextRequest) => Promise<Response>; POST: (request: NextRequest) => Promise<Response> }
  auth: AuthFunction
  signIn: SignInAction
  signOut: SignOutAction
  /** Updates the session from the server (a server action or route handler); returns the new session. */
  unstable_update: (data: SessionUpdate) => Promise<Session | null>
}
