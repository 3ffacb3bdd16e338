/**
 * Asking the `signIn` callback whether a sign-in may go on.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import { AccessDenied, AuthError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { httpUrl } from "../http/context.js"
import type { SignInCallbackParams } from "../types.js"

/**
 * Runs the `signIn` callback, then the plugins' `checkSignIn`. Returns nothing to go on, or a URL to
 * redirect to instead (when the callback returned one, after the `redirect` callback, or a plugin
 * did). Throws `AccessDenied` when one refuses.
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
  if (typeof allowed !== "string") return modulesCheck(ctx, params)
  const target = await callbacks.redirect({ url: allowed, baseUrl: ctx.origin })
  return httpUrl(target, ctx.origin) ?? `${ctx.origin}/`
}

/**
 * Asks the plugins that have a word on every sign-in (`checkSignIn`), in order, once the app's
 * callback let it go on. A plugin's URL must be the app's own: it names the plugin's page, and a
 * plugin is no way to send a visitor off-site.
 */
async function modulesCheck(ctx: RequestContext, params: SignInCallbackParams): Promise<string | undefined> {
  for (const module of ctx.config.modules.signInChecks) {
    let answer: boolean | string
    try {
      answer = await module.checkSignIn!(params, { ...ctx.config.modules.context, authUrl: ctx.authUrl })
    } catch (error) {
      throw new AccessDenied(error instanceof Error ? error : new Error(String(error)))
    }
    if (answer === true) continue
    const url = typeof answer === "string" ? httpUrl(answer, ctx.origin) : null
    if (url && new URL(url).origin === ctx.origin) return url
    throw new AccessDenied(`Plugin "${module.id}" refused the sign-in.`)
  }
  return undefined
}

/** Whether every plugin's `checkSignIn` lets `params` go on (`true`): the re-check of a sign-in whose session is stored. */
export async function pluginsAdmit(ctx: RequestContext, params: SignInCallbackParams): Promise<boolean> {
  try {
    return (await modulesCheck(ctx, params)) === undefined
  } catch (error) {
    // "Could not ask" is the request's 503, not a refusal.
    const unavailable = storageUnavailable(error)
    if (unavailable) throw unavailable
    if (error instanceof AccessDenied) return false
    throw error
  }
}
