/**
 * Errors thrown or reported by Sesame.
 *
 * Every error has a `type` (a literal from {@link ErrorType}, used in logs and, for the
 * client-safe ones, in the `?error=` query of the sign-in and error pages) and a `kind` that picks
 * the page a browser is sent to: `signIn` errors go back to the sign-in page, the rest to the error
 * page. Only the types in {@link clientSafeErrorTypes} ever reach a URL; every other failure is shown
 * to the user as `Configuration` while its full cause is logged on the server.
 *
 * @module
 */

/** Every error type Sesame reports. */
export type ErrorType =
  | "AccessDenied"
  | "AccessTokenError"
  | "AccountNotLinked"
  | "AdapterError"
  | "BadRequest"
  | "CallbackRouteError"
  | "CredentialsSignin"
  | "DuplicateConditionalUI"
  | "EmailNotVerified"
  | "EmailSignin"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCheck"
  | "InvalidEndpoints"
  | "InvalidProvider"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "MissingWebAuthnAutocomplete"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthSignInError"
  | "SessionTokenError"
  | "SignOutError"
  | "StorageUnavailable"
  | "TwoFactorError"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError"

/** Where a browser is sent when the error ends a flow: the sign-in page or the error page. */
export type ErrorKind = "signIn" | "error"

/** The structured cause of an {@link AuthError}: the original error plus non-secret fields. */
export type ErrorCause = Record<string, unknown> & { err?: Error }

/**
 * Base class of every Sesame error.
 *
 * `new AuthError(message?, options?)`, `new AuthError(error)` (the error becomes `cause.err`) or
 * `new AuthError({ cause })`.
 */
export class AuthError extends Error {
  /** The error type, for logs and (when client-safe) the `?error=` query. */
  readonly type: ErrorType = "CallbackRouteError"
  /** Which page a browser lands on when this error ends a flow. */
  readonly kind: ErrorKind = "error"
  declare cause?: ErrorCause

  constructor(message?: string | Error | ErrorOptions, errorOptions?: ErrorOptions) {
    if (message instanceof Error) {
      super(undefined, { cause: { err: message, ...(errorOptions?.cause as object | undefined) } })
    } else if (typeof message === "string") {
      super(message, errorOptions?.cause === undefined ? undefined : { cause: normaliseCause(errorOptions.cause) })
    } else {
      const cause = message?.cause ?? errorOptions?.cause
      super(undefined, cause === undefined ? undefined : { cause: normaliseCause(cause) })
    }
    this.name = new.target.name
    if (!this.message && this.cause?.err) this.message = this.cause.err.message
  }
}

function normaliseCause(cause: unknown): ErrorCause {
  if (cause instanceof Error) return { err: cause }
  if (cause && typeof cause === "object") return cause as ErrorCause
  return { value: cause }
}

/** An error that sends the browser back to the sign-in page. */
export class SignInError extends AuthError {
  override readonly kind = "signIn" as const
}

/**
 * Thrown from a credentials provider's `authorize` to reject a sign-in. The user is sent to the
 * sign-in page with `error=CredentialsSignin&code=<code>`. Subclass it to set your own `code`;
 * the code is visible in the URL, so keep it generic (never say which of user name or password
 * was wrong).
 *
 * @example
 * ```ts
 * class AccountLocked extends CredentialsSignin { code = "locked" }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static readonly type = "CredentialsSignin" as const
  static readonly kind = "signIn" as const
  override readonly type = "CredentialsSignin" as const
  /** Shown in the URL as `code=`. */
  code = "credentials"
}

/**
 * A sign-in refused before its credentials were checked, because there were too many failed
 * attempts for the account or the client (brute-force throttling). It is answered exactly as a
 * wrong password is (`error=CredentialsSignin&code=credentials`), so it tells nothing about the
 * password, plus a `Retry-After` header for clients that want it.
 */
export class TooManyAttempts extends CredentialsSignin {
  constructor(
    /** Seconds until another attempt may be made. */
    readonly retryAfter: number,
  ) {
    super(`Too many failed sign-in attempts; the next may be made in ${retryAfter} s.`)
  }
}

/** An OAuth account's email already belongs to another user and linking is not allowed. */
export class OAuthAccountNotLinked extends SignInError {
  override readonly type = "OAuthAccountNotLinked" as const
}
/** The OAuth provider answered the callback with an error, or the token exchange failed. */
export class OAuthCallbackError extends SignInError {
  override readonly type = "OAuthCallbackError" as const
}
/** Starting an OAuth sign-in failed: the provider's endpoints could not be discovered. */
export class OAuthSignInError extends SignInError {
  override readonly type = "OAuthSignInError" as const
}
/**
 * A password sign-in with the right password, for an address that is not confirmed yet (the
 * provider requires it): a new confirmation link was sent. Only someone who knows the password
 * sees this answer, so it tells nobody else that the address has an account.
 */
