/**
 * Where a client may send the browser: the one list of loopback hosts (an app on the user's own
 * computer, RFC 8252 §7.3), and what counts as a web page to come back to after a logout.
 *
 * @module
 */

/** The hosts an http redirect URI may name: the user's own computer. */
export const loopbackHosts: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether `uri` is an https URL, or an http one on a loopback host: where a browser may be sent back after a logout. */
export function isHttpsOrLoopback(uri: unknown): boolean {
  if (typeof uri !== "string" || !URL.canParse(uri)) return false
  const { protocol, hostname } = new URL(uri)
  return protocol === "https:" || (protocol === "http:" && loopbackHosts.has(hostname))
}
