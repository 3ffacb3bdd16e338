/**
 * `@sesame/core/integration`: what framework integrations (`@sesame/next`, `@sesame/solid-start`)
 * need from the core beyond `Auth()`, so that they follow the core's rules instead of copying them:
 * where the endpoints live ({@link basePathOf}), the app's origin ({@link appOrigin}), the log
 * ({@link logFor}), and the session of a page's request with the cookies that keep it alive
 * ({@link readSession}, {@link setCookieLines}), signing in and out from the app's server code
 * ({@link signInFromServer}, {@link signOutFromServer}, {@link updateSessionFromServer}), where
 * a guard sends a visitor without a session ({@link signInPageUrl}, {@link wantsJson}), what it
 * answers while the storage cannot be reached ({@link isStorageUnavailable},
 * {@link unavailableAnswer}), and which paths it protects ({@link protectedPaths}).
 *
 * `config` is, everywhere here, the very object the integration passes to `Auth()`: the core
 * resolves a configuration once per object.
 *
 * @module
 */
import { resolveConfig } from "./config/resolve.js"
import { serializeCookie, type ResponseCookie } from "./http/cookies.js"
import { isStorageUnavailable } from "./errors.js"
import { getFromCore } from "./integration/core-request.js"
import type { RequestLike } from "./integration/origin.js"
import { printLine } from "./logger.js"
import type { AuthConfig, Session } from "./types.js"

export { appOrigin, type RequestLike } from "./integration/origin.js"
export { basePathOf } from "./integration/base-path.js"
export { prepareConfig, type PreparedConfig } from "./integration/prepared.js"
export { forbiddenBody, unauthorizedBody } from "./http/response.js"
export { unavailableBody } from "./http/error-response.js"
export { callModuleApi, moduleApi, type ModuleApi } from "./modules/api.js"
export { decodedPath, foldedPath, isUnderPath, protectedPaths, routedForms, type ProtectedPaths } from "./integration/paths.js"
export { setCookieName, withCookies, withMissingCookies } from "./integration/response-cookies.js"
export { isStorageUnavailable } from "./errors.js"
export { checkGuardOptions, checkRedirectTarget, forbiddenAnswer, guardAnswer, refusedAnswer } from "./integration/guard-answers.js"
export { setPeerAddress } from "./http/client-ip.js"
export { unavailableAnswer, type UnavailableAnswer } from "./integration/unavailable.js"
export {
  refusedActionAnswer,
  sameOriginReferer,
  signInFromServer,
  signInPageUrl,
  signOutFromServer,
  updateSessionFromServer,
  wantsJson,
  type AuthorizationParams,
  type ServerRedirect,
  type ServerSessionUpdate,
  type ServerSignInOptions,
} from "./integration/server-actions.js"

/** An integration's log: the configured logger, printing as the core's does. */
export interface IntegrationLogger {
  /**
   * A failure the integration handled: `message` says what it did about it (`auth() … answers
   * null`), `cause` is what was thrown. A custom `logger.error` gets an `Error` with this text and
   * the `cause`; the built-in logger prints one line, naming the cause by its `type`.
   */
  error(message: string, cause?: unknown): void
  /** A line for `debug: true`: to a custom `logger.debug`, else printed; nothing without `debug`. */
  debug(message: string): void
}

/**
 * `type: message` of what was thrown: an `AuthError`'s `type`, never a class name, which the
 * minifier of a production build renames (`A: No secret is set…`). Read from the object rather
 * than by `instanceof`, because a bundler may hold more than one copy of the core.
 */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const type: unknown = (error as { type?: unknown }).type
  return `${typeof type === "string" ? type : error.name}: ${error.message}`
}

/**
 * The log of `config`, or the built-in log when there is no configuration (a lazy configuration
 * that threw).
 */
export function logFor(config: AuthConfig | undefined): IntegrationLogger {
  const custom = config?.logger
  return {
    error(message, cause) {
      const text = cause === undefined ? message : `${message}: ${describeError(cause)}`
      if (custom?.error) custom.error(new Error(text, cause === undefined ? undefined : { cause }))
      else printLine("error", text)
    },
    debug(message) {
      if (!config) return
      const resolution = resolveConfig(config)
      ;(resolution.ok ? resolution.config.logger : resolution.logger).debug(message)
    },
  }
}

/** The session of a request, and the cookies to set on the response to keep it alive. */
export interface SessionRead {
  /** The session as `GET <basePath>/session` answers it (the `jwt` and `session` callbacks ran), or null. */
  readonly session: Session | null
  /**
   * The cookies that read set: a JWT re-encrypted with a later expiry, a database session's new
   * expiry, or a cleared cookie that was no good. Set them on the response to the request, or the
   * session ends at the old expiry however active its user is.
   */
  readonly cookies: readonly ResponseCookie[]
}

/**
 * Reads the session of `request` (a page's, a server function's, a proxy's) through the core's own
 * `session` endpoint under the configured base path, with the request's cookies and the headers
 * the origin comes from: exactly what the browser would get from `GET <basePath>/session`.
 *
 * Throws what the core throws for the read (an `AuthError`: a configuration that cannot be used,
 * a host it refuses, an adapter that fails); the integration decides how to fail closed. A storage
 * outage throws a `StorageUnavailable` ({@link isStorageUnavailable}): nothing is known of the
 * session then, so it must not be taken for "signed out" (a guard answers
 * {@link unavailableAnswer}, a session read the app calls throws it).
 */
export async function readSession(config: AuthConfig, request: RequestLike): Promise<SessionRead> {
  const response = await getFromCore(config, request, "session")
  const body: unknown = response.body
  const isSession = (response.status ?? 200) === 200 && typeof body === "object" && body !== null && !Array.isArray(body)
  return { session: isSession ? (body as Session) : null, cookies: response.cookies ?? [] }
}

/** A request without a session, and no cookie to write: what a guard or a page sees when reading fails. */
export const noSession: SessionRead = Object.freeze({ session: null, cookies: Object.freeze([]) })

/**
 * {@link readSession}, failing closed as a page's read must: a read that throws (a configuration
 * the core cannot use, an adapter that fails) is logged through the configured logger, naming
 * `owner`, and is a visitor without a session ({@link noSession}). Except a storage outage
 * (`StorageUnavailable`), which rejects, unlogged (the core logs an outage where it begins and
 * ends): nothing is known of the session then, and "signed out" would send every signed-in user to
 * the sign-in page. The integration answers {@link unavailableAnswer} for it, or throws it on.
 */
export function readSessionOrNone(config: AuthConfig, request: RequestLike, owner: string): Promise<SessionRead> {
  const read = readSession(config, request).catch((error: unknown): SessionRead => {
    if (isStorageUnavailable(error)) throw error
    logFor(config).error(`${owner} could not read the session and treats the request as signed out`, error)
    return noSession
  })
  // A read nobody awaits yet must not be an unhandled rejection while an outage lasts.
  read.catch(() => undefined)
  return read
}

/**
 * `Set-Cookie` values for `cookies`, serialised by the core's cookie policy (`http/cookies.ts`):
 * the attributes the core decided, as they are, for a response the integration writes itself.
 */
export function setCookieLines(cookies: readonly ResponseCookie[]): string[] {
  return cookies.map(serializeCookie)
}


/**
 * The shape of the core's server functions for the signed-in user (`listAccounts`,
 * `deletePasskey`, …): the request being handled, the configuration, then their own arguments.
 * Integrations bind the first two.
 */
export type ServerFunction<Args extends unknown[], Result> = (request: Request, config: AuthConfig, ...args: Args) => Promise<Result>
