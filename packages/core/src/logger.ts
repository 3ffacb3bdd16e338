/**
 * Logging.
 *
 * Policy: the logger receives errors, fixed warning codes and short debug messages with
 * non-secret metadata. Call sites never pass tokens, cookies, passwords, request bodies or whole
 * requests, so there is nothing to redact afterwards; `redact` below is a second line of defence
 * for metadata objects whose keys look secret.
 *
 * Log lines are not a channel for the client: error messages quote provider ids, paths, emails
 * and header values, any of which a request can fill with CR/LF to forge a line such as
 * `[sesame][error] …` after its own. So everything the built-in logger prints goes through
 * {@link escapeLogText} here, in this one place: each record is one line, and the only lines after
 * it are the stack frames printed below it, indented. A custom logger gets the raw values.
 *
 * @module
 */
import { AuthError, isStorageUnavailable, type ErrorType } from "./errors.js"

/**
 * Warnings Sesame may give: each is passed to `logger.warn` once per configuration resolved, and
 * the built-in logger prints each once per process; but for `storage-available-again`, given (and
 * printed) at the end of every storage outage, whose beginning was logged as a `StorageUnavailable`.
 */
export type WarningCode =
  | "debug-enabled"
  | "experimental-webauthn"
  | "env-url-basepath-redundant"
  | "missing-secret-development"
  | "missing-secret-development-process"
  | "trusted-origin-shared-domain"
  | "rate-limit-no-address"
  | "oauth-checks-none"
  | "weak-secret"
  | "api-token-keys-in-memory"
  | "migrate-from-authjs"
  | "adapter-optional-methods-missing"
  | "credentials-users-not-created"
  | "plugin-storage-missing"
  | "user-fields-adapter-unaware"
  | "jwt-sessions-not-revocable"
  | "storage-available-again"

/**
 * The three log levels. Each may be overridden in `config.logger`.
 *
 * The built-in levels print to `console`, one line per record (plus an error's stack frames),
 * with every control character escaped. Errors that are a visitor's doing rather than a fault (a
 * wrong password, `CredentialsSignin`; a used or expired email link, `Verification`; a sign-in
 * the `signIn` callback refused, `AccessDenied`; an account that may not be linked,
 * `OAuthAccountNotLinked` and `AccountNotLinked`; a passkey or OAuth check that did not verify,
 * `WebAuthnVerificationError` and `InvalidCheck`; a stale or foreign form, `MissingCSRF`) are
 * printed by `console.warn` as one line without a stack, unless the app's own code threw them
 * (their cause is then an error of the app's, printed in full). Each warning code is printed once
 * per process. Errors are printed with their `type`, never a class name, which a minifier renames.
 *
 * A level you pass instead receives every call, with the raw values: `error` gets every `Error`
 * object, the visitor's errors included, with its causes (switch on `error.type` to sort them);
 * `warn` gets each code once per configuration resolved (an integration may resolve several);
 * `debug` gets the message and metadata as they are. Their messages may quote text from the
 * request (a provider id, an email address, a path), so escape control characters yourself if
 * you write them out as lines.
 */
export interface LoggerInstance {
  error: (error: Error) => void
  warn: (code: WarningCode) => void
  debug: (message: string, metadata?: unknown) => void
}

