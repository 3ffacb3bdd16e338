/**
 * The configuration the package's functions take: the core's `AuthConfig`, the very object given to
 * the plugin and to every function, so that the core resolves and checks it once. Everything in it
 * (`basePath`, `trustHost`, the environment's `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_SECRET`…) is the
 * core's to read; this package reads no environment variable.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"

/** Where the endpoints live unless the configuration (or `AUTH_URL`'s path) says otherwise: the spec's default outside Next.js. */
export const defaultBasePath = "/auth"

/** Throws a `TypeError` when `config` is not a configuration object (when a plugin or hook is made, not on a request). */
export function checkConfig(config: unknown, owner: string): asserts config is AuthConfig {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new TypeError(`${owner}: expected the Sesame configuration object (with at least \`providers\`); got ${config === null ? "null" : typeof config}.`)
  }
}
