/**
 * Turns the user's configuration into the three configurations the core is called with, once per
 * configuration object (so that the core's own per-object cache keeps working):
 *
 * - `handlers`: the HTTP endpoints, as configured (with the Next.js default base path).
 * - `reader`: `raw`, so that session reads return the cookies to set instead of a `Response`.
 * - `actions`: `raw` and `skipCSRFCheck`: server actions are protected against CSRF by Next.js
 *   itself (they only answer POSTs from the app's own pages, checked against `Origin`).
 *
 * The only default decided here is the base path: `/api/auth`, or the path of `AUTH_URL` /
 * `SESAME_URL` when it has one. Everything else (secret, `trustHost`, provider credentials from
 * `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`) is inferred by the core.
 *
 * @module
 */
import { raw, skipCSRFCheck, type AuthConfig } from "@sesame/core"
import type { NextRequest } from "next/server.js"
import type { AuthorizedCallback, PrimaryAuthConfig, PrimaryAuthConfigInput } from "./types.js"

/** The base path of the endpoints when neither `basePath` nor a path in `AUTH_URL` says otherwise. */
export const defaultBasePath = "/api/auth"

export interface Prepared {
  readonly basePath: string
  /** The public URL from `SESAME_URL` / `AUTH_URL`, when set and valid. */
  readonly publicUrl: URL | undefined
  readonly pages: PrimaryAuthConfig["pages"]
  readonly authorized: AuthorizedCallback | undefined
  /** Logs a line through the configured logger (a custom `logger.error` gets an `Error` with `cause`). */
  readonly logError: (message: string, cause?: unknown) => void
  /** When `debug` is on, logs a line through the configured logger. */
  readonly debug: (message: string) => void
  readonly handlers: AuthConfig
  readonly reader: AuthConfig & { raw: typeof raw }
  readonly actions: AuthConfig & { raw: typeof raw; skipCSRFCheck: typeof skipCSRFCheck }
}

const prepared = new WeakMap<PrimaryAuthConfig, Prepared>()

function envUrl(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.SESAME_URL || env?.AUTH_URL || undefined
}

function parseUrl(value: string | undefined): URL | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
  } catch {
    // The core reports a malformed AUTH_URL as a configuration error.
    return undefined
  }
}

function basePathOf(config: PrimaryAuthConfig, publicUrl: URL | undefined): string {
  if (config.basePath !== undefined) return config.basePath.replace(/\/+$/, "")
  const fromUrl = publicUrl?.pathname.replace(/\/+$/, "")
  return fromUrl || defaultBasePath
}

/**
 * `type: message` of what was thrown, for a log line: an `AuthError`'s `type`, never a class name,
 * which the minifier of a production build renames (`A: No secret is set…`).
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const type: unknown = (error as { type?: unknown }).type
  return `${typeof type === "string" ? type : error.name}: ${error.message}`
}

/** The configurations for `config` (cached per object). */
export function prepare(config: PrimaryAuthConfig): Prepared {
  const cached = prepared.get(config)
  if (cached) return cached
  const publicUrl = parseUrl(envUrl())
  const basePath = basePathOf(config, publicUrl)
  const { authorized, ...coreCallbacks } = config.callbacks ?? {}
  const handlers: AuthConfig = { ...config, basePath, callbacks: coreCallbacks }
  const reader: Prepared["reader"] = { ...handlers, raw }
  const actions: Prepared["actions"] = { ...reader, skipCSRFCheck }
  const result: Prepared = Object.freeze({
    basePath,
    publicUrl,
    pages: config.pages,
    authorized,
    logError: (message: string, cause?: unknown) => {
      const error = new Error(message, cause === undefined ? undefined : { cause })
      if (config.logger?.error) config.logger.error(error)
      else console.error(`[sesame][error] ${message}`)
    },
    debug: (message: string) => {
      if (!config.debug) return
      if (config.logger?.debug) config.logger.debug(message)
      else console.debug(`[sesame][debug] ${message}`)
    },
    handlers,
    reader,
    actions,
  })
  prepared.set(config, result)
  return result
}

/** Resolves a configuration or lazy configuration for one request (absent outside a request). */
export async function load(input: PrimaryAuthConfigInput, request: NextRequest | undefined): Promise<Prepared> {
  return prepare(typeof input === "function" ? await input(request) : input)
}
