/**
 * `auth()` outside the proxy: with no arguments in server components, route handlers and server
 * actions (the request comes from `next/headers`), and `auth(req, res)` / `auth(context)` in the
 * pages router.
 *
 * Policy: these forms fail closed. Any error (a broken configuration, an adapter that throws) is
 * logged and answers `null`, so a page never shows private content because the session check
 * failed. Errors that belong to Next.js itself (reading `headers()` while prerendering tells Next
 * that the page is dynamic) are not caught: they happen before the `try`.
 *
 * But for a storage outage (the adapter's database cannot be reached: a restart, a failover):
 * nothing is known of the session then, and `null` would tell the page the visitor is signed out
 * (a sign-in button, a redirect to the sign-in page, for every signed-in user at once). These
 * forms throw the core's `StorageUnavailable` instead (`status` 503, `retryAfter` in seconds), for
 * the app's error boundary (`error.tsx`) or its own `try`, and log nothing: the core logged the
 * outage once when it began, and logs again when it ends.
 *
 * Cookies read by the session (a JWT re-encrypted with a later expiry, a database session's new
 * expiry, a cleared cookie) are written where Next.js allows it: in route handlers and server
 * actions. Server components cannot set cookies; there the session stays valid and the proxy keeps
 * it alive.
 *
 * @module
 */
import { Auth, type Session } from "@sesame/core"
import { StorageUnavailable, storageRetryAfter } from "@sesame/core/errors"
import { isStorageUnavailable, logFor, readSession } from "@sesame/core/integration"
import { cookies, headers } from "next/headers.js"
import { load, type Prepared } from "./config.js"
import { appendSetCookie, writeCookies } from "./cookies.js"
import { cookieHeader, coreRequest } from "./core-call.js"
import type { PagesRequest, PagesResponse, PrimaryAuthConfigInput } from "./types.js"

function failClosed(prepared: Prepared | undefined, form: string, error: unknown): null {
  // Not "signed out": thrown as it is, and not logged again (the core logged the outage).
  if (isStorageUnavailable(error)) throw error
  ;(prepared?.log ?? logFor(undefined)).error(`${form} could not read the session and answers null (signed out)`, error)
  return null
}

/** The browser's headers as Next.js sees them, with the cookies of `cookies()` (which include any set earlier in this request). */
export async function browserHeaders(): Promise<{ headers: Headers; store: Awaited<ReturnType<typeof cookies>> }> {
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const result = new Headers(incoming)
  result.set("cookie", cookieHeader(store.getAll()))
  return { headers: result, store }
}

/** `auth()` with no arguments. Throws `StorageUnavailable` while the storage cannot be reached. */
export async function sessionFromNext(input: PrimaryAuthConfigInput): Promise<Session | null> {
  const { headers: browser, store } = await browserHeaders()
  let prepared: Prepared | undefined
  try {
    prepared = await load(input, undefined)
    prepared.log.debug("auth(): reading the session")
    // No URL of the request in server components: the origin comes from the headers, by the core's rule.
    const { session, cookies: refreshed } = await readSession(prepared.handlers, { headers: browser, url: "http://localhost" })
    writeCookies(store, refreshed)
    return session
  } catch (error) {
    return failClosed(prepared, "auth()", error)
  }
}

function toHeaders(raw: PagesRequest["headers"]): Headers {
  const result = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || name.startsWith(":")) continue
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, item)
  }
  return result
}

/** `auth(req, res)` and `auth({ req, res })` in the pages router. Throws `StorageUnavailable` while the storage cannot be reached. */
export async function sessionForPages(input: PrimaryAuthConfigInput, req: PagesRequest, res: PagesResponse): Promise<Session | null> {
  let prepared: Prepared | undefined
  try {
    prepared = await load(input, undefined)
    // The plain (not raw) endpoint: its Set-Cookie lines are serialised by the core's cookie policy.
    const response = await Auth(coreRequest(prepared, toHeaders(req.headers), "session"), prepared.handlers)
    appendSetCookie(res, response.headers.getSetCookie())
    if (response.status === 503) throw await unavailableOf(response)
    if (response.status !== 200) return null
    const body: unknown = await response.json()
    return body && typeof body === "object" ? (body as Session) : null
  } catch (error) {
    return failClosed(prepared, "auth(req, res)", error)
  }
}

/**
 * The outage a `503` of the session endpoint stands for, with its `Retry-After` and message: the
 * plain endpoint answers it (`{ error: "StorageUnavailable", message }`) rather than throwing.
 */
async function unavailableOf(response: Response): Promise<StorageUnavailable> {
  const seconds = Number(response.headers.get("retry-after"))
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null
  const message = typeof body?.message === "string" ? body.message : undefined
  return new StorageUnavailable(message, { retryAfter: Number.isInteger(seconds) && seconds > 0 ? seconds : storageRetryAfter })
}
