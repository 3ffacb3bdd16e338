/**
 * Changing a signed-in user's email address, with proof of the new one: `requestEmailChange` (a
 * server function, `server.ts`, and `POST account/email`) emails a one-time link to the new address; the link's
 * page (`GET account/email-confirm`, one click: `POST account/email-confirm`, so that a mail
 * scanner opening links changes nothing) sets the address and `emailVerified`, ends the user's
 * other sessions and tells the old address what happened.
 *
 * - Asking needs a recent sign-in (`session/fresh.ts`): a session left open must not be enough to
 *   move the account to another inbox, where a reset link would then go. A user asks at most
 *   {@link emailChangesPerHour} times an hour (counted in the adapter's store, else in memory).
 * - The answer never tells whether the new address belongs to another account: for such an
 *   address nothing is stored and nothing is sent, and the caller gets the same answer as for any
 *   other (the page says "check your inbox"). Its owner learns nothing either: the attempt was
 *   not theirs to act on.
 * - A link carries 32 random bytes; the adapter keeps only a keyed hash of them under the new
 *   address (`adapters/one-time-tokens.ts`), bound to the user and to the address they had when
 *   they asked, so a link works once, for one user, until its hour is up or the address changes
 *   otherwise. Following it works signed in as that user or signed out; signed in as someone
 *   else, it is refused and left unused.
 * - The emails go through the first configured `email` or `password` provider's sender
 *   (`sendVerificationRequest` or `sendEmail`), with `kind: "change-email"` (the link) or
 *   `"email-changed"` (the notice to the old address). Without either provider there is no
 *   way to prove an address, and the change is not offered.
 *
 * @module
 */
