/**
 * `GET signin` shows the sign-in page (or redirects to `pages.signIn`); `POST signin/:provider`
 * starts a sign-in with that provider, after the CSRF check.
 *
 * @module
 */
import { requestEmailLink } from "../email/signin.js"
import { MissingCSRF } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { BadRequest } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import { startAuthorization } from "../oauth/authorize.js"
import { oauthProvider } from "../oauth/provider.js"
import { signInPage } from "../pages/signin.js"
import { customPage, signInPageUrl, translatorFor } from "./pages.js"

/** Error codes passed on to a custom sign-in page (the built-in page shows the default message for any other). */
const pageErrors = /^[A-Za-z]{1,40}$/

export async function showSignIn(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const error = ctx.query.error && pageErrors.test(ctx.query.error) ? ctx.query.error : undefined
  const custom = customPage(ctx, "signIn", { callbackUrl, error, code: error ? ctx.query.code : undefined })
  if (custom) return custom
  const { token } = await ctx.csrf()
  const response = signInPage(
    {
      providers: ctx.config.providers,
      authUrl: ctx.authUrl,
      csrfToken: token,
      callbackUrl,
      error: ctx.query.error,
      email: ctx.query.email,
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...response, cookies: ctx.setCookies }
}

async function backToSignInPage(ctx: RequestContext): Promise<InternalResponse> {
  const url = new URL(signInPageUrl(ctx))
  url.searchParams.set("callbackUrl", await ctx.callbackUrl())
  return { redirect: url.href, cookies: ctx.setCookies }
}

/**
 * Throws the error of the provider the request names when that provider is left out for its
 * missing settings (`config/providers.ts`): its endpoints answer the `Configuration` error, and the
 * log names the variables to set, where an unknown id would get a 404.
 */
export function refuseUnavailableProvider(ctx: RequestContext): void {
  const error = ctx.providerId === undefined ? undefined : ctx.config.unavailableProviders.get(ctx.providerId)
  if (error) throw error
}

/** `GET signin/:provider`: sign-ins start with a POST, so this shows the sign-in page. */
export function showSignInForProvider(ctx: RequestContext): Promise<InternalResponse> {
  refuseUnavailableProvider(ctx)
  return backToSignInPage(ctx)
}

export async function signIn(ctx: RequestContext): Promise<InternalResponse> {
  if (ctx.providerId === undefined) return backToSignInPage(ctx)
  refuseUnavailableProvider(ctx)
  const provider = ctx.provider
  if (!provider) throw new BadRequest(`There is no provider "${ctx.providerId}".`, 404)
  const csrf = await ctx.csrf()
  if (!ctx.config.skipCSRFCheck && !csrf.verified) throw new MissingCSRF("The CSRF token is missing or does not match.")
  switch (provider.type) {
    case "credentials":
    case "webauthn":
      // Credentials and passkey responses are posted to the callback; a POST here just shows the form.
      return backToSignInPage(ctx)
    case "oauth":
    case "oidc":
      return startAuthorization(ctx, oauthProvider(ctx.config, provider.id))
    case "email":
      return requestEmailLink(ctx, provider)
  }
}
