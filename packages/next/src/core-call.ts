/**
 * Calls into the core for the server actions and `auth(req, res)`: each builds a request to the
 * endpoint that does the job, with the browser's headers and cookies; the actions get back the
 * core's internal response (`raw`), whose cookies they then write through `cookies()`. (`auth()`
 * and the guard read the session through `readSession` of `@sesame/core/integration`.)
 *
 * @module
 */
import { Auth, type InternalResponse } from "@sesame/core"
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

/** Runs an action's `request` through the core; throws what the core throws (`AuthError`s, configuration errors). */
export function callCore(prepared: Prepared, request: Request): Promise<InternalResponse> {
  return Auth(request, prepared.actions)
}
