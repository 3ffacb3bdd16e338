/**
 * The issuer identifier the app signs and answers with: the `iss` of API tokens
 * (`tokens/issue.ts`) and of a native app's authorization answer (RFC 9207, `native/flow.ts`).
 * Every place that names the issuer asks here, so that one rule decides it:
 *
 * 1. the feature's own configured issuer (`apiTokens.issuer`);
 * 2. else `AUTH_URL`'s (or `SESAME_URL`'s) origin plus the base path;
 * 3. else, for a request to a loopback host only (local development), the request's origin plus
 *    the base path;
 * 4. else the configuration error `UntrustedHost`, whose logged message says what to set.
 *
 * Never from a request's `Host` or `X-Forwarded-Host` otherwise: with `trustHost` and no
 * `AUTH_URL`, the app's links follow those headers (`http/context.ts`), but a forged header would
 * then get tokens signed with the app's key that name the forger's host as their issuer.
 *
 * Why refused per request rather than when the configuration is resolved: whether the request's
 * origin may be used depends on the request (loopback or not), as the development secret's and
 * the `Host` header's own rules do (`config/origins.ts`: loopback hosts are served "production or
 * not"); `NODE_ENV` says nothing reliable about it (`config/env.ts`: a server started without it is
 * not a developer's machine, and `next start` on localhost sets it). And the other flows do not
 * need an issuer: an app behind `trustHost` without `AUTH_URL` keeps signing people in, and only
 * the issuing refuses, with the log line that names the fix.
 *
 * @module
 */
import { isLoopbackHost } from "../config/origins.js"
import { UntrustedHost } from "../errors.js"
import type { RequestContext } from "./context.js"

/**
 * Where Sesame's endpoints are as no request can change them, by the same rule as the issuer
 * (`AUTH_URL` and the base path; a loopback request's origin in development); null when neither
 * holds (`trustHost` without `AUTH_URL`). What a plugin names the app with to others (an
 * authorization server's issuer): `ModuleRequest.publicAuthUrl`.
 */
export function fixedAuthUrl(ctx: Pick<RequestContext, "config" | "origin" | "url">): string | null {
  try {
    return issuerOf(ctx)
  } catch (error) {
    if (error instanceof UntrustedHost) return null
    throw error
  }
}

/**
 * The issuer for what `ctx`'s request is given: `configured` when set, else `AUTH_URL`'s origin
 * plus the base path, else the request's origin plus the base path for a loopback host only.
 * Throws `UntrustedHost` (the configuration error) otherwise.
 *
 * @param configured The feature's own issuer option (`apiTokens.issuer`), which wins when set.
 */
export function issuerOf(ctx: Pick<RequestContext, "config" | "origin" | "url">, configured?: string): string {
  if (configured !== undefined) return configured
  const { publicUrl, basePath } = ctx.config
  if (publicUrl) return `${publicUrl.origin}${basePath}`
  const { host, hostname } = new URL(ctx.origin)
  // And the request's own host (its Host header): behind `trustHost`, an X-Forwarded-Host that
  // differs from it (even a loopback alias) names no issuer; that setup sets AUTH_URL.
  if (isLoopbackHost(hostname) && host === ctx.url.host) return `${ctx.origin}${basePath}`
  throw new UntrustedHost(
    `No issuer was made for a request for ${JSON.stringify(host)}: the issuer (\`iss\`) of API tokens and of native apps' authorization answers is never taken from a request's Host or X-Forwarded-Host, but for a loopback host (local development). Set AUTH_URL (or SESAME_URL) to the app's public URL, or \`apiTokens.issuer\` (API tokens only).`,
  )
}
