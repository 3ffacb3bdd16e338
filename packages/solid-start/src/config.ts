/**
 * The integration's configuration (core's `AuthConfig` plus `prefix`) and the configuration that
 * core's `Auth()` receives for it.
 *
 * `prefix` becomes core's `basePath`. Core routes by `basePath`; an integration that leaves it at
 * core's default (`/auth`) while the route lives under `/api/auth` answers every request there with
 * a 400 (Auth.js's SolidStart integration does). Everything else is passed through as it is, so
 * the environment (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`…) is read by
 * core, in one place, the same way for every integration.
 *
 * The derived configuration is made once per configuration object (a WeakMap), so that core, which
 * also caches by object, resolves and validates it once rather than on every request.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { normalisePrefix } from "./prefix.js"

/** The configuration of {@link SolidAuth}: core's configuration plus where the routes live. */
export interface SolidAuthConfig extends AuthConfig {
  /**
   * The path of the catch-all auth route: `/api/auth` (the default) for
   * `src/routes/api/auth/[...sesame].ts`. It is core's `basePath`; a `basePath` given as well must
   * be the same path.
   */
  prefix?: string
}

/** What {@link getSession} and the route guards take: the configuration without `raw`. */
export type SolidAuthOptions = Omit<SolidAuthConfig, "raw">

/** A configuration as core takes it, with the prefix it was made for. */
export interface CoreConfig {
  readonly prefix: string
  readonly config: AuthConfig
}

const derived = new WeakMap<object, CoreConfig>()

/**
 * The core configuration for `config`: `basePath` set to the prefix; `prefix` and `raw` left out,
 * because the routes must answer with a `Response` (core's `raw` would make it return its internal
 * form and throw instead). Throws a `TypeError` for a bad `prefix` or a `basePath` that disagrees.
 */
export function coreConfig(config: SolidAuthOptions | SolidAuthConfig, owner: string): CoreConfig {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${owner}: expected a configuration object with at least \`providers\`.`)
  }
  const cached = derived.get(config)
  if (cached) return cached
  const prefix = normalisePrefix(config.prefix, owner)
  if (config.basePath !== undefined && normalisePrefix(config.basePath, owner) !== prefix) {
    throw new TypeError(
      `${owner}: \`basePath\` (${JSON.stringify(config.basePath)}) differs from \`prefix\` (${JSON.stringify(prefix)}). Set only \`prefix\`: it is the base path of the auth routes.`,
    )
  }
  const { prefix: _prefix, raw: _raw, ...rest } = config as SolidAuthConfig
  const result: CoreConfig = Object.freeze({ prefix, config: { ...rest, basePath: prefix } })
  derived.set(config, result)
  return result
}
