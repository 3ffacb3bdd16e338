/**
 * `GET|POST verify-email/:password-provider`: the link that confirms a new account's address.
 *
 * Like a sign-in link (`email/callback.ts`), and on the same page (`pages/confirm-email.ts`, with
 * its own words), opening it consumes nothing: it shows a page whose one
 * button posts the link back with a CSRF token, so a mail scanner that opens every link cannot use
 * it up, and prefetches get a `503`. The `POST` uses the link (once), marks the address confirmed
 * and signs the user in: following the link proves the address as a sign-in link does.
 *
 * @module
 */
import { signIn } from "../account/sign-in.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { isPrefetch } from "../email/prefetch.js"
import { confirmEmailPage } from "../pages/confirm-email.js"
import { translatorFor } from "../pages/where.js"
import { linkEndpoint, linkParameters, useLink } from "./links.js"
import type { PasswordProvider } from "./provider.js"

async function showConfirmation(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  if (isPrefetch(ctx.request)) {
    return { status: 503, headers: { ...noStore, "Content-Type": "text/plain; charset=utf-8" }, body: "Confirmation links are not prefetched. Open the link to continue." }
  }
  const { token, email } = linkParameters(ctx.query)
  const { token: csrfToken } = await ctx.csrf()
  const page = confirmEmailPage(
    { action: linkEndpoint(ctx, provider, "verify-email"), csrfToken, token, email, callbackUrl: await ctx.callbackUrl(), origin: ctx.origin, theme: ctx.config.theme },
    translatorFor(ctx),
    { heading: "verifyEmail.heading", body: "verifyEmail.body", button: "verifyEmail.button" },
  )
  return { ...page, cookies: ctx.setCookies }
}

async function confirm(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  const user = await useLink(provider, "verify-email", linkParameters(ctx.body))
  let confirmed = user
  if (!user.emailVerified) {
    confirmed = await provider.adapter.updateUser({ id: user.id, emailVerified: new Date() })
    await emit(ctx.config, "updateUser", { user: confirmed })
  }
  return signIn(ctx, { kind: "password", provider, user: confirmed, isNewUser: !user.emailVerified })
}

export function verifyEmail(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  return ctx.method === "POST" ? confirm(ctx, provider) : showConfirmation(ctx, provider)
}