const warningText: Record<WarningCode, string> = {
  "debug-enabled": "Debug logging is enabled. Turn it off in production.",
  "experimental-webauthn": "WebAuthn support is experimental. Its API may change in a minor release.",
  "env-url-basepath-redundant": "Both AUTH_URL (or SESAME_URL) and `basePath` are set; `basePath` wins. Remove one of them.",
  "missing-secret-development":
    "No secret is set (AUTH_SECRET or SESAME_SECRET). A development secret kept in node_modules/.cache/sesame/development-secret is used, shared by the app's processes and for localhost only. Before deploying, set AUTH_SECRET in the server's environment: `npx @sesame/cli secret` prints a new one. (`--write` puts it in .env.local instead: Next.js loads that file by itself; elsewhere make sure it reaches the server process's environment, where Sesame reads it (`node --env-file=.env.local server.js` for Express or Hono), or pass it as the `secret` option.)",
  "missing-secret-development-process":
    "No secret is set (AUTH_SECRET or SESAME_SECRET), and node_modules/.cache/sesame/development-secret could not be written or read (a read-only file system?). A random secret is used for this process only, for localhost only: other processes cannot read its sessions, and they end when it restarts. Set AUTH_SECRET in the server's environment: `npx @sesame/cli secret` prints a new one. (`--write` puts it in .env.local instead: Next.js loads that file by itself; elsewhere make sure it reaches the server process's environment, where Sesame reads it (`node --env-file=.env.local server.js` for Express or Hono), or pass it as the `secret` option.)",
  "rate-limit-no-address":
    "Rate limits are on, but a request came without the client's address: no proxy is trusted (`trustedProxy`, or `trustHost` for one X-Forwarded-For hop), and the integration did not hand over the socket's address, or the socket is a proxy's on a private address that the configuration does not declare. Such requests are not limited. Behind a proxy, set `trustedProxy` ({ hops: 1 }, or { header: \"cf-connecting-ip\" }).",
  "trusted-origin-shared-domain":
    "A `trustedOrigins` pattern puts a wildcard right under a hosting domain where anyone can deploy (such as vercel.app): other people's deployments match it. Give preview deployments a domain of your own.",
  "oauth-checks-none":
    'A provider has `checks: ["none"]`: its callbacks are not bound to the browser that started the sign-in, so a forged callback can sign a visitor in to someone else\'s account. Such a provider never links an account to a signed-in user. Use "pkce", "state" or "nonce".',
  "weak-secret":
    "A configured secret is shorter than 32 characters or not random (under about 128 bits of estimated entropy). In production this is a configuration error. Make one with `npx @sesame/cli secret` or `openssl rand -base64 33`.",
  "storage-available-again":
    "The storage answers again: the outage logged above (StorageUnavailable) is over, and the requests answered 503 meanwhile may be tried again.",
  "user-fields-adapter-unaware":
    "`user.fields` is set, but the adapter does not say it stores user fields (it has no `withUserFields`: an Auth.js adapter, or one written to the spec's contract). Sesame passes the fields to its `createUser` and `updateUser`, as Auth.js passes a profile's, and reads what its users hold: make sure its users table has the columns. Auth.js's Prisma, Drizzle and Kysely adapters then store them; @auth/pg-adapter drops them.",
  "adapter-optional-methods-missing":
    "The adapter has only some of Sesame's optional methods (an Auth.js adapter, or one written to the spec's contract). Every sign-in and session works; the features that need the missing methods (account or session management, two-factor sign-in, storing refreshed provider tokens, managing passkeys) are off or refuse with MissingAdapterMethods naming the method. Turn on debug logs to see which.",
  "migrate-from-authjs":
    'Reading Auth.js sessions and email links (`migrateFrom: "authjs"`): an Auth.js session cookie is re-issued as Sesame\'s on its first use, and links Auth.js sent work until they expire. Remove the option once they have all expired (`session.maxAge` after the switch, 30 days by default).',
  "credentials-users-not-created":
    'A credentials provider signs in only the users the adapter already has: with an adapter, sessions are stored in the database (the default strategy then), and the user `authorize` returns must be found there (by id, then email), or the visitor lands on error=AccessDenied with the right password. Set `createUser: true` on the provider to create such users at their first sign-in, `createUser: false` to keep it this way (and silence this warning), or `session: { strategy: "jwt" }` to store no session.',
  "plugin-storage-missing":
    "Some plugins are off: they store data, and the adapter has no generic store (`adapter.store`), which every Sesame adapter has and Auth.js's adapters do not. Everything else works. With `debug: true` the log names them; their server functions throw MissingAdapterMethods.",
  "jwt-sessions-not-revocable":
    "Password accounts with JWT sessions: a password reset (and \"sign out everywhere else\", deleting a user) cannot end a JWT session, which stays valid until it expires: someone who signed in with a stolen password stays signed in after the owner resets it. Set `session: { revocation: true }` (and run `sesame migrate` for its table) to end them within 30 seconds, or `revocation: false` to keep it this way and silence this warning.",
  "api-token-keys-in-memory":
    "API tokens are signed with keys kept in this process's memory: the adapter does not store signing keys and `apiTokens.keys` is not set. Tokens stop verifying when the process restarts, and other instances publish other keys. Use an adapter that stores them (every shipped adapter does) or give `apiTokens.keys`.",
}

const secretKey = /token|secret|password|cookie|authorization|code_verifier|nonce|state|key/i

/** Replaces the values of secret-looking keys, one level deep. */
export function redact(metadata: unknown): unknown {
  if (!metadata || typeof metadata !== "object" || metadata instanceof Error) return metadata
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(metadata)) out[k] = secretKey.test(k) ? "[redacted]" : v
  return out
}

/** C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators. */
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const shortEscapes: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