export class EmailNotVerified extends SignInError {
  override readonly type = "EmailNotVerified" as const
}
/** Sending the verification email failed. */
export class EmailSignInError extends SignInError {
  override readonly type = "EmailSignin" as const
}
/** The CSRF token is missing or does not match the CSRF cookie. */
export class MissingCSRF extends SignInError {
  override readonly type = "MissingCSRF" as const
}
/** A passkey or other account is already linked to a different user. */
export class AccountNotLinked extends SignInError {
  override readonly type = "AccountNotLinked" as const
}
/**
 * A passkey response failed verification: no or a foreign challenge cookie, a response for
 * another challenge, origin or RP ID, a bad signature, an unknown credential, a counter that did
 * not go up. The user is sent back to the sign-in page to try again.
 */
export class WebAuthnVerificationError extends SignInError {
  override readonly type = "WebAuthnVerificationError" as const
}
/**
 * A state, PKCE, nonce or challenge check failed: its cookie is missing (the sign-in was started
 * in another browser, or more than 15 minutes ago), altered, expired or made for another provider,
 * or the callback's `state` does not match it. The user starts again from the sign-in page.
 */
export class InvalidCheck extends SignInError {
  override readonly type = "InvalidCheck" as const
}

/** The `signIn` callback refused the sign-in (returned false or threw). */
export class AccessDenied extends AuthError {
  override readonly type = "AccessDenied" as const
}
/** An email sign-in link is expired, already used, or does not match. */
export class Verification extends AuthError {
  override readonly type = "Verification" as const
}

/** No secret is configured in production. Set `AUTH_SECRET` (or `SESAME_SECRET`). */
export class MissingSecretError extends AuthError {
  override readonly type = "MissingSecret" as const
}
/**
 * The request's host is not trusted. Set `AUTH_URL`, or `trustHost: true` behind a trusted proxy.
 * Also an API token or a native app's answer asked for on a non-loopback host while neither
 * `AUTH_URL` nor `apiTokens.issuer` fixes the issuer, which never comes from the request's host.
 */
export class UntrustedHost extends AuthError {
  override readonly type = "UntrustedHost" as const
}
/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  override readonly type = "MissingAuthorize" as const
}
/** An OAuth provider has neither an issuer nor the endpoints it needs. */
export class InvalidEndpoints extends AuthError {
  override readonly type = "InvalidEndpoints" as const
}
/** The chosen session strategy cannot work with the configured providers. */
export class UnsupportedStrategy extends AuthError {
  override readonly type = "UnsupportedStrategy" as const
}
/** A feature needs an adapter and none is configured. */
export class MissingAdapter extends AuthError {
  override readonly type = "MissingAdapter" as const
}
/** The adapter lacks methods that the configured features call. The message names them. */
export class MissingAdapterMethods extends AuthError {
  override readonly type = "MissingAdapterMethods" as const
}
/** A provider is malformed or its id is used twice. */
export class InvalidProvider extends AuthError {
  override readonly type = "InvalidProvider" as const
}
/** An experimental feature is used without being enabled in `experimental`. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  override readonly type = "ExperimentalFeatureNotEnabled" as const
}
/** More than one WebAuthn provider enables conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  override readonly type = "DuplicateConditionalUI" as const
}
/** The conditional-UI form field of a WebAuthn provider lacks `webauthn` in its autocomplete. */
export class MissingWebAuthnAutocomplete extends AuthError {
  override readonly type = "MissingWebAuthnAutocomplete" as const
}
/** A custom error page redirects back to itself. */
export class ErrorPageLoop extends AuthError {
  override readonly type = "ErrorPageLoop" as const
}

/** An adapter method threw. The cause holds the driver's error. */
export class AdapterError extends AuthError {
  override readonly type = "AdapterError" as const
}
/**
 * The storage could not be reached: the adapter's database or store, or a counter store, refused or
 * dropped the connection (a restart, a failover, a pool with no connection to give). Nothing is
 * wrong with the request or the configuration, and nothing was decided about the session: the
 * answer is `503 Service Unavailable` with `Retry-After` (a page for a browser's flow, JSON for an
 * API call), never a sign-out, and the session cookie is left as it is. Logged once when an outage
 * begins and once when it ends, not per request.
 *
 * Server code sees it thrown by the session reads of the integrations (`auth()`, `getSession`):
 * `status` and `headers` follow the convention of Express's and Koa's error handlers, which answer
 * with them. An adapter or a counter store may throw it itself for a failure Sesame would not
 * recognise as one of reaching its storage (see `adapters/unavailable.ts`).
 */
export class StorageUnavailable extends AuthError {
  override readonly type = "StorageUnavailable" as const
  /** The HTTP status of the answer. */
  readonly status = 503
  /** Seconds after which a client may try again: the answer's `Retry-After`. */
  readonly retryAfter: number

  constructor(message?: string, options?: ErrorOptions & { retryAfter?: number }) {
    super(message ?? "The storage could not be reached.", options)
    this.retryAfter = options?.retryAfter ?? storageRetryAfter
  }

