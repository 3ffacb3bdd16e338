/**
 * Where the password provider's pages are, built-in or the app's sign-in page: one place for the
 * URLs its flows redirect to and its pages link to.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { signInPageUrl } from "../pages/where.js"

/** The password pages that have no provider in their path (their forms post to `<page>/:provider`). */
export type PasswordPage = "signup" | "forgot-password"

/** A password page with `query` (values left undefined are omitted) and the request's callback URL. */
export async function passwordPageUrl(ctx: RequestContext, page: PasswordPage, query: Record<string, string | undefined> = {}): Promise<string> {
  const url = new URL(`${ctx.authUrl}/${page}`)
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value)
  const callbackUrl = await ctx.callbackUrl()
  if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}

/** The sign-in page with a `notice` (built-in or the app's own page, which receives it as a query parameter). */
export async function signInWithNotice(ctx: RequestContext, notice: string): Promise<string> {
  const url = new URL(signInPageUrl(ctx))
  url.searchParams.set("notice", notice)
  const callbackUrl = await ctx.callbackUrl()
  if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}
