/**
 * Writing the core's cookies on a `Response` an integration hands back to its framework (Astro's,
 * React Router's): the lines are the core's serialisation (`setCookieLines`), the core decides every
 * attribute.
 *
 * Policy:
 * 1. The lines are appended in order (a browser applies `Set-Cookie` lines in order). A response
 *    whose headers are immutable (`fetch()`'s, `Response.redirect()`) is remade with the same body,
 *    status and headers first.
 * 2. A response that sets one of these cookies is one browser's: it says
 *    `Cache-Control: private, no-store` over whatever the route said, so that no shared cache keeps
 *    it and hands the session to others.
 * 3. A cookie the route's response already sets is left as it is ({@link withMissingCookies}): the
 *    route wrote it, and a renewed cookie must not undo a sign-out's cleared one.
 * 4. An upgraded connection (a WebSocket's `101`) takes no cookies.
 *
 * @module
 */
import { serializeCookie, type ResponseCookie } from "../http/cookies.js"

/** The cookie name of a `Set-Cookie` value (`name=value; Path=/` → `name`). */
export function setCookieName(line: string): string {
  return line.slice(0, Math.max(0, line.indexOf("="))).trim()
}

/** `response` with headers that can be written (policy 1). */
function writable(response: Response): Response {
  try {
    response.headers.append("x-sesame-probe", "1")
    response.headers.delete("x-sesame-probe")
    return response
  } catch {
    return new Response(response.body, response)
  }
}

/** `response` with `cookies` appended and made private (policy 1 and 2); the same response when there are none. */
export function withCookies(response: Response, cookies: readonly ResponseCookie[]): Response {
  if (cookies.length === 0) return response
  const result = writable(response)
  for (const cookie of cookies) result.headers.append("set-cookie", serializeCookie(cookie))
  result.headers.set("cache-control", "private, no-store")
  return result
}

/**
 * `response` with those of `cookies` it does not set itself (policy 3), and private when it carries
 * any of them, its own included (the route's headers may have said `public`). A `101` as it is.
 */
export function withMissingCookies(response: Response, cookies: readonly ResponseCookie[]): Response {
  if (response.status === 101 || cookies.length === 0) return response
  const present = new Set(response.headers.getSetCookie().map(setCookieName))
  const missing = cookies.filter(({ name }) => !present.has(name))
  let result = withCookies(response, missing)
  if (missing.length < cookies.length) {
    result = writable(result)
    result.headers.set("cache-control", "private, no-store")
  }
  return result
}
