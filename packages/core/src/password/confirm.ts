/**
 * `GET|POST verify-email/:password-provider`: the link that confirms a new account's address.
 *
 * Opening it consumes nothing (a mail scanner opens every link), and prefetches get a `503`: it
 * shows the confirmation page (`pages/confirm-email.ts`, with its own words), which asks for the
 * account's password. The `POST` checks the password first (counted by the sign-in throttle; a
 * wrong one goes back to the page and costs the link nothing), then uses the link (once), marks
 * the address confirmed and signs the user in.
 *
 * Why the password: the link proves the mailbox, the password proves who chose it. Without it, an
 * attacker who signed up with someone else's address could have its owner confirm that account
 * from their inbox ("finish creating your account") and keep signing in with the password they
 * chose. The owner, who does not know it, uses the forgotten-password link instead, whose proof
 * sets the attacker's user aside (`reset.ts`).
 *
 * @module
 */
import { signIn } from "../account/sign-in.js"
import { takeUnprovenMark } from "../account/unproven.js"
import { isPrefetch } from "../email/prefetch.js"
import { TooManyAttempts } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { confirmEmailPage } from "../pages/confirm-email.js"
import { translatorFor } from "../pages/where.js"
import { linkEndpoint, linkParameters, useLink, type LinkParameters } from "./links.js"
import type { PasswordProvider } from "./provider.js"
import { typedPassword } from "./input.js"
import { verifyPassword } from "./verify.js"
import { storedPassword } from "./storage.js"

async function showConfirmation(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  if (isPrefetch(ctx)) {
    return { status: 503, headers: { ...noStore, "Content-Type": "text/plain; charset=utf-8" }, body: "Confirmation links are not prefetched. Open the link to continue." }
  }
  const { token, email } = linkParameters(ctx.query, provider)
  const { token: csrfToken } = await ctx.csrf()
  const page = confirmEmailPage(
    {
      action: linkEndpoint(ctx, provider, "verify-email"),
      csrfToken,
      token,
      email,
      callbackUrl: await ctx.callbackUrl(),
      password: { error: ctx.query.error === "wrong-password" },
      origin: ctx.origin,
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
    { heading: "verifyEmail.heading", body: "verifyEmail.body", button: "verifyEmail.button", note: null },
  )
  return { ...page, cookies: ctx.setCookies }
}

/** Back to the confirmation page with `error=wrong-password`; the link stays usable. */
async function wrongPassword(ctx: RequestContext, provider: PasswordProvider, link: LinkParameters): Promise<InternalResponse> {
  const url = new URL(linkEndpoint(ctx, provider, "verify-email"))
  url.search = new URLSearchParams({ token: link.token, email: link.email, callbackUrl: await ctx.callbackUrl(), error: "wrong-password" }).toString()
  return { redirect: url.href, cookies: ctx.setCookies }
}

async function confirm(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  const { adapter } = provider
  const link = linkParameters(ctx.body, provider)
  const verdict = await verifyPassword(provider, link.email, typedPassword(provider, ctx.body.password), provider.clientIp?.(ctx.request) ?? null)
  if (!verdict.ok && verdict.retryAfter !== undefined) throw new TooManyAttempts(verdict.retryAfter)
  if (!verdict.ok) return wrongPassword(ctx, provider, link)
  const user = await useLink(provider, "verify-email", link, ctx.spentOneTime)
  let confirmed = user
  if (!user.emailVerified) {
    // Whoever chose the password owns the address: this user is proven now, and is no longer one
    // that a later proof would set aside (account/unproven.ts).
    confirmed = await adapter.transaction(async (tx) => {
      const taken = await takeUnprovenMark(tx, user.id)
      try {
        return await tx.updateUser({ id: user.id, emailVerified: new Date() })
      } catch (error) {
        // Without a transaction the mark is gone for good: put back with what the request spent.
        if (taken && !tx.inTransaction) ctx.spentOneTime.push(taken)
        throw error
      }
    })
    await emit(ctx.config, "updateUser", { user: confirmed })
    await emitSecurity(ctx.config, ctx.headers, { type: "user.updated", userId: confirmed.id, details: { fields: ["emailVerified"] } })
  }
  const { hash } = verdict.stored
  return signIn(ctx, {
    kind: "password",
    provider,
    user: confirmed,
    isNewUser: !user.emailVerified,
    recheck: async () => (await storedPassword(adapter, user.id))?.hash === hash,
  })
}

export function verifyEmail(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  return ctx.method === "POST" ? confirm(ctx, provider) : showConfirmation(ctx, provider)
}
