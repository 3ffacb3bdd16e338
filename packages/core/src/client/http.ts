/**
 * `@sesame/core/client`: the browser's plain HTTP with Sesame's endpoints, which the framework
 * clients (`@sesame/next/react`, `@sesame/solid-start/client`) build on: JSON reads (the session,
 * the CSRF token, the providers), form posts that answer with the redirect target as JSON
 * (`X-Auth-Return-Redirect`) so that the caller decides whether to follow, and navigation.
 *
 * Nothing here depends on a framework; it needs `fetch` and, to navigate, `window.location`.
 *
 * @module
 */
import type { Session } from "../types.js"

export { isBasePath, normaliseBasePath } from "../config/base-path.js"

/** A provider as `GET {basePath}/providers` lists it. */
export interface ClientProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** `GET url` as JSON, never from a cache. Throws when the answer is not a 2xx. */
export async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}.`)
  return response.json()
}

/** The session at `basePath`, or null when signed out. Throws when the request fails. */
export async function fetchSession(basePath: string): Promise<Session | null> {
  const body = await getJson(`${basePath}/session`)
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Session) : null
}

/** The CSRF token for the next form post (the response also sets its cookie when needed). */
export async function fetchCsrfToken(basePath: string): Promise<string> {
  const body = await getJson(`${basePath}/csrf`)
  const token = typeof body === "object" && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== "string") throw new Error(`GET ${basePath}/csrf answered without a csrfToken.`)
  return token
}

/** The configured providers by id. Throws when the request fails. */
export async function fetchProviders(basePath: string): Promise<Record<string, ClientProvider>> {
  const body = await getJson(`${basePath}/providers`)
  return typeof body === "object" && body !== null ? (body as Record<string, ClientProvider>) : {}
}

/** What a form post answered: its status, and where the server would have redirected. */
export interface FormPostResult {
  status: number
  ok: boolean
  url: string | undefined
}

/** Posts `fields` as a form, asking for the redirect target as JSON instead of a redirect. */
export async function postForm(url: string, fields: Record<string, string>): Promise<FormPostResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
    body: new URLSearchParams(fields),
    credentials: "same-origin",
  })
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null
  return { status: response.status, ok: response.ok, url: typeof body?.url === "string" ? body.url : undefined }
}

/** Form fields from options: each value as a string; `undefined` and `null` left out. */
export function formFields(fields: Record<string, unknown>): Record<string, string> {
  const form: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    form[name] = typeof value === "string" ? value : String(value)
  }
  return form
}

/** Goes to `url`; a URL that differs from the current one only by its hash reloads the page. */
export function navigate(url: string): void {
  const target = new URL(url, window.location.href)
  const here = new URL(window.location.href)
  window.location.assign(target.href)
  if (target.hash && target.href.split("#")[0] === here.href.split("#")[0]) window.location.reload()
}
