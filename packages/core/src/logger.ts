/**
 * Logging.
 *
 * Policy: the logger receives errors, fixed warning codes and short debug messages with
 * non-secret metadata. Call sites never pass tokens, cookies, passwords, request bodies or whole
 * requests, so there is nothing to redact afterwards; `redact` below is a second line of defence
 * for metadata objects whose keys look secret.
 *
 * @module
 */
import { AuthError } from "./errors.js"

/** Warnings Sesame may print, each once per configuration. */
export type WarningCode =
  | "debug-enabled"
  | "experimental-webauthn"
  | "env-url-basepath-redundant"
  | "missing-secret-development"
  | "missing-secret-development-process"
  | "trusted-origin-shared-domain"
  | "oauth-checks-none"
  | "weak-secret"

/** The three log levels. Each may be overridden in `config.logger`. */
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
    "No secret is set (AUTH_SECRET or SESAME_SECRET). A development secret kept in node_modules/.cache/sesame/development-secret is used, shared by the app's processes and for localhost only. Before deploying, run `npx sesame secret --write` (it puts AUTH_SECRET in .env.local) or set AUTH_SECRET.",
  "missing-secret-development-process":
    "No secret is set (AUTH_SECRET or SESAME_SECRET), and node_modules/.cache/sesame/development-secret could not be written or read (a read-only file system?). A random secret is used for this process only, for localhost only: other processes cannot read its sessions, and they end when it restarts. Run `npx sesame secret --write` (it puts AUTH_SECRET in .env.local) or set AUTH_SECRET.",
  "trusted-origin-shared-domain":
    "A `trustedOrigins` pattern puts a wildcard right under a hosting domain where anyone can deploy (such as vercel.app): other people's deployments match it. Give preview deployments a domain of your own.",
  "oauth-checks-none":
    'A provider has `checks: ["none"]`: its callbacks are not bound to the browser that started the sign-in, so a forged callback can sign a visitor in to someone else\'s account. Such a provider never links an account to a signed-in user. Use "pkce", "state" or "nonce".',
  "weak-secret":
    "A configured secret is shorter than 32 characters or not random (under about 128 bits of estimated entropy). In production this is a configuration error. Make one with `npx sesame secret` or `openssl rand -base64 33`.",
}

const secretKey = /token|secret|password|cookie|authorization|code_verifier|nonce|state|key/i

/** Replaces the values of secret-looking keys, one level deep. */
export function redact(metadata: unknown): unknown {
  if (!metadata || typeof metadata !== "object" || metadata instanceof Error) return metadata
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(metadata)) out[k] = secretKey.test(k) ? "[redacted]" : v
  return out
}

function formatError(error: Error): string {
  const parts: string[] = []
  let current: unknown = error
  let depth = 0
  while (current instanceof Error && depth < 5) {
    const type = current instanceof AuthError ? current.type : current.name
    parts.push(depth === 0 ? `${type}: ${current.message}` : `  caused by ${type}: ${current.message}`)
    if (current.stack) parts.push(current.stack.split("\n").slice(1, 6).join("\n"))
    const cause: unknown = (current as { cause?: unknown }).cause
    current = cause instanceof Error ? cause : (cause as { err?: unknown } | undefined)?.err
    depth++
  }
  return parts.join("\n")
}

/** The built-in logger: `console`, with a `[sesame]` prefix; debug only when `debug` is on. */
export function createLogger(debug: boolean, overrides: Partial<LoggerInstance> | undefined): LoggerInstance {
  return {
    error: overrides?.error ?? ((error) => console.error(`[sesame][error] ${formatError(error)}`)),
    warn:
      overrides?.warn ??
      ((code) => console.warn(`[sesame][warn] ${code}: ${warningText[code]}`)),
    debug: debug
      ? (overrides?.debug ?? ((message, metadata) => console.debug(`[sesame][debug] ${message}`, redact(metadata) ?? "")))
      : () => {},
  }
}