/** `text` with every control character written as an escape (`\n`, `\u001b`…), so that it stays on one line. */
export function escapeLogText(text: string): string {
  return text.replace(controlCharacter, (c) => shortEscapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
}

/** A stack line naming a frame (V8's `    at …`); anything else in `stack` is the message. */
const stackFrame = /^\s+at \S/

/**
 * Up to five frames of `error`'s stack, indented. The stack starts with the name and message,
 * which can span lines of their own; those are cut off here (they are printed, escaped, above).
 */
function frames(error: Error): string[] {
  let stack = typeof error.stack === "string" ? error.stack : ""
  const header = error.message ? (error.name ? `${error.name}: ${error.message}` : error.message) : error.name
  if (header && stack.startsWith(header)) stack = stack.slice(header.length)
  return stack
    .split("\n")
    .filter((line) => stackFrame.test(line))
    .slice(0, 5)
    .map((line) => `    ${escapeLogText(line.trim())}`)
}

function formatError(error: Error): string {
  const parts: string[] = []
  let current: unknown = error
  let depth = 0
  while (current instanceof Error && depth < 5) {
    const type = current instanceof AuthError ? current.type : current.name
    const line = `${escapeLogText(String(type))}: ${escapeLogText(current.message)}`
    parts.push(depth === 0 ? line : `  caused by ${line}`, ...frames(current))
    const cause: unknown = (current as { cause?: unknown }).cause
    current = cause instanceof Error ? cause : (cause as { err?: unknown } | undefined)?.err
    depth++
  }
  return parts.join("\n")
}

/** Debug metadata on one line: JSON, with errors as `Name: message`; whatever cannot be written says so. */
function formatMetadata(metadata: unknown): string {
  if (metadata === undefined) return ""
  try {
    const text = JSON.stringify(metadata, (_key, value: unknown) => {
      if (value instanceof Error) return `${value.name}: ${value.message}`
      if (typeof value === "bigint") return value.toString()
      return value
    })
    return text === undefined ? String(metadata) : text
  } catch {
    return "[metadata that cannot be written as JSON]"
  }
}

/**
 * Error types that are a visitor's doing, not a fault of the app or of Sesame (see
 * {@link LoggerInstance}): printed as one warning line, so that a wrong password does not look
 * like a crash in the server's log.
 */
const visitorErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "CredentialsSignin",
  "Verification",
  "AccessDenied",
  "OAuthAccountNotLinked",
  "AccountNotLinked",
  "WebAuthnVerificationError",
  "InvalidCheck",
  "MissingCSRF",
])

/** Whether `error` is a visitor's error that no code of the app's threw (no cause, or one of the same kind). */
function isVisitorError(error: Error): boolean {
  if (!(error instanceof AuthError) || !visitorErrorTypes.has(error.type)) return false
  const cause = error.cause?.err
  return cause === undefined || isVisitorError(cause)
}

/** Prints `error` as the built-in logger does. For the few places that log before a configuration exists. */
export function printError(error: Error): void {
  // An outage's first line: the driver's message says all there is (its stack, a socket's, nothing).
  if (isStorageUnavailable(error)) console.error(`[sesame][error] ${escapeLogText(`StorageUnavailable: ${error.message}`)}`)
  else if (isVisitorError(error)) console.warn(`[sesame][warn] ${escapeLogText(`${(error as AuthError).type}: ${error.message}`)}`)
  else console.error(`[sesame][error] ${formatError(error)}`)
}

/**
 * Prints one line of an integration's own at `level`, as the built-in logger prints its lines: with
 * the `[sesame][level]` prefix and every control character escaped.
 */
export function printLine(level: "error" | "warn" | "debug", text: string): void {
  console[level](`[sesame][${level}] ${escapeLogText(text)}`)
}

const printedKey = Symbol.for("sesame.printed-once")

/**
 * Whether this process has not printed `key` yet (and now counts it as printed).
 *
 * Process-level state on purpose: what is printed once (a warning code, a problem found while
 * resolving a configuration) describes how the process is set up, and that does not change
 * between the configuration objects an integration makes. Next.js resolves three per bundle and
 * bundles the core several times, so "once per configuration" printed the same lines three or
 * four times a start. The registry is on `globalThis` under a registered symbol so that every
 * bundled copy of the core shares it. A custom logger is not affected: it gets every call.
 */
function firstTime(key: string): boolean {
  const holder = globalThis as typeof globalThis & { [printedKey]?: Set<string> }
  const printed = (holder[printedKey] ??= new Set())
  if (printed.has(key)) return false
  printed.add(key)
  return true
}

/** Warnings about a moment rather than the set-up: printed each time. */
const everyTime: ReadonlySet<WarningCode> = new Set<WarningCode>(["storage-available-again"])

function printWarning(code: WarningCode): void {
  if (!everyTime.has(code) && !firstTime(`warn ${code}`)) return
  console.warn(escapeLogText(`[sesame][warn] ${code}: ${warningText[code]}`))
}

function printErrorOnce(error: Error): void {
  const type = error instanceof AuthError ? error.type : error.name
  if (firstTime(`error ${type}: ${error.message}`)) printError(error)
}

function printDebug(message: string, metadata?: unknown): void {
  const details = formatMetadata(redact(metadata))
  console.debug(escapeLogText(`[sesame][debug] ${message}${details ? ` ${details}` : ""}`))
}

/** The logger of a resolved configuration. */
export interface Logger extends LoggerInstance {
  /**
   * A problem found while resolving the configuration (an unavailable provider): the built-in
   * logger prints it once per process, a custom `error` gets it every time.
   */
  errorOnce: (error: Error) => void
}

/** The built-in logger: `console`, with a `[sesame]` prefix; debug only when `debug` is on. */
export function createLogger(debug: boolean, overrides: Partial<LoggerInstance> | undefined): Logger {
  return {
    error: overrides?.error ?? printError,
    warn: overrides?.warn ?? printWarning,
    debug: debug ? (overrides?.debug ?? printDebug) : () => {},
    errorOnce: overrides?.error ?? printErrorOnce,
  }
}
