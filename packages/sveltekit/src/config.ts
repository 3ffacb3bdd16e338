/**
 * The configuration the core is called with, made once per configuration object (so that the
 * core's own per-object cache keeps working) from the app's: the base path decided by the core's
 * rule (`basePathOf`) with `/auth` as this integration's default, the spec's default for every
 * framework but Next.js, and `raw` left out. Everything else (secret, `trustHost`, provider
 * credentials from `AUTH_<PROVIDER>_ID`…) is read by the core from the environment, as for any
 * integration.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { basePathOf, logFor, type IntegrationLogger } from "@sesame/core/integration"
import type { RequestEvent } from "@sveltejs/kit"
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./types.js"

/** Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise. */
export const defaultBasePath = "/auth"

/** A configuration ready for the core, with what the hook needs to know about it. */
export interface Prepared {
  /** The core's base path: requests below it are the endpoints'. */
  readonly basePath: string
  /** The configured logger, printing as the core does. */
  readonly log: IntegrationLogger
  /** What `Auth()` and `@sesame/core/integration` are called with. */
  readonly config: AuthConfig
}

const prepared = new WeakMap<SvelteKitAuthConfig, Prepared>()

/**
 * The prepared configuration for `config` (cached per object). Throws a `TypeError` for a
 * non-object, or a base path of `/`.
 */
export function prepare(config: SvelteKitAuthConfig): Prepared {
  if (typeof config !== "object" || config === null) {
    throw new TypeError("SvelteKitAuth: expected a configuration object (or a function of the event returning one) with at least `providers`.")
  }
  const cached = prepared.get(config)
  if (cached) return cached
  const basePath = basePathOf(config, defaultBasePath)
  if (basePath === "") {
    throw new TypeError('SvelteKitAuth: `basePath` cannot be "/": the endpoints need a path of their own, such as "/auth", or every page of the app would be theirs.')
  }
  const { raw: _raw, ...rest } = config as AuthConfig
  const core: AuthConfig = { ...rest, basePath }
  const result: Prepared = Object.freeze({ basePath, log: logFor(core), config: core })
  prepared.set(config, result)
  return result
}

/** The prepared configuration of `input` for `event` (a lazy configuration runs here). */
export async function load(input: SvelteKitAuthConfigInput, event: RequestEvent): Promise<Prepared> {
  return prepare(typeof input === "function" ? await input(event) : input)
}
