/**
 * Calls into the core for the parts of this package that are not HTTP endpoints (`auth()`, the
 * guard, the server actions): each builds a request to the endpoint that does the job, with the
 * browser's headers and cookies, and gets back the core's internal response (`raw`), whose cookies
 * it then writes wherever Next.js lets it.
 *
 * @module
 */
import { Auth, type InternalResponse, type ResponseCookie, type Session } from "@sesame/core"
import type { Prepared } from "./config.js"
import { publicOrigin } from "./origin.js"

/** Headers of the browser's request that must not reach the core's internal request. */
const dropped = ["content-length", "content-type", "transfer-encoding", "x-auth-return-redirect"]

export interface CoreCall {
  method?: "GET" | "POST"
  /** Form fields (urlencoded) or a JSON value. */
  form?: Record<string, string>
  json?: unknown
}

/** `name=value; …` from a list of cookies, values percent-encoded as browsers send them. */
export function cookieHeader(cookies: Iterable<{ name: string; value: string }>): string {
  return [...cookies].map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
}

/** A request to `<origin><basePath>/<path>` carrying the browser's headers. */
export function coreRequest(prepared: Prepared, browserHeaders: Headers, path: string, call: CoreCall = {}): Request {
  const headers = new Headers(browserHeaders)
  for (const name of dropped) headers.delete(name)
  let body: string | undefined
  if (call.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(call.form).toString()
  } else if (call.json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(call.json)
  }
  const origin = publicOrigin(prepared, headers, "http://localhost")
  return new Request(`${origin}${prepared.basePath}/${path}`, { method: call.method ?? "GET", headers, body })
}

/** Runs `request` through the core; throws what the core throws (`AuthError`s, configuration errors). */
export function callCore(prepared: Prepared, request: Request, forAction = false): Promise<InternalResponse> {
  return Auth(request, forAction ? prepared.actions : prepared.reader)
}

/** The session of the browser whose headers these are, and the cookies that keep it alive. */
export async function readSession(prepared: Prepared, headers: Headers): Promise<{ session: Session | null; cookies: ResponseCookie[] }> {
  const response = await callCore(prepared, coreRequest(prepared, headers, "session"))
  const body = response.body
  const session = (response.status ?? 200) === 200 && body && typeof body === "object" ? (body as Session) : null
  return { session, cookies: response.cookies ?? [] }
}
