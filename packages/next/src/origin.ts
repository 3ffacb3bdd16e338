/**
 * The app's public origin, for the URLs this package builds itself (the guard's redirects, the
 * internal requests to the core).
 *
 * Next.js hands route handlers and the proxy a `request.url` that says `localhost` whatever the
 * browser asked for, so it is the last resort. The rule is the core's: `AUTH_URL` / `SESAME_URL`
 * first, then `X-Forwarded-Host` / `Host` with `X-Forwarded-Proto`. The core refuses to run without
 * a public URL unless the host is trusted, so whenever a core call has succeeded, the headers here
 * may be used.
 *
 * @module
 */
import type { Prepared } from "./config.js"

const hostPattern = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i

function first(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined
}

/** The origin the browser sees, e.g. `https://example.com`. */
export function publicOrigin(prepared: Prepared, headers: Headers, fallback: string): string {
  if (prepared.publicUrl) return prepared.publicUrl.origin
  const host = first(headers.get("x-forwarded-host")) ?? first(headers.get("host"))
  if (host && hostPattern.test(host)) {
    const forwarded = first(headers.get("x-forwarded-proto"))?.toLowerCase()
    const protocol = forwarded === "https" || forwarded === "http" ? forwarded : new URL(fallback).protocol.slice(0, -1)
    try {
      return new URL(`${protocol}://${host}`).origin
    } catch {
      // Fall back below.
    }
  }
  return new URL(fallback).origin
}
