/**
 * The end of every successful sign-in: start the session, send `signIn`, redirect.
 *
 * @module
 */
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { SignInResult } from "../session/types.js"

/** `callbackUrl`: where the sign-in was headed, when it started in an earlier request (a second factor). */
export async function completeSignIn(ctx: RequestContext, result: SignInResult, callbackUrl?: string): Promise<InternalResponse> {
  const { config } = ctx
  await config.sessionStrategy.start(ctx, result)
  await emit(config, "signIn", {
    user: result.user,
    account: result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: result.isNewUser,
  })
  const destination = callbackUrl ?? (await ctx.callbackUrl())
  if (result.isNewUser && config.pages.newUser) {
    const target = new URL(config.pages.newUser, ctx.origin)
    target.searchParams.set("callbackUrl", destination)
    return { redirect: target.href, cookies: ctx.setCookies }
  }
  return { redirect: destination, cookies: ctx.setCookies }
}
