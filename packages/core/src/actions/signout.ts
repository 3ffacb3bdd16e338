/**
 * `GET signout` shows the confirmation page (or redirects to `pages.signOut`); `POST signout`
 * ends the session after the CSRF check and redirects to the callback URL.
 *
 * @module
 */
import { MissingCSRF } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { signOutPage } from "../pages/signout.js"
import { sessionStrategy } from "../session/index.js"
import { customPage, translatorFor } from "./pages.js"

export async function showSignOut(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const custom = customPage(ctx, "signOut", { callbackUrl })
  if (custom) return custom
  const { token } = await ctx.csrf()
  const response = signOutPage({ authUrl: ctx.authUrl, csrfToken: token, callbackUrl, theme: ctx.config.theme }, translatorFor(ctx))
  return { ...response, cookies: ctx.setCookies }
}

export async function signOut(ctx: RequestContext): Promise<InternalResponse> {
  const csrf = await ctx.csrf()
  if (!ctx.config.skipCSRFCheck && !csrf.verified) throw new MissingCSRF("The CSRF token is missing or does not match.")
  await sessionStrategy(ctx.config).end(ctx)
  return { redirect: await ctx.callbackUrl(), cookies: ctx.setCookies }
}
