/**
 * `@sesame/core`: authentication as a function from a web `Request` to a `Response`.
 *
 * @example
 * ```ts
 * import { Auth } from "@sesame/core"
 * import Credentials from "@sesame/core/providers/credentials"
 *
 * const config = { providers: [Credentials({ authorize: async (c) => checkUser(c) })] }
 * export default { fetch: (request: Request) => Auth(request, config) }
 * ```
 *
 * @module
 */
import { dispatch } from "./actions/index.js"
import { resolveConfig } from "./config/resolve.js"
import { AuthError, BadRequest } from "./errors.js"
import { createContext, type RequestContext } from "./http/context.js"
import { asAuthError, badRequestResponse, configurationJson, configurationResponse, errorResponse } from "./http/error-response.js"
import { matchRoute, parseBody, parseQuery, requestCookies } from "./http/request.js"
import { toResponse, type InternalResponse } from "./http/response.js"
import { printError } from "./logger.js"
import { raw } from "./symbols.js"
import type { AuthConfig, LazyAuthConfig } from "./types.js"

export type {
  Account,
  AppProvider,
  AuthConfig,
  AuthFactor,
  Awaitable,
  CallbacksOptions,
  CommonProviderOptions,
  DefaultSession,
  EventCallbacks,
  ExperimentalOptions,
  JWTCallbackParams,
  LazyAuthConfig,
  PagesOptions,
  Profile,
  Provider,
  ProviderInput,
  ProviderType,
  Session,
  SessionCallbackParams,
  SessionOptions,
  SignInCallbackParams,
  SignInEventMessage,
  SignInFailureMessage,
  PasswordChangeMessage,
  SecondFactorParams,
  Theme,
  TwoFactorOptions,
  User,
} from "./types.js"
export type { CredentialInput, CredentialsConfig, CredentialsThrottleOptions } from "./credentials/types.js"
export type { ThrottleLimits, ThrottleOptions } from "./password/throttle.js"
export type { CounterStore } from "./password/counters.js"
export type { EmailConfig, EmailRateLimitOptions, RateLimitStore, SendVerificationRequestParams, VerificationEmail } from "./email/types.js"
export type {
  AnyOAuthConfig,
  AuthorizationEndpointConfig,
  EndpointParams,
  OAuth2Config,
  OAuthCheck,
  OAuthClientOptions,
  OAuthConfig,
  OAuthProviderButtonStyles,
  OIDCConfig,
  TokenEndpointConfig,
  TokenSet,
  UserinfoEndpointConfig,
} from "./oauth/types.js"
export type { BuiltInOAuthProviderId, EmailProviderId, OAuthProviderType } from "./providers/lib/catalogue.js"
export { getAccessToken } from "./oauth/refresh.js"
export type { GetAccessTokenParams } from "./oauth/refresh.js"
export type { PasskeyInfo, RelyingParty, ResidentKeyRequirement, UserVerificationRequirement, WebAuthnConfig } from "./webauthn/types.js"
export type { CookieOption, CookieOptions, CookiesOptions, PartialCookiesOptions, ResponseCookie } from "./http/cookies.js"
export type { InternalResponse } from "./http/response.js"
export type { LoggerInstance, WarningCode } from "./logger.js"
export type { MessageKey, MessageOverrides, Messages } from "./pages/messages.js"
export { raw, skipCSRFCheck } from "./symbols.js"
export { listSessions, revokeOtherSessions, revokeSession, type SessionInfo } from "./session/management.js"
export {
  deleteUser,
  listAccounts,
  unlinkAccount,
  type AccountInfo,
  type AccountUnlinking,
  type DeleteUserOptions,
  type UnlinkRefusal,
  type UserDeletion,
  type UserDeletionRefusal,
} from "./account/management.js"
export type { WaysInOptions } from "./account/ways-in.js"
export {
  changePassword,
  hasPassword,
  setPassword,
  type PasswordChangeRefusal,
  type PasswordChanging,
  type PasswordSetRefusal,
  type PasswordSetting,
  type SetPasswordOptions,
} from "./password/account.js"
export type { PasswordConfig, PasswordEmailKind, PasswordEmailParams } from "./password/types.js"
export {
  requireRecentSignIn,
  twoFactorStatus,
  type RecentSignIn,
  type RecentSignInOptions,
  type TwoFactorStatus,
} from "./two-factor/server.js"
export {
  deletePasskey,
  listPasskeys,
  renamePasskey,
  type DeletePasskeyOptions,
  type PasskeyDeletion,
  type PasskeyDeletionRefusal,
} from "./webauthn/management.js"

