/**
 * Recognising requests that fetch a page before (or instead of) a person opening it: browser
 * prefetch and prerender (`Sec-Purpose: prefetch`, the older `Purpose: prefetch` and
 * `X-Moz: prefetch`) and link previews (`X-Purpose: preview`). A sign-in link answers them without
 * doing anything on the user's behalf.
 *
 * @module
 */
import type { HeaderReader } from "../http/incoming.js"

const purposeHeaders = ["sec-purpose", "purpose", "x-purpose", "x-moz"] as const
const fetchAhead: ReadonlySet<string> = new Set(["prefetch", "prerender", "preview"])

/** Whether `request` is a prefetch, prerender or preview rather than a navigation. */
export function isPrefetch(request: { headers: HeaderReader }): boolean {
  return purposeHeaders.some((name) =>
    (request.headers.get(name) ?? "")
      .toLowerCase()
      .split(/[\s,;]+/)
      .some((token) => fetchAhead.has(token)),
  )
}
