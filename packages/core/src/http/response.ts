/**
 * The internal response every action returns, and its conversion to a web `Response`.
 *
 * A client that sends `X-Auth-Return-Redirect: 1` (the browser helpers do, so that they can
 * navigate themselves) gets a redirect as `200 {"url": …}` instead of a 302.
 *
 * @module
 */
import { serializeCookie, type ResponseCookie } from "./cookies.js"

export interface InternalResponse {
  status?: number
  headers?: Record<string, string>
  /** A string is sent as is (with the given content type); anything else as JSON. */
  body?: unknown
  /** An absolute URL to redirect to. */
  redirect?: string
  cookies?: ResponseCookie[]
}

/** Headers that keep per-user answers out of every cache. */
export const noStore: Record<string, string> = {
  "Cache-Control": "private, no-cache, no-store",
  Pragma: "no-cache",
  Expires: "0",
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): InternalResponse {
  return { status, body, headers }
}

export function redirectTo(url: string): InternalResponse {
  return { redirect: url }
}

export interface ResponseOptions {
  /** The client asked for redirects as JSON. */
  returnRedirect: boolean
  /** A HEAD request: no body. */
  head: boolean
}

/** Converts an internal response to a `Response`. */
export function toResponse(internal: InternalResponse, options: ResponseOptions): Response {
  const headers = new Headers(internal.headers)
  for (const cookie of internal.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie))
  let status = internal.status ?? 200
  let body: string | null = null
  if (internal.redirect !== undefined) {
    if (options.returnRedirect) {
      headers.set("Content-Type", "application/json")
      body = JSON.stringify({ url: internal.redirect })
      status = 200
    } else {
      headers.set("Location", internal.redirect)
      status = 302
    }
  } else if (typeof internal.body === "string") {
    body = internal.body
    if (!headers.has("Content-Type")) headers.set("Content-Type", "text/plain; charset=utf-8")
  } else if (internal.body !== undefined) {
    body = JSON.stringify(internal.body)
    headers.set("Content-Type", "application/json")
  }
  return new Response(options.head ? null : body, { status, headers })
}
