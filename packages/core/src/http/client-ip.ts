/**
 * The client's IP address, for limits kept per client (email link requests, sign-in throttling)
 * and for the security events (`security-events.ts`).
 *
 * A request does not say who sent it: only a proxy the app trusts can. So by default the address
 * is the last `X-Forwarded-For` entry (the one the nearest proxy added) when the configuration
 * explicitly trusts the proxy in front of it (`trustHost: true` or `AUTH_TRUST_HOST=true`), and
 * unknown otherwise: a header any client can set is never believed by default, and an app that
 * knows better gives its own `clientIp`.
 *
 * @module
 */

/** The last `X-Forwarded-For` entry of `headers`: the address the trusted proxy saw. */
export function forwardedFor(headers: { get(name: string): string | null }): string | null {
  const header = headers.get("x-forwarded-for")
  const last = header?.split(",").pop()?.trim()
  return last || null
}

/** The last `X-Forwarded-For` entry: the address the trusted proxy saw. */
export function lastForwardedFor(request: Request): string | null {
  return forwardedFor(request.headers)
}

/** How to find the client's IP: the app's own rule, else the trusted proxy's header when there is one (`trustProxy`). */
export function clientIpRule(
  custom: ((request: Request) => string | null | undefined) | undefined,
  trustProxy: boolean,
): ((request: Request) => string | null | undefined) | undefined {
  return custom ?? (trustProxy ? lastForwardedFor : undefined)
}
