/**
 * Where the two-factor endpoints live, below the base path, and the redirects between them.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { signInPageUrl } from "../pages/where.js"

export type TwoFactorPath = "two-factor" | "two-factor/email" | "two-factor/setup" | "two-factor/recovery-codes" | "two-factor/disable" | "reauthenticate"

type Query = Readonly<Record<string, string | undefined>>

function withQuery(base: string, query: Query): string {
  const url = new URL(base)
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value)
  return url.href
}

/** The endpoint `path`, with `query`. */
export function twoFactorUrl(ctx: RequestContext, path: TwoFactorPath, query: Query = {}): string {
  return withQuery(`${ctx.authUrl}/${path}`, query)
}

/** The sign-in page (built-in or the app's), with `query` (a `callbackUrl`, an `error`…). */
export function signInUrl(ctx: RequestContext, query: Query): string {
  return withQuery(signInPageUrl(ctx), query)
}

/** A redirect (after a POST: 303) to `url`, with the cookies queued on the context. */
export function goTo(ctx: RequestContext, url: string): InternalResponse {
  return { redirect: url, cookies: ctx.setCookies }
}

/** Back to the sign-in page with `error` (and the callback URL, so that signing in again lands where it would have). */
export async function backToSignIn(ctx: RequestContext, error: string): Promise<InternalResponse> {
  return goTo(ctx, signInUrl(ctx, { error, callbackUrl: await ctx.callbackUrl() }))
}
