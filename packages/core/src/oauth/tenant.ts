/**
 * Issuer templates: the multi-tenant endpoints of the Microsoft identity platform (`common`,
 * `organizations`) publish `https://login.microsoftonline.com/{tenantid}/v2.0` as their issuer,
 * and each ID token names the issuer of the user's own tenant, `{tenantid}` filled with its `tid`
 * claim. Microsoft documents this check for apps that accept several tenants; the token's
 * signature is still checked against the provider's keys, so the `tid` it is checked with is the
 * one the provider signed. Which tenants may sign in is then the app's choice (its `signIn`
 * callback can look at `profile.tid`).
 *
 * @module
 */
import { decodeJwt } from "jose"

const placeholder = "{tenantid}"
/** A tenant id is a GUID; anything else never fills a template. */
const tenantId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isIssuerTemplate(issuer: string): boolean {
  return issuer.includes(placeholder)
}

/**
 * Whether the configured `issuer` is an instance of the `template` a discovery document named:
 * the template with its placeholder replaced by one path segment (`common`).
 */
export function matchesIssuerTemplate(template: string, issuer: string): boolean {
  const [before, after, ...rest] = template.split(placeholder)
  if (before === undefined || after === undefined || rest.length > 0) return false
  if (!issuer.startsWith(before) || !issuer.endsWith(after) || issuer.length <= before.length + after.length) return false
  const segment = issuer.slice(before.length, issuer.length - after.length)
  return /^[A-Za-z0-9._-]+$/.test(segment)
}

/**
 * The issuer an ID token in this token `response` must name, for a `template` issuer: filled with
 * the token's `tid`. The template itself when there is no usable `tid` (the check then fails).
 */
export async function tenantIssuer(template: string, response: Response): Promise<string> {
  try {
    const body: unknown = await response.clone().json()
    const idToken = body && typeof body === "object" ? (body as { id_token?: unknown }).id_token : undefined
    const tid = typeof idToken === "string" ? decodeJwt(idToken).tid : undefined
    return typeof tid === "string" && tenantId.test(tid) ? template.replace(placeholder, tid) : template
  } catch {
    // Not JSON or not a JWT: processing the response reports that.
    return template
  }
}
