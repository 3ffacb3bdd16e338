/**
 * A forgotten password: `POST forgot-password/:password-provider` asks for a link,
 * `GET reset-password/:password-provider` (the link) shows the form for a new password, and its
 * `POST` sets it.
 *
 * - The request is answered the same whatever the address: an address with an account gets a reset
 *   link, one without gets an email saying so (with the sign-up page), within the email limit.
 * - Opening the link consumes nothing (a mail scanner may open it); only posting a new password
 *   does. The new password is checked against the policy before the link is used, so a refused
 *   password does not cost the link.
 * - Setting it replaces the hash, confirms the address (the link proved it; a user Sesame made
 *   without that proof is set aside and the owner gets a new one, `account/decide.ts`), forgets the failed
 *   sign-ins of the account (its owner is back in), ends every database session of the user (whoever
 *   knew the old password is out), and sends `passwordChange`. The browser goes to the sign-in
 *   page with `notice=PasswordReset`: signing in with the new password is the proof that it works.
 *
 * @module
 */
import { announce, ownerProved } from "../account/decide.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { PasswordResetOutcome } from "../modules/types.js"
import { resetPasswordPage } from "./pages.js"
import { signInPageUrl, translatorFor } from "../pages/where.js"
import { typedAddress } from "./input.js"
import { linkEndpoint, linkParameters, useLink } from "./links.js"
import { emailLink, emailNoAccount } from "./mail.js"
import { checkNewPassword } from "./policy.js"
import type { PasswordProvider } from "./provider.js"
import { attemptSucceeded } from "./throttle.js"
import { replacePassword } from "./store.js"
import { passwordPageUrl, signInWithNotice } from "./urls.js"

export async function requestReset(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  // The captcha first, when it guards the request: before the address is looked up or an email sent.
  const captchaRefusal = await ctx.config.hooks.formGuard?.check(ctx, "forgot-password")
  if (captchaRefusal) return captchaRefusal
  const email = typedAddress(provider, ctx.body.email)
  if (!email) return { redirect: await passwordPageUrl(ctx, "forgot-password", { error: "invalid-email" }), cookies: ctx.setCookies }
  const user = await provider.adapter.getUserByEmail(email)
  if (user) await emailLink(ctx, provider, "reset-password", { id: user.id, email })
  else await emailNoAccount(ctx, provider, email, provider.config.signUp ? await passwordPageUrl(ctx, "signup", { email }) : signInPageUrl(ctx))
  return { redirect: await passwordPageUrl(ctx, "forgot-password", { sent: "1" }), cookies: ctx.setCookies }
}

/**
 * Emails `user` a reset link on another's word (an admin's, through `ModuleRequest.sendPasswordReset`):
 * the link and the limit of the forgotten-password form, from the first password provider. The
 * owner alone ever learns the new password. `unavailable`: no password provider is configured.
 */
export async function sendResetLink(ctx: RequestContext, user: { id: string; email: string }): Promise<PasswordResetOutcome> {
  const provider = [...ctx.config.providers.values()].find((p): p is PasswordProvider => p.type === "password")
  if (!provider) return "unavailable"
  return emailLink(ctx, provider, "reset-password", user)
}

/** `GET reset-password/:provider?token&email[&error]`: the form for a new password. */
export async function showResetForm(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  const { token, email } = linkParameters(ctx.query, provider)
  const { token: csrfToken } = await ctx.csrf()
  const page = resetPasswordPage(
    {
      action: linkEndpoint(ctx, provider, "reset-password"),
      csrfToken,
      token,
      email,
      error: ctx.query.error,
      callbackUrl: await ctx.callbackUrl(),
      minLength: provider.policy.minLength,
      signInUrl: signInPageUrl(ctx),
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** `POST reset-password/:provider`: sets the new password with the link's token. */
export async function resetPassword(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  const link = linkParameters(ctx.body, provider)
  const check = await checkNewPassword(typeof ctx.body.password === "string" ? ctx.body.password : "", provider.policy, {
    email: link.email,
    logger: ctx.config.logger,
  })
  if (!check.ok) {
    const url = new URL(linkEndpoint(ctx, provider, "reset-password"))
    url.search = new URLSearchParams({ token: link.token, email: link.email, callbackUrl: await ctx.callbackUrl(), error: check.reason }).toString()
    return { redirect: url.href, cookies: ctx.setCookies }
  }
  const linked = await useLink(provider, "reset-password", link, ctx.spentOneTime)
  const hash = await provider.hasher.hash(check.password)
  // The link proved the address: an unproven user is set aside and the owner gets their own
  // (account/decide.ts), whose password this becomes.
  const proven = await provider.adapter.transaction((tx) => ownerProved(ctx, tx, linked))
  await announce(ctx, proven, linked)
  const user = proven.user
  const { user: updated, sessionsEnded } = await replacePassword(ctx.config, provider, user, hash, {})
  if (provider.throttle) await attemptSucceeded(provider.throttle, { account: link.email })
  await emit(ctx.config, "passwordChange", { user: updated, how: "reset", sessionsEnded })
  // Whoever had the link acted: nobody signed in.
  await emitSecurity(ctx.config, ctx.headers, { type: "password.changed", userId: updated.id, actorId: null, provider: provider.id, details: { how: "reset", sessionsEnded } })
  return { redirect: await signInWithNotice(ctx, "PasswordReset"), cookies: ctx.setCookies }
}