  /** The headers of the answer, for error handlers that set them (`Retry-After`). */
  get headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfter) }
  }
}

/**
 * Whether `error` is a {@link StorageUnavailable}: read by its `type`, not by `instanceof`, since a
 * bundle may hold more than one copy of the core (a server's, a browser client's).
 */
export function isStorageUnavailable(error: unknown): error is StorageUnavailable {
  return error instanceof Error && (error as { type?: unknown }).type === "StorageUnavailable"
}

/**
 * The `Retry-After` of a storage outage, in seconds: about what a database restart or a managed
 * failover takes to accept connections again. A client that tries sooner gets the same answer.
 */
export const storageRetryAfter = 3

/** An event handler threw. Logged only: events never change the flow. */
export class EventError extends AuthError {
  override readonly type = "EventError" as const
}
/** An unexpected failure while handling a callback. */
export class CallbackRouteError extends AuthError {
  override readonly type = "CallbackRouteError" as const
}
/** Reading or writing a JWT session failed. */
export class JWTSessionError extends AuthError {
  override readonly type = "JWTSessionError" as const
}
/** Reading or writing a database session failed. */
export class SessionTokenError extends AuthError {
  override readonly type = "SessionTokenError" as const
}
/** Signing out failed. */
export class SignOutError extends AuthError {
  override readonly type = "SignOutError" as const
}
/**
 * A second factor could not be used for a reason of the server's: a TOTP secret that none of the
 * configured secrets opens (a secret was removed before its rotation was done), or a code that
 * could not be sent. Logged; the user sees the challenge's own messages.
 */
export class TwoFactorError extends AuthError {
  override readonly type = "TwoFactorError" as const
}
/** A provider's `profile` callback threw or returned no id. */
export class OAuthProfileParseError extends AuthError {
  override readonly type = "OAuthProfileParseError" as const
}

/** Why {@link AccessTokenError} was thrown. */
export type AccessTokenErrorCode = "AccountNotFound" | "AmbiguousAccount" | "NoAccessToken" | "NoRefreshToken" | "RefreshFailed"

/**
 * `getAccessToken` could not return a valid access token. `code` says why: the account is unknown
 * (`AccountNotFound`), a user has several accounts with the provider (`AmbiguousAccount`), it holds
 * no access token (`NoAccessToken`), the token expired and there is no refresh token
 * (`NoRefreshToken`), or the provider refused or failed the refresh (`RefreshFailed`; a refused
 * refresh token usually means the user must sign in again).
 */
export class AccessTokenError extends AuthError {
  override readonly type = "AccessTokenError" as const
  constructor(
    readonly code: AccessTokenErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/**
 * A request the client got wrong: malformed input, an endpoint or provider that does not exist, a
 * state-changing request from another site. It is answered with its 4xx `status` and a short JSON
 * body, `{ error, message }`, and logged at debug level only (`http/error-response.ts`): it is the
 * client's doing, not the server's, and no flow redirects for it.
 */
export class BadRequest extends AuthError {
  override readonly type = "BadRequest" as const
  /** The `error` of the JSON answer: the class name unless given. */
  readonly error: string

  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 413 | 415 = 400,
    error?: string,
  ) {
    super(message)
    this.error = error ?? this.name
  }
}

/** Union of every concrete error class, so that `switch (error.type)` narrows. */
export type AnyAuthError =
  | AccessDenied
  | AccessTokenError
  | AccountNotLinked
  | AdapterError
  | BadRequest
  | CallbackRouteError
  | CredentialsSignin
  | DuplicateConditionalUI
  | EmailSignInError
  | ErrorPageLoop
  | EventError
  | ExperimentalFeatureNotEnabled
  | InvalidCheck
  | InvalidEndpoints
  | InvalidProvider
  | JWTSessionError
  | MissingAdapter
  | MissingAdapterMethods
  | MissingAuthorize
  | EmailNotVerified
  | MissingCSRF
  | MissingSecretError
  | MissingWebAuthnAutocomplete
  | OAuthAccountNotLinked
  | OAuthCallbackError
  | OAuthProfileParseError
  | OAuthSignInError
  | SessionTokenError
  | SignOutError
  | StorageUnavailable
  | UnsupportedStrategy
  | UntrustedHost
  | Verification
  | WebAuthnVerificationError

/**
 * The error types that may be shown to a user in a URL. Anything else becomes `Configuration`,
 * so that a URL never reveals how the server is set up.
 */
export const clientSafeErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "AccessDenied",
  "AccountNotLinked",
  "CredentialsSignin",
  "EmailNotVerified",
  "EmailSignin",
  "InvalidCheck",
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthSignInError",
  "Verification",
  "WebAuthnVerificationError",
])

/** Whether `error` is one of the errors whose type may appear in a URL. */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientSafeErrorTypes.has(error.type)
}
