/**
 * The password provider's endpoints: `GET signup` and `GET forgot-password` show their forms (for
 * the configured password provider), which post to `signup/:provider` and
 * `forgot-password/:provider`; `reset-password/:provider` and `verify-email/:provider` are where
 * the emailed links lead (`GET` shows a page, `POST` uses the link). The dispatcher has checked
 * the provider's kind and, for every `POST`, the CSRF token.
 *
 * @module
 */
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { verifyEmail } from "./confirm.js"
import type { PasswordProvider } from "./provider.js"
import { requestReset, resetPassword, showResetForm } from "./reset.js"
import { passwordSignUp } from "./sign-up.js"
import { forgotPasswordPage, signUpPage, type FormPageParams } from "./pages.js"
import { signInPageUrl, translatorFor } from "../pages/where.js"

/** The configured password provider (the first, if there are several), for the pages that name none. */
function passwordProvider(ctx: RequestContext, needs?: "signUp"): PasswordProvider {
  for (const provider of ctx.config.providers.values()) {
    if (provider.type === "password" && (needs !== "signUp" || provider.config.signUp)) return provider
  }
  throw new BadRequest(needs === "signUp" ? "No password provider offers sign-up." : "No password provider is configured.", 404)
}

async function formParams(ctx: RequestContext, provider: PasswordProvider, page: "signup" | "forgot-password"): Promise<FormPageParams> {
  const { token } = await ctx.csrf()
  return {
    widget: ctx.config.hooks.formGuard?.widgets(ctx)[page === "signup" ? "sign-up" : "forgot-password"],
    action: `${ctx.authUrl}/${page}/${encodeURIComponent(provider.id)}`,
    csrfToken: token,
    callbackUrl: await ctx.callbackUrl(),
    error: ctx.query.error,
    email: ctx.query.email,
    name: ctx.query.name,
    sent: ctx.query.sent === "1",
    signInUrl: signInPageUrl(ctx),
    theme: ctx.config.theme,
  }
}

export async function showSignUp(ctx: RequestContext): Promise<InternalResponse> {
  const provider = passwordProvider(ctx, "signUp")
  const page = signUpPage({ ...(await formParams(ctx, provider, "signup")), minLength: provider.policy.minLength }, translatorFor(ctx))
  return { ...page, cookies: ctx.setCookies }
}

export async function showForgotPassword(ctx: RequestContext): Promise<InternalResponse> {
  const provider = passwordProvider(ctx)
  const page = forgotPasswordPage(await formParams(ctx, provider, "forgot-password"), translatorFor(ctx))
  return { ...page, cookies: ctx.setCookies }
}

export function signUp(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  if (!provider.config.signUp) throw new BadRequest(`Provider "${provider.id}" does not offer sign-up.`, 404)
  return passwordSignUp(ctx, provider)
}

export function forgotPassword(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  return requestReset(ctx, provider)
}

export function resetPasswordLink(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  return ctx.method === "POST" ? resetPassword(ctx, provider) : showResetForm(ctx, provider)
}

export { verifyEmail }
