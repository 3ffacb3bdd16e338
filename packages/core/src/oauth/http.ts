/**
 * The one exception to "https only" for calls to a provider: loopback hosts, where development
 * identity providers run. oauth4webapi refuses plain http unless told otherwise; Sesame tells it so
 * only for these hosts, so a typo'd `http://` production URL fails instead of leaking codes and
 * secrets.
 *
 * @module
 */
import { allowInsecureRequests, customFetch } from "oauth4webapi"

/** Whether `url` points at this machine (localhost, 127.0.0.0/8, [::1]). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]"
}

/** The oauth4webapi request options for a call to `url` of `provider` (through its own `fetch`, when it has one). */
export function httpOptions(url: URL | string | undefined, provider: { fetch: typeof fetch | undefined }): { [allowInsecureRequests]: boolean; [customFetch]?: never } {
  const parsed = typeof url === "string" ? new URL(url) : url
  const insecure = !!parsed && parsed.protocol === "http:" && isLoopback(parsed)
  // oauth4webapi calls it as `fetch(url, { method, headers, body, redirect, signal })`.
  return provider.fetch ? { [allowInsecureRequests]: insecure, [customFetch]: provider.fetch as never } : { [allowInsecureRequests]: insecure }
}
