/**
 * Asking the `signIn` callback whether a sign-in may go on.
 *
 * @module
 */
import { AccessDenied, AuthError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { httpUrl } from "../http/context.js"
import type { SignInCallbackParams } from "../types.js"

/**
 * Runs the `signIn` callback. Returns nothing to go on, or a URL to redirect to instead (when the
 * callback returned one, after the `redirect` callback). Throws `AccessDenied` when it refuses.
 */
export async function checkSignIn(ctx: RequestContext, params: SignInCallbackParams): Promise<string | undefined> {
  const { callbacks } = ctx.config
  let allowed: boolean | string
  try {
    allowed = await callbacks.signIn(params)
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new AccessDenied(error instanceof Error ? error : new Error(String(error)))
  }
  if (!allowed) throw new AccessDenied("The signIn callback refused the sign-in.")
  if (typeof allowed !== "string") return undefined
  const target = await callbacks.redirect({ url: allowed, baseUrl: ctx.origin })
  return httpUrl(target, ctx.origin) ?? `${ctx.origin}/`
}
