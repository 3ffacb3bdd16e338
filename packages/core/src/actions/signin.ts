/**
 * `GET signin` shows the sign-in page (or redirects to `pages.signIn`); `POST signin/:provider`
 * starts a sign-in with that provider (the dispatcher has checked it and the CSRF token).
 *
 * @module
 */
import type { ResolvedProvider } from "../config/providers.js"
import { requestEmailLink } from "../email/signin.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { pluginSignInSections } from "../modules/sign-in-sections.js"
import { startAuthorization } from "../oauth/authorize.js"
import { signInPage } from "../pages/signin.js"
import { customPage, signInPageUrl, translatorFor } from "../pages/where.js"

/** Error and notice codes passed on to a custom sign-in page (the built-in page shows the default message for any other error). */
const pageErrors = /^[A-Za-z]{1,40}$/

export async function showSignIn(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const error = ctx.query.error && pageErrors.test(ctx.query.error) ? ctx.query.error : undefined
  const notice = ctx.query.notice && pageErrors.test(ctx.query.notice) ? ctx.query.notice : undefined
  const custom = customPage(ctx, "signIn", { callbackUrl, error, code: error ? ctx.query.code : undefined, notice })
  if (custom) return custom
  const [{ token }, pluginSections] = await Promise.all([ctx.csrf(), pluginSignInSections(ctx)])
  const response = signInPage(
    {
      providers: [...ctx.config.providers.values()].map((p) => p.config),
      authUrl: ctx.authUrl,
      csrfToken: token,
      callbackUrl,
      error: ctx.query.error,
      notice: ctx.query.notice,
      email: ctx.query.email,
      theme: ctx.config.theme,
      pluginSections,
      widgets: ctx.config.hooks.formGuard?.widgets(ctx),
    },
    translatorFor(ctx),
  )
  return { ...response, cookies: ctx.setCookies }
}

/** Back to the sign-in page: `GET signin/:provider`, and a POST that names no provider (sign-ins start with a POST to a provider). */
export async function backToSignInPage(ctx: RequestContext): Promise<InternalResponse> {
  const url = new URL(signInPageUrl(ctx))
  url.searchParams.set("callbackUrl", await ctx.callbackUrl())
  return { redirect: url.href, cookies: ctx.setCookies }
}

export async function signIn(ctx: RequestContext, provider: ResolvedProvider): Promise<InternalResponse> {
  switch (provider.type) {
    case "credentials":
    case "webauthn":
    case "password":
      // Credentials, passkey responses and passwords are posted to the callback; a POST here just shows the form.
      return backToSignInPage(ctx)
    case "oauth":
    case "oidc":
      return startAuthorization(ctx, provider)
    case "email":
      return requestEmailLink(ctx, provider)
  }
}
