/**
 * What every contender is given alike: one secret, one user, the same lifetimes (30 days, extended
 * at most once a day), the same base path, and the cookies a browser would send beside the session.
 */
export const secret = "benchmark-secret-0123456789-abcdefghijklmnop"
export const day = 86_400
export const maxAge = 30 * day
export const updateAge = day
export const basePath = "/auth"
export const origin = "http://localhost:3000"
export const user = { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: null, image: null }
export const password = "correct horse battery staple"

/** The claims of a session token as a sign-in writes them. */
export function sessionClaims() {
  return { name: user.name, email: user.email, picture: null, sub: user.id, auth_time: Math.floor(Date.now() / 1000) }
}

/** The JSON a session endpoint answers for the user, as the floors build it. */
export function sessionBody(expires) {
  return { user: { name: user.name, email: user.email, image: user.image }, expires }
}

/**
 * Cookies a real browser sends to an app beside its session: analytics, a consent record, a theme,
 * a session-replay id, and the library's own CSRF and callback-URL cookies (`own`, when it has
 * them). With Sesame's JWT the whole header is about 1.5 KB.
 */
export function browserCookies(own = []) {
  const consent = {
    necessary: true,
    analytics: true,
    marketing: false,
    preferences: true,
    version: 7,
    updated: "2026-11-02T09:14:26.311Z",
    id: "6b1f0c4e-2d8a-4f53-9c7e-1a2b3c4d5e6f",
    vendors: ["google-analytics", "hotjar", "intercom", "stripe", "sentry", "cloudflare"],
    regions: { eu: true, us: false },
  }
  const replay = Buffer.from(JSON.stringify({ id: "b2c9f3e1-7a44-5d0e-8f61-3c2d1e0f9a8b", created: 1764052800123, existing: true })).toString("base64")
  return [
    ["_ga", "GA1.1.1839471203.1764052800"],
    ["_gid", "GA1.1.402918377.1764052800"],
    ["_ga_Q4T7MZ2KX1", "GS2.1.s1764052800$o3$g1$t1764053110$j60$l0$h0"],
    ["cookie_consent", encodeURIComponent(JSON.stringify(consent))],
    ["theme", "dark"],
    ["_hjSessionUser_3141592", replay],
    ...own,
  ]
}

/** A CSRF cookie value shaped like Sesame's and Auth.js's (token|hash, URL-encoded). */
export const csrfCookieValue = `${"7f".repeat(32)}%7C${"a3".repeat(32)}`
export const callbackCookieValue = encodeURIComponent("http://localhost:3000/dashboard/settings")

export function cookieHeader(pairs) {
  return pairs.map(([name, value]) => `${name}=${value}`).join("; ")
}