import { oneTimeHash, stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { currentAdapterUser } from "../account/passkeys.js"
import { takeUnprovenMark } from "../account/unproven.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { randomToken } from "../crypto/encoding.js"
import { linkEmail } from "../email/message.js"
import type { EmailProvider } from "../email/resolve.js"
import { loggableCause } from "../email/send.js"
import { EmailSignInError } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import type { Translator } from "../pages/i18n.js"
import { translatorFor } from "../pages/where.js"
import { counterStoreFor } from "../password/counters.js"
import type { PasswordProvider } from "../password/provider.js"
import { emitSecurity } from "../security-events.js"
import { recentlySignedIn } from "../session/fresh.js"
import { endUserSessions } from "../session/end-all.js"

/** How long a link to confirm a new address works, in seconds. */
export const emailChangeMaxAge = 60 * 60

/**
 * How many changes a user may ask for in an hour: a brake on mailing strangers from an account
 * made for that, counted whatever the address (so the count tells nothing about it either).
 */
export const emailChangesPerHour = 5

/** The most characters of a link's parameter that are read. */
const maxParameter = 512

/** The provider whose sender emails the links: the first `email` or `password` provider. */
export type EmailSender = EmailProvider | PasswordProvider

/** The first configured provider that can send an email, or null. */
export function emailSender(config: ResolvedConfig): EmailSender | null {
  for (const provider of config.providers.values()) if (provider.type === "email" || provider.type === "password") return provider
  return null
}

/** Why `requestEmailChange` sent nothing. A new address that belongs to another account is not a refusal. */
export type EmailChangeRefusal = "NotSignedIn" | "SignInTooOld" | "InvalidEmail" | "SameEmail" | "NoSender" | "SendFailed" | "TooManyRequests"

export type EmailChangeRequest = { requested: true } | { requested: false; reason: EmailChangeRefusal }

/** The hash purpose of a link: the user, and the address they had when they asked. */
const purposeOf = (user: Pick<AdapterUser, "id" | "email">) => `sesame-email-change:${user.id}:${user.email ?? ""}`

/** The link's endpoint. */
export const emailConfirmUrl = (ctx: RequestContext) => `${ctx.authUrl}/account/email-confirm`

/** The account page, at `section`. */
export const accountUrl = (ctx: RequestContext, query: Readonly<Record<string, string>> = {}, section?: string) => {
  const search = new URLSearchParams(query).toString()
  return `${ctx.authUrl}/account${search ? `?${search}` : ""}${section ? `#${section}` : ""}`
}

type MailKind = "change-email" | "email-changed"

function mailText(kind: MailKind, host: string, t: Translator) {
  return kind === "change-email"
    ? { subject: t.t("account.mail.change.subject", { host }), lead: t.t("account.mail.change.lead"), button: t.t("account.mail.change.button"), notice: t.t("account.mail.change.notice") }
    : { subject: t.t("account.mail.changed.subject", { host }), lead: t.t("account.mail.changed.lead"), button: t.t("account.mail.changed.button"), notice: t.t("account.mail.changed.notice") }
}

/** Sends one email through `sender`; returns whether it went. `secret` is cut out of anything logged. */
async function send(ctx: RequestContext, sender: EmailSender, mail: { kind: MailKind; to: string; url: string; expires: Date; secret: string }): Promise<boolean> {
  const t = translatorFor(ctx)
  const message = linkEmail(mailText(mail.kind, new URL(ctx.origin).host, t), { url: mail.url, theme: ctx.config.theme }, t)
  try {
    if (sender.type === "password") {
      await sender.config.sendEmail({ kind: mail.kind, to: mail.to, url: mail.url, expires: mail.expires, message, theme: ctx.config.theme, request: ctx.request })
    } else {
      await sender.config.sendVerificationRequest({
        kind: mail.kind,
        identifier: mail.to,
        url: mail.url,
        expires: mail.expires,
        provider: sender.config,
        token: mail.secret,
        theme: ctx.config.theme,
        request: ctx.request,
        message,
      })
    }
    return true
  } catch (error) {
    ctx.config.logger.error(new EmailSignInError(`The provider "${sender.id}" could not send the ${mail.kind} email.`, { cause: loggableCause(error, mail.secret) }))
    return false
  }
}

/**
 * The core of `requestEmailChange`, for the signed-in `user` of `ctx`: checks the address and the
 * sign-in's age, and emails the link unless the address belongs to another account.
 */
export async function requestEmailChangeFor(ctx: RequestContext, adapter: CheckedAdapter, user: AdapterUser, typed: unknown): Promise<EmailChangeRequest> {
  const sender = emailSender(ctx.config)
  if (!sender) return { requested: false, reason: "NoSender" }
  let email: string | null = null
  try {
    email = typeof typed === "string" && typed.length <= maxParameter ? sender.normalize(typed) : null
  } catch {
    email = null
  }
  if (!email) return { requested: false, reason: "InvalidEmail" }
  if (email === user.email) return { requested: false, reason: "SameEmail" }
  if (!(await recentlySignedIn(ctx))) return { requested: false, reason: "SignInTooOld" }
  const counted = await counterStoreFor(undefined, adapter).incrementCounter(`sesame:account:email-change:${user.id}`, new Date(Date.now() + 60 * 60 * 1000))
  if (counted.count > emailChangesPerHour) return { requested: false, reason: "TooManyRequests" }
  const owner = await adapter.getUserByEmail(email)
  // Another account's address: the same answer, and nothing stored or sent (see the module's list).
  if (owner) return { requested: true }
  const token = randomToken(32)
  const expires = new Date(Date.now() + emailChangeMaxAge * 1000)
  const hashed = await oneTimeHash(purposeOf(user), token, ctx.config.secrets[0]!)
  await adapter.createVerificationToken({ identifier: email, token: hashed, expires })
  const url = `${emailConfirmUrl(ctx)}?${new URLSearchParams({ token, email, user: user.id })}`
  if (!(await send(ctx, sender, { kind: "change-email", to: email, url, expires, secret: token }))) {
    await adapter.useVerificationToken({ identifier: email, token: hashed })
    return { requested: false, reason: "SendFailed" }
  }
  return { requested: true }
}

/** A link's parameters, as its page reads them and its form posts them back; null when malformed. */
export interface EmailChangeLink {
  token: string
  email: string
  user: string
}

export function linkOf(source: Readonly<Record<string, unknown>>): EmailChangeLink | null {
  const { token, email, user } = source
  const usable = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= maxParameter
  return usable(token) && usable(email) && usable(user) ? { token, email, user } : null
}

/** Why a link changed nothing. */
export type EmailChangeFailure = "InvalidLink" | "OtherUser" | "EmailTaken"

/**
 * Follows a link: uses it up and moves its user to the new address (verified), ends their other
 * sessions (this browser's stays, when it is theirs), and tells the old address. Signed in as
 * someone else, the link is refused and stays usable.
 */
export async function confirmEmailChange(ctx: RequestContext, adapter: CheckedAdapter, link: EmailChangeLink): Promise<{ changed: true } | { changed: false; reason: EmailChangeFailure }> {
  const current = await currentAdapterUser(ctx)
  if (current && current.id !== link.user) return { changed: false, reason: "OtherUser" }
  const user = current ?? (await adapter.getUser(link.user))
  if (!user) return { changed: false, reason: "InvalidLink" }
  const stored = await useOneTime(adapter, link.email, purposeOf(user), link.token, ctx.config.secrets, ctx.spentOneTime)
  if (!stored || !stillValid(stored)) return { changed: false, reason: "InvalidLink" }
  // Taken since the link was sent (a sign-up, another change): the address stays its owner's.
  const owner = await adapter.getUserByEmail(link.email)
  if (owner && owner.id !== user.id) return { changed: false, reason: "EmailTaken" }
  const keep = current ? await ctx.config.sessionStrategy.currentId(ctx) : undefined
  const updated = await adapter.transaction(async (tx) => {
    // The new address is proven: the user is no longer one that a later proof would set aside
    // (`account/unproven.ts`). Without a transaction, a failure after this puts the mark back.
    const taken = await takeUnprovenMark(tx, user.id)
    if (taken && !tx.inTransaction) ctx.spentOneTime.push(taken)
    const changed = await tx.updateUser({ id: user.id, email: link.email, emailVerified: new Date() })
    // Whoever held a session before the change (a thief who asked for it included) is signed out.
    await endUserSessions(ctx.config, tx, user.id, keep)
    return changed
  })
  await emit(ctx.config, "updateUser", { user: updated })
  await emitSecurity(ctx.config, ctx.headers, { type: "user.updated", userId: user.id, details: { fields: ["email"] } })
  const sender = emailSender(ctx.config)
  if (sender && user.email) {
    // The old address hears of it, with a way to the account page (its owner may not have asked).
    await send(ctx, sender, { kind: "email-changed", to: user.email, url: accountUrl(ctx), expires: new Date(), secret: link.token })
  }
  return { changed: true }
}
