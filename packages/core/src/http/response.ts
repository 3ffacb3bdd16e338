/**
 * The internal response every action returns, and its conversion to a web `Response`.
 *
 * A client that sends `X-Auth-Return-Redirect: 1` (the browser helpers do, so that they can
 * navigate themselves) gets a redirect as `200 {"url": …}` instead of a 302.
 *
 * Every response says `X-Content-Type-Options: nosniff`, so that a browser renders a body only as
 * what its `Content-Type` says, and every response that sets a cookie says `Cache-Control:
 * private, no-store` (unless the action chose its own). JSON bodies can quote the request (an
 * error message naming a path or provider id), so they are written with `<`, `>`, `&`, U+2028 and
 * U+2029 as `\u` escapes ({@link jsonText}): still the same JSON value, but never markup,
 * whatever a reader takes it for.
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
  /** `Set-Cookie` lines made elsewhere, sent as they are: a browser service's own cookies (`modules/services.ts`). */
  setCookieLines?: string[]
}

/**
 * The body of every `401` for a request without a session: the core's own (`GET <basePath>/token`)
 * and every integration's guard (`@sesame/core/integration`). `error` for clients that read
 * `{ error }`, `message` for those that read SvelteKit's error shape `{ message }`.
 */
export const unauthorizedBody: { readonly error: "Unauthorized"; readonly message: string } = Object.freeze({ error: "Unauthorized", message: "Sign in first." })

/**
 * The body of every integration's guard's `403` to a client that wants JSON, when the guard's
 * `allow` refuses a signed-in request: in the shape of {@link unauthorizedBody}. A page gets its
 * `message` as plain text.
 */
export const forbiddenBody: { readonly error: "Forbidden"; readonly message: string } = Object.freeze({ error: "Forbidden", message: "Access denied." })

/** Headers that keep per-user answers out of every cache. */
export const noStore: Record<string, string> = {
  "Cache-Control": "private, no-cache, no-store",
  Pragma: "no-cache",
  Expires: "0",
}

/** Characters that JSON may hold raw but HTML (or a script, for U+2028/U+2029) reads as something else. */
const htmlSensitive = /[<>&\u2028\u2029]/g

/**
 * `JSON.stringify(value)` with {@link htmlSensitive} characters as `\uXXXX` escapes. They can only
 * occur inside JSON strings, where the escape means the same character, so parsing gives the
 * same value. A value JSON cannot hold (a function) is written as `null`.
 */
export function jsonText(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(htmlSensitive, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
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

/** The status, headers (`Set-Cookie` lines included) and body an internal response is sent as. */
export interface Envelope {
  status: number
  /** Header lines in order, names as written; `Set-Cookie` may repeat. */
  headers: [string, string][]
  body: string | null
}

/**
 * What `internal` is on the wire: the one place that decides it, for the web `Response` and the
 * Node.js handler alike.
 */
export function envelope(internal: InternalResponse, options: ResponseOptions): Envelope {
  const headers: [string, string][] = []
  let contentType: string | undefined
  let cacheControl = false
  for (const name in internal.headers) {
    const value = internal.headers[name]!
    const lower = name.toLowerCase()
    if (lower === "content-type") contentType = value
    else headers.push([name, value])
    if (lower === "cache-control") cacheControl = true
  }
  headers.push(["X-Content-Type-Options", "nosniff"])
  const cookies = internal.cookies ?? []
  for (const cookie of cookies) headers.push(["Set-Cookie", serializeCookie(cookie)])
  const lines = internal.setCookieLines ?? []
  for (const line of lines) headers.push(["Set-Cookie", line])
  // An answer that sets a cookie is one browser's: no shared cache may keep it (or hand its
  // cookies to others), whatever a middleware in front said for the app's pages.
  if ((cookies.length > 0 || lines.length > 0) && !cacheControl) headers.push(["Cache-Control", "private, no-store"])
  let status = internal.status ?? 200
  let body: string | null = null
  if (internal.redirect !== undefined) {
    if (options.returnRedirect) {
      contentType = "application/json"
      body = jsonText({ url: internal.redirect })
      status = 200
    } else {
      headers.push(["Location", internal.redirect])
      status = 302
    }
  } else if (typeof internal.body === "string") {
    body = internal.body
    contentType ??= "text/plain; charset=utf-8"
  } else if (internal.body !== undefined) {
    body = jsonText(internal.body)
    contentType = "application/json"
  }
  if (contentType !== undefined) headers.push(["Content-Type", contentType])
  return { status, headers, body: options.head ? null : body }
}

/** Converts an internal response to a `Response`. */
export function toResponse(internal: InternalResponse, options: ResponseOptions): Response {
  const { status, headers, body } = envelope(internal, options)
  // A plain list: a `Headers` object given to `Response` costs several microseconds more to copy.
  return new Response(body, { status, headers })
}