/**
 * Handles a request to one of the authentication endpoints under `basePath` and returns the
 * response. It never throws and never answers with a stack trace: malformed requests get a 4xx,
 * flows that fail redirect to the sign-in or error page, and configuration errors answer 500.
 *
 * With `raw` in the configuration, it returns the internal response instead and throws
 * `AuthError`s, for framework integrations.
 */
export async function Auth(request: Request, config: AuthConfig & { raw: typeof raw }): Promise<InternalResponse>
export async function Auth(request: Request, config: AuthConfig | LazyAuthConfig): Promise<Response>
export async function Auth(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<Response | InternalResponse> {
  let config: AuthConfig
  try {
    config = typeof configOrLazy === "function" ? await configOrLazy(request) : configOrLazy
  } catch (error) {
    // No configuration, so no configured logger: the built-in one prints it.
    printError(new Error("The lazy configuration function threw.", { cause: error instanceof Error ? error : new Error(String(error)) }))
    return toResponse(configurationJson(), { returnRedirect: false, head: false })
  }
  // Only the symbol itself: a truthy value that merely looks like it must not change what Auth() returns.
  const isRaw = config?.raw === raw
  const resolution = resolveConfig(config)
  const url = new URL(request.url)
  const head = request.method === "HEAD"
  const method = head ? "GET" : request.method
  const route = matchRoute(url.pathname, resolution.ok ? resolution.config.basePath : resolution.basePath)
  const finish = (internal: InternalResponse, ctx?: RequestContext) =>
    isRaw ? internal : toResponse(internal, { returnRedirect: ctx?.returnRedirect ?? false, head })
  if (!resolution.ok) {
    if (isRaw) throw resolution.error
    resolution.logger.error(resolution.error)
    return finish(configurationResponse(resolution, route?.action, method, request))
  }
  const resolved = resolution.config

  let ctx: RequestContext
  try {
    if (method !== "GET" && method !== "POST") throw new BadRequest(`Method ${request.method} is not supported.`)
    if (!route) throw new BadRequest(`${url.pathname} is not an authentication endpoint.`)
    const query = parseQuery(url.searchParams)
    const body = method === "POST" ? await parseBody(request) : {}
    ctx = createContext({
      config: resolved,
      request,
      url,
      method,
      head,
      action: route.action,
      providerId: route.providerId,
      query,
      body,
      cookies: requestCookies(request),
    })
  } catch (error) {
    if (error instanceof BadRequest) {
      resolved.logger.debug(`bad request: ${error.message}`)
      return finish(badRequestResponse(error))
    }
    // The configuration refuses this request (a host it does not trust): the configuration error.
    const authError = asAuthError(error)
    resolved.logger.error(authError)
    if (isRaw) throw authError
    const known = { basePath: resolved.basePath, pages: resolved.pages, publicOrigin: resolved.publicUrl?.origin }
    return finish(configurationResponse(known, route?.action, method, request))
  }

  try {
    return finish(await dispatch(ctx), ctx)
  } catch (error) {
    // Raw callers get the error to handle, except a client's mistake, which stays its 4xx answer.
    if (isRaw && error instanceof AuthError && !(error instanceof BadRequest) && !ctx.returnRedirect) {
      resolved.logger.error(error)
      throw error
    }
    try {
      return finish(await errorResponse(ctx, error), ctx)
    } catch (secondary) {
      resolved.logger.error(asAuthError(secondary))
      return finish(configurationJson())
    }
  }
}
