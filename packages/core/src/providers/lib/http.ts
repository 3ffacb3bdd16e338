/**
 * JSON requests to a service's API for the providers whose profile needs more than one plain GET
 * of the userinfo endpoint. A failure names the service and the status, never the URL (HubSpot
 * puts the access token in its path) or the token.
 *
 * @module
 */

/** Fetches `url` and returns its JSON body; throws on a non-2xx answer or a body that is not JSON. */
export async function fetchJson<T>(url: string | URL, init: RequestInit & { service: string }): Promise<T> {
  const { service, ...request } = init
  const headers = new Headers(request.headers)
  if (!headers.has("accept")) headers.set("accept", "application/json")
  const response = await fetch(url, { ...request, headers, redirect: "manual" })
  if (!response.ok) throw new Error(`${service} answered a profile request with status ${response.status}.`)
  try {
    return (await response.json()) as T
  } catch {
    throw new Error(`${service} did not answer a profile request with JSON.`)
  }
}

/** An `Authorization: Bearer` header with the access token of `tokens`. */
export function bearer(tokens: { access_token?: string }): Record<string, string> {
  return { authorization: `Bearer ${tokens.access_token ?? ""}` }
}
