/**
 * Writing the core's cookies through SvelteKit's `event.cookies.set`, the one way SvelteKit lets
 * a `load`, a form action or a hook set a cookie (it refuses `Set-Cookie` in `setHeaders`), and
 * the way that makes the new value visible to the rest of the request (`cookies.get`, SvelteKit's
 * server-side `fetch`) and puts it on whatever answers it, a thrown `redirect()` included.
 *
 * Policy:
 * 1. The attributes are the core's: each cookie is serialised by the core (`setCookieLines`) and
 *    the attributes of that line are what `cookies.set` receives, every one given explicitly, so
 *    that none of SvelteKit's defaults (`httpOnly` and `secure` on, `sameSite: "lax"`) applies
 *    where the core decided otherwise, and `Expires` rides along with `Max-Age` as the core writes
 *    it. The value is the core's too: SvelteKit encodes it with `encodeURIComponent`, as the core
 *    does.
 * 2. A response already generated (a streamed page past its headers) cannot take cookies: the
 *    write is skipped, the session stays valid until its old expiry, and the next read that can
 *    write (a page load, a form action, the browser's own `GET <basePath>/session`) renews it.
 * 3. A response that sets any of the core's cookies is one browser's: the hook makes it say
 *    `Cache-Control: private, no-store` (the core's rule for its own answers), so that no shared
 *    cache keeps it, or hands the session cookie to another visitor, whatever the route said.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines } from "@sesame/core/integration"
import type { Cookies } from "@sveltejs/kit"

/** The options `cookies.set` takes. */
export type KitCookieOptions = Parameters<Cookies["set"]>[2]

/** The attributes of a `Set-Cookie` line (`name=value; Path=/; HttpOnly`) as `cookies.set` options, each one explicit. */
export function cookieOptions(line: string): KitCookieOptions {
  const options: KitCookieOptions = { path: "/", httpOnly: false, secure: false, sameSite: false }
  for (const attribute of line.split(";").slice(1)) {
    const separator = attribute.indexOf("=")
    const key = (separator === -1 ? attribute : attribute.slice(0, separator)).trim().toLowerCase()
    const value = separator === -1 ? "" : attribute.slice(separator + 1).trim()
    if (key === "path") options.path = value
    else if (key === "domain") options.domain = value
    else if (key === "max-age") options.maxAge = Number(value)
    else if (key === "expires") options.expires = new Date(value)
    else if (key === "httponly") options.httpOnly = true
    else if (key === "secure") options.secure = true
    else if (key === "samesite") options.sameSite = value.toLowerCase() as "lax" | "strict" | "none"
    else if (key === "partitioned") options.partitioned = true
  }
  return options
}

/**
 * Sets `cookies` on the response through `event.cookies` (policy 1); skipped once the response is
 * out (policy 2). Returns whether the response sets any of them.
 */
export function writeCookies(target: Cookies, cookies: readonly ResponseCookie[]): boolean {
  const lines = setCookieLines(cookies)
  try {
    cookies.forEach(({ name, value }, i) => target.set(name, value, cookieOptions(lines[i]!)))
  } catch {
    // The response is generated already (policy 2).
    return false
  }
  return cookies.length > 0
}

/**
 * The `Cookie` header of a request that carries the cookies as `event.cookies` has them now: the
 * request's, with those set during the request in place of theirs and the cleared ones (empty,
 * the core's way of clearing) left out; values percent-encoded as a browser sends them.
 */
export function currentCookieHeader(cookies: Cookies): string {
  return cookies
    .getAll()
    .filter(({ value }) => value !== "")
    .map(({ name, value }) => `${name}=${encodeURIComponent(value)}`)
    .join("; ")
}
