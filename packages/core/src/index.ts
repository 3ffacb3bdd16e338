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
import { handle } from "./actions/handle.js"
import { fromRequest } from "./http/incoming.js"
import { toResponse, type InternalResponse } from "./http/response.js"
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
  Theme,
  User,
} from "./types.js"
export type { CoreSecurityEventType, SecurityDetail, SecurityEvent, SecurityEventInput } from "./security-events.js"
export type { SecondFactorParams, TwoFactorOptions } from "./two-factor/options.js"
export type { ApiTokenAlgorithm, ApiTokenOptions } from "./tokens/options.js"
export type { NativeAppOptions } from "./native/options.js"
export type { CredentialInput, CredentialsConfig, CredentialsThrottleOptions } from "./credentials/types.js"
export type { ThrottleLimits, ThrottleOptions } from "./password/throttle.js"
export type { CounterStore } from "./password/counters.js"
export type { RateLimitOptions, RateLimitRule } from "./rate-limit/options.js"
export type { RateLimitFamily } from "./modules/route.js"
export type { TrustedProxy } from "./http/client-ip.js"
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
export type { MessageKey, MessageOverrides, Messages, PluginTexts } from "./pages/messages.js"
export { customFetch, raw, skipCSRFCheck } from "./symbols.js"
export { readBodyWithin } from "./http/incoming.js"
export type { ModuleContext, ModuleEvents, ModuleFunction, ModuleIdentity, ModulePage, ModuleProviders, ModuleService, ModuleServiceContext, ModuleRequest, ModuleResponse, ModuleRoute, ModuleSealing, ModuleSection, ModuleSessionInput, ModuleSignIn, ModuleSigningKeys, ModuleUsers, PasswordResetOutcome, SesameModule, UserFacts, ServerFunctionsOf } from "./modules/types.js"
export { html, type SafeHtml } from "./pages/html.js"
export { callModuleApi, modelsOf } from "./modules/api.js"
export type { Condition, FieldDeclaration, FieldType, FindManyQuery, ModelDeclaration, Operator, Store, StoredRow, StoredValue, Where } from "./store/model.js"
export { op, StoreConflict } from "./store/model.js"
export { listSessions, revokeOtherSessions, revokeSession, type SessionInfo } from "./session/management.js"
export { requestEmailChange } from "./account-page/server.js"
export type { EmailChangeRefusal, EmailChangeRequest } from "./account-page/email-change.js"
export type { AccountPageConfig, AccountPageOptions, SectionName as AccountPageSection } from "./account-page/options.js"
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
export type { UserFieldDeclaration, UserFieldDeclarations, UserFieldsOf, UserOptions } from "./user/fields.js"
export { setUserFields, updateUserFields, type UserFieldsRefusal, type UserFieldsUpdate } from "./user/update.js"
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
export type { PasswordChangeMessage, PasswordConfig, PasswordEmailKind, PasswordEmailParams } from "./password/types.js"
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
  const { internal, options, raw: isRaw } = await handle(fromRequest(request), configOrLazy)
  return isRaw ? internal : toResponse(internal, options)
}
