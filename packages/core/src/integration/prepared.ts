/**
 * A configuration ready for an integration's handlers: its base path by the core's rule, and the
 * object `Auth()` receives, without `raw` (a framework's route must answer with a `Response`).
 *
 * Worked out once per configuration object and default base path (a WeakMap): the core, which caches
 * its resolution by object too, then resolves the configuration once rather than on every request.
 *
 * @module
 */
import { basePathOf } from "./base-path.js"
import type { AuthConfig } from "../types.js"

/** A configuration ready for the core, with its base path. */
export interface PreparedConfig {
  /** Where the auth routes are, as the core routes them. */
  readonly basePath: string
  /** What `Auth()` and the `@sesame/core/integration` helpers receive. */
  readonly config: AuthConfig
}

const prepared = new WeakMap<AuthConfig, Map<string, PreparedConfig>>()

/**
 * `config` ready for an integration whose route lives at `fallbackBasePath` unless `basePath` or
 * the path of `AUTH_URL` says otherwise. A `TypeError` naming `owner` for anything but an object.
 */
export function prepareConfig(config: unknown, owner: string, fallbackBasePath: string): PreparedConfig {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${owner}: expected a configuration object with at least \`providers\`; got ${config === null ? "null" : typeof config}.`)
  }
  const given = config as AuthConfig
  let byBase = prepared.get(given)
  if (!byBase) prepared.set(given, (byBase = new Map()))
  const cached = byBase.get(fallbackBasePath)
  if (cached) return cached
  const { raw, ...rest } = given
  const result: PreparedConfig = Object.freeze({ basePath: basePathOf(given, fallbackBasePath), config: raw === undefined ? given : rest })
  byBase.set(fallbackBasePath, result)
  return result
}
