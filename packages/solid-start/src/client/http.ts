/**
 * The browser's requests to the auth routes: the CSRF token, the providers, and form posts that
 * answer with JSON instead of a redirect (`X-Auth-Return-Redirect`), so that the caller decides
 * whether to follow.
 *
 * @module
 */

/** A provider as `GET <prefix>/providers` lists it. */
export interface ClientProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" })
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}.`)
  return response.json()
}

/** The CSRF token for the next form post (the response also sets its cookie when needed). */
export async function csrfToken(prefix: string): Promise<string> {
  const body = await getJson(`${prefix}/csrf`)
  const token = typeof body === "object" && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== "string") throw new Error(`GET ${prefix}/csrf answered without a csrfToken.`)
  return token
}

/** The configured providers by id. */
export async function providers(prefix: string): Promise<Record<string, ClientProvider>> {
  const body = await getJson(`${prefix}/providers`)
  return typeof body === "object" && body !== null ? (body as Record<string, ClientProvider>) : {}
}

/** Where the server would have redirected, and its HTTP status. */
export interface PostResult {
  status: number
  url: string | undefined
}

/** Posts `fields` as a form and returns the redirect target the server chose. */
export async function postForm(url: string, fields: Record<string, string>): Promise<PostResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
    body: new URLSearchParams(fields).toString(),
  })
  let target: unknown
  try {
    target = ((await response.json()) as { url?: unknown } | null)?.url
  } catch {
    target = undefined
  }
  return { status: response.status, url: typeof target === "string" ? target : undefined }
}
