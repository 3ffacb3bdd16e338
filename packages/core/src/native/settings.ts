/**
 * Native apps as configured (`nativeApps`), resolved once with the rest of the configuration: the
 * redirect URIs apps may receive codes at, and the adapter that keeps their sessions.
 *
 * Which redirect URIs are accepted (RFC 8252 §7, and its §8 security considerations):
 * - a private-use scheme in reverse-domain form (`com.example.app:/callback`): a scheme without a
 *   dot is too easily claimed by another app, and `javascript:`, `data:`, `file:` and the like are
 *   never redirect targets;
 * - an `https` URL (a claimed universal or app link);
 * - a loopback `http` URL on an IP literal (`127.0.0.1`, `[::1]`), whose port may differ from the
 *   configured one: desktop apps listen on whichever port is free (§7.3). `localhost` is refused,
 *   as §8.3 advises: it may resolve elsewhere.
 * A redirect URI in a request matches one configured exactly (character for character), but for
 * a loopback URL's port.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { NativeAppOptions } from "./options.js"

export interface ResolvedNativeApps {
  readonly redirectUris: readonly string[]
  /** The adapter of the database sessions (the strategy native apps need). */
  readonly adapter: CheckedAdapter
}

const loopbackHosts = new Set(["127.0.0.1", "[::1]"])
const neverSchemes = new Set(["javascript:", "data:", "file:", "blob:", "about:", "vbscript:", "filesystem:", "ftp:", "ws:", "wss:"])

function isLoopback(url: URL): boolean {
  return url.protocol === "http:" && loopbackHosts.has(url.hostname)
}

/** Why `uri` cannot be a native app's redirect URI, or null when it can. */
function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string" || !URL.canParse(uri)) return `${JSON.stringify(uri)} is not a URL`
  const url = new URL(uri)
  if (url.hash) return `${uri} has a fragment, which redirect URIs may not have`
  if (url.protocol === "https:") return null
  if (url.protocol === "http:") return isLoopback(url) ? null : `${uri} is plain http on a host other than 127.0.0.1 or [::1]`
  if (neverSchemes.has(url.protocol)) return `${uri} has a scheme that is never a redirect target`
  if (!url.protocol.slice(0, -1).includes(".")) return `${uri} has a private-use scheme that is not in reverse-domain form (such as com.example.app:)`
  return null
}

/** `options` resolved; throws a `TypeError` naming what is wrong. */
export function resolveNativeApps(options: NativeAppOptions, adapter: CheckedAdapter | undefined, databaseSessions: boolean): ResolvedNativeApps {
  if (!options || typeof options !== "object" || !Array.isArray(options.redirectUris) || options.redirectUris.length === 0) {
    throw new TypeError("`nativeApps.redirectUris` must list the redirect URIs of the apps (such as com.example.app:/callback).")
  }
  for (const uri of options.redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new TypeError(`\`nativeApps.redirectUris\`: ${problem}.`)
  }
  if (!databaseSessions || !adapter) {
    throw new TypeError('`nativeApps` needs database sessions (`session: { strategy: "database" }` and an adapter): their sessions can then be revoked.')
  }
  return { redirectUris: Object.freeze([...options.redirectUris]), adapter }
}

/** Whether `uri`, from a request, is one of the configured redirect URIs (see the module's rule). */
export function allowedRedirectUri(settings: ResolvedNativeApps, uri: string | undefined): uri is string {
  if (!uri || uri.length > 2048) return false
  if (settings.redirectUris.includes(uri)) return true
  if (!URL.canParse(uri)) return false
  const asked = new URL(uri)
  if (!isLoopback(asked)) return false
  return settings.redirectUris.some((configured) => {
    const url = new URL(configured)
    if (!isLoopback(url)) return false
    url.port = asked.port
    return url.href === asked.href
  })
}
