/**
 * Turns the user's configuration into the configuration the core is called with, once per
 * configuration object (so that the core's own per-object cache keeps working): `handlers`, the
 * HTTP endpoints as configured, with the Next.js default base path. Session reads
 * (`readSession`) and the server actions (`signInFromServer`, …) of `@sesame/core/integration`
 * take this object too.
 *
 * The only default decided here is the base path, through the core's `basePathOf`: `/api/auth`,
 * unless `basePath` or the path of `AUTH_URL` / `SESAME_URL` says otherwise. Everything else
 * (secret, `trustHost`, provider credentials from `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`) is
 * inferred by the core.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { basePathOf, logFor, type IntegrationLogger } from "@sesame/core/integration"
import type { NextRequest } from "next/server.js"
import type { AuthorizedCallback, PrimaryAuthConfig, PrimaryAuthConfigInput } from "./types.js"

/** The base path of the endpoints when neither `basePath` nor a path in `AUTH_URL` says otherwise. */
export const defaultBasePath = "/api/auth"

export interface Prepared {
  readonly basePath: string
  readonly pages: PrimaryAuthConfig["pages"]
  readonly authorized: AuthorizedCallback | undefined
  /** The configured logger, printing as the core does. */
  readonly log: IntegrationLogger
  readonly handlers: AuthConfig
}

const prepared = new WeakMap<PrimaryAuthConfig, Prepared>()

/** The configurations for `config` (cached per object). */
export function prepare(config: PrimaryAuthConfig): Prepared {
  const cached = prepared.get(config)
  if (cached) return cached
  const basePath = basePathOf(config, defaultBasePath)
  const { authorized, ...coreCallbacks } = config.callbacks ?? {}
  const handlers: AuthConfig = { ...config, basePath, callbacks: coreCallbacks }
  const result: Prepared = Object.freeze({
    basePath,
    pages: config.pages,
    authorized,
    log: logFor(handlers),
    handlers,
  })
  prepared.set(config, result)
  return result
}

/** Resolves a configuration or lazy configuration for one request (absent outside a request). */
export async function load(input: PrimaryAuthConfigInput, request: NextRequest | undefined): Promise<Prepared> {
  return prepare(typeof input === "function" ? await input(request) : input)
}
