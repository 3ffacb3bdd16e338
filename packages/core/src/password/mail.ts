/**
 * The password provider's emails: which text each kind says, the limit per address, and sending
 * through the app's `sendEmail`.
 *
 * A send that fails is logged (its message rebuilt without the link) and leaves no usable link
 * behind; the visitor's answer does not change, since it must not depend on the address either.
 * Over the limit (`emailsPerAddress` in 15 minutes) nothing is sent and nothing is stored, with the
 * same answer again.
 *
 * @module
 */
import { backend } from "#crypto"
import { defaultPasswordProvider } from "../config/defaults.js"
import { toHex } from "../crypto/encoding.js"
import { linkEmail } from "../email/message.js"
import { loggableCause } from "../email/send.js"
import type { VerificationEmail } from "../email/types.js"
import { EmailSignInError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { Translator } from "../pages/i18n.js"
import { translatorFor } from "../pages/where.js"
import { createLink } from "./links.js"
import type { PasswordProvider } from "./provider.js"
import type { PasswordEmailKind } from "./types.js"

function message(kind: PasswordEmailKind, url: string, host: string, ctx: RequestContext, t: Translator): VerificationEmail {
  const text = {
    "verify-email": { subject: t.t("mail.verify.subject", { host }), lead: t.t("mail.verify.lead"), button: t.t("mail.verify.button"), notice: t.t("mail.notice") },
    "reset-password": { subject: t.t("mail.reset.subject", { host }), lead: t.t("mail.reset.lead"), button: t.t("mail.reset.button"), notice: t.t("mail.notice") },
    "account-exists": { subject: t.t("mail.exists.subject", { host }), lead: t.t("mail.exists.lead"), button: t.t("mail.reset.button"), notice: t.t("mail.notice") },
    "no-account": { subject: t.t("mail.unknown.subject", { host }), lead: t.t("mail.unknown.lead"), button: t.t("mail.unknown.button"), notice: t.t("mail.notice.nothing") },
  }[kind]
  return linkEmail(text, { url, theme: ctx.config.theme }, t)
}

/**
 * Counts an email of `kind` to `email` against its limit; false when over it (send nothing). A
 * counter store that fails lets the email through and logs it: the limit is a brake, not a check
 * of who may sign in. Confirmation links (which anyone who knows a pending account's password can
 * have re-sent) are counted apart from the owner's emails (reset links, "account exists"), so that
 * a flood of the first cannot hold back the second.
 */
async function underEmailLimit(ctx: RequestContext, provider: PasswordProvider, email: string, kind: PasswordEmailKind): Promise<boolean> {
  const group = kind === "verify-email" ? "confirm" : "owner"
  const key = `sesame:password:mail:${group}:${toHex(await backend.sha256(email))}`
  try {
    const counted = await provider.counters.incrementCounter(key, new Date(Date.now() + defaultPasswordProvider.emailWindow * 1000))
    return counted.count <= provider.config.emailsPerAddress
  } catch (error) {
    // Even when its storage is away for a moment: only existing accounts get these emails, so a 503
    // here and not for an unknown address would tell that the address has an account.
    ctx.config.logger.error(new EmailSignInError("The password provider's email counter failed; the email was sent anyway.", { cause: error }))
    return true
  }
}

/** Sends one email; returns whether it went. `secret` is cut out of anything logged. */
async function sendPasswordEmail(
  ctx: RequestContext,
  provider: PasswordProvider,
  params: { kind: PasswordEmailKind; to: string; url: string; expires: Date | undefined; secret?: string },
): Promise<boolean> {
  const { kind, to, url, expires, secret } = params
  const host = new URL(ctx.origin).host
  try {
    await provider.config.sendEmail({ kind, to, url, expires, message: message(kind, url, host, ctx, translatorFor(ctx)), theme: ctx.config.theme, request: ctx.request })
    return true
  } catch (error) {
    // Logged as the sign-in link's failures are: without the link's token, with the mail library's diagnostic fields.
    ctx.config.logger.error(new EmailSignInError(`The password provider "${provider.id}" could not send its ${kind} email.`, { cause: loggableCause(error, secret ?? "") }))
    return false
  }
}

/**
 * Emails `user` a one-time link within the limit: a confirmation link (`verify-email`), or a reset
 * link, alone (`reset-password`) or telling of a sign-up with a taken address (`account-exists`).
 * A link whose email could not be sent is removed at once. Says what became of it: sent, held
 * back by the limit, or not sent (logged).
 */
export async function emailLink(
  ctx: RequestContext,
  provider: PasswordProvider,
  kind: "verify-email" | "reset-password" | "account-exists",
  user: { id: string; email: string },
): Promise<"sent" | "limited" | "failed"> {
  if (!(await underEmailLimit(ctx, provider, user.email, kind))) return "limited"
  const link = await createLink(ctx, provider, kind === "verify-email" ? "verify-email" : "reset-password", user)
  const sent = await sendPasswordEmail(ctx, provider, { kind, to: user.email, url: link.url, expires: link.expires, secret: link.token })
  if (!sent) await provider.adapter.useVerificationToken({ identifier: user.email, token: link.hashed })
  return sent ? "sent" : "failed"
}

/** Tells `email`, which has no account, that a reset was asked for it (within the limit); `url` is where to sign up. */
export async function emailNoAccount(ctx: RequestContext, provider: PasswordProvider, email: string, url: string): Promise<void> {
  if (await underEmailLimit(ctx, provider, email, "no-account")) await sendPasswordEmail(ctx, provider, { kind: "no-account", to: email, url, expires: undefined })
}
