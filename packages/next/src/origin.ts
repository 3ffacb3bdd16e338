/**
 * The app's public origin, for the URLs this package builds itself (the guard's redirects, the
 * internal requests to the core).
 *
 * The rule is the core's own (`appOrigin` from `@sesame/core/integration`): `AUTH_URL` /
 * `SESAME_URL`, else with `trustHost` the proxy's `X-Forwarded-Host` / `Host`, else the `Host` of a
 * loopback request. Next.js hands route handlers and the proxy a `request.url` that says
 * `localhost` whatever the browser asked for, so that URL is only the last resort: when the core
 * refuses the request's host, the core call fails with the configuration error anyway, and the URL
 * built here on the fallback leads nowhere an attacker chose.
 *
 * @module
 */
import { appOrigin } from "@sesame/core/integration"
import type { Prepared } from "./config.js"

/** The origin the browser sees, e.g. `https://example.com`. */
export function publicOrigin(prepared: Prepared, headers: Headers, fallback: string): string {
  return appOrigin(prepared.handlers, { headers, url: fallback }) ?? new URL(fallback).origin
}
