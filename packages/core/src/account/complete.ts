/**
 * The end of every successful sign-in: start the session, send `signIn` and the `sign-in`
 * security event, redirect.
 *
 * @module
 */
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { SignInResult } from "../session/types.js"
import { pluginsAdmit } from "./authorize.js"

/**
 * `result` with the plugins asked again (`checkSignIn`) once its session is stored, about the user
 * the sign-in lands on: the first asking named the person as the provider described them, before
 * the decision chose a user, and a suspension may have landed meanwhile (a second factor typed, a
 * sign-in under way). A refusal then ends the new session before anything learns of it.
 */
function withPluginsRecheck(ctx: RequestContext, result: SignInResult): SignInResult {
  if (ctx.config.modules.signInChecks.length === 0) return result
  const { recheck } = result
  return {
    ...result,
    recheck: async () => (!recheck || (await recheck())) && (await pluginsAdmit(ctx, { user: result.user, account: result.account, ...(result.profile ? { profile: result.profile } : {}) })),
  }
}

/** `callbackUrl`: where the sign-in was headed, when it started in an earlier request (a second factor). */
export async function completeSignIn(ctx: RequestContext, result: SignInResult, callbackUrl?: string): Promise<InternalResponse> {
  const { config } = ctx
  await config.sessionStrategy.start(ctx, withPluginsRecheck(ctx, result))
  await emit(config, "signIn", {
    user: result.user,
    account: result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: result.isNewUser,
  })
  const userId = result.user.id === undefined ? null : String(result.user.id)
  await emitSecurity(config, ctx.headers, {
    type: "sign-in",
    userId,
    provider: result.account?.provider ?? "unknown",
    details: { isNewUser: !!result.isNewUser, ...(result.factors ? { factors: result.factors.map(String) } : {}) },
  })
  const destination = callbackUrl ?? (await ctx.callbackUrl())
  if (result.isNewUser && config.pages.newUser) {
    const target = new URL(config.pages.newUser, ctx.origin)
    target.searchParams.set("callbackUrl", destination)
    return { redirect: target.href, cookies: ctx.setCookies }
  }
  return { redirect: destination, cookies: ctx.setCookies }
}
