/**
 * The cookies of the migration from Auth.js: Auth.js's own session cookie, read and deleted, and
 * Sesame's mark that it was carried over.
 *
 * @module
 */
import type { CookieOption } from "../../http/cookies.js"

/**
 * The session cookie of Auth.js v5, read only with `migrateFrom: "authjs"` (`migrate/authjs/`):
 * `authjs.session-token`, `__Secure-authjs.session-token` on secure origins (the rule Auth.js
 * shares with Sesame: `useSecureCookies`, else https), chunked `.0`, `.1`, … like Sesame's. The
 * options are Auth.js's (host-only, `Path=/`), whatever the app set for its own cookies: they are
 * what deletes the cookie.
 */
export function authjsSessionCookie(secure: boolean): CookieOption {
  return { name: `${secure ? "__Secure-" : ""}authjs.session-token`, options: { httpOnly: true, sameSite: "lax", path: "/", secure } }
}

/**
 * Set once an Auth.js session was carried over in this browser (`migrate/authjs/`), and kept by
 * sign-out: an Auth.js cookie that Sesame could not delete (set with a `Domain`, to share it across
 * subdomains) is then never carried over again, which would sign the browser back in after a
 * sign-out. Its lifetime, `maxAge`, is the app's `session.maxAge`, set where it is issued.
 */
export function authjsCarriedCookie(secure: boolean): CookieOption {
  return { name: `${secure ? "__Secure-" : ""}sesame.authjs-carried`, options: { httpOnly: true, sameSite: "lax", path: "/", secure } }
}
