/**
 * `GET signout` shows the confirmation page (or redirects to `pages.signOut`); `POST signout`
 * ends the session (the dispatcher checked the CSRF token) and redirects to the callback URL.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { signOutPage } from "../pages/signout.js"
import { customPage, translatorFor } from "../pages/where.js"
import { endSession } from "../session/sign-out.js"

export async function showSignOut(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const custom = customPage(ctx, "signOut", { callbackUrl })
  if (custom) return custom
  const { token } = await ctx.csrf()
  const response = signOutPage({ authUrl: ctx.authUrl, csrfToken: token, callbackUrl, theme: ctx.config.theme }, translatorFor(ctx))
  return { ...response, cookies: ctx.setCookies }
}

export async function signOut(ctx: RequestContext): Promise<InternalResponse> {
  await endSession(ctx)
  return { redirect: await ctx.callbackUrl(), cookies: ctx.setCookies }
}
