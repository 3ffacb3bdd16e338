/**
 * Where an integration's auth routes live, by the core's rule.
 *
 * @module
 */
import { normaliseBasePath } from "../config/base-path.js"
import { envUrl, readEnv } from "../config/env.js"

/**
 * The base path the core routes by for `config`: `basePath`, else the path of `AUTH_URL` /
 * `SESAME_URL` when it has one, else `fallback`, the integration's default (`/api/auth`, where
 * their catch-all routes live, rather than the core's `/auth`). Without trailing slashes, as the
 * core writes it. A path the core cannot use is returned as it is: the core's endpoints then
 * answer with the configuration error that names it.
 */
export function basePathOf(config: { readonly basePath?: string | undefined }, fallback: string): string {
  if (config.basePath !== undefined) return normaliseBasePath(config.basePath)
  const url = envUrl(readEnv())
  const fromUrl = url !== undefined && URL.canParse(url) ? normaliseBasePath(new URL(url).pathname) : ""
  return fromUrl || normaliseBasePath(fallback)
}
