/**
 * Handing an email (a link, a one-time code, or both) to the provider's `sendVerificationRequest`,
 * and cleaning up when that fails.
 *
 * A failed send (SMTP server down, recipient refused, API error) must leave nothing behind: what
 * was stored for the email is removed, so a link or code that never reached anyone cannot be used
 * later, and the user sees `EmailSignin` on the sign-in page. The cause is logged, but mail
 * libraries and HTTP APIs like to quote what they were given, so the message is rebuilt with the
 * token and the code (and so the link) cut out, and only the non-secret diagnostic fields of the
 * original error are kept.
 *
 * @module
 */
import type { VerificationToken } from "../adapters/types.js"
import { EmailSignInError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { EmailProvider } from "./resolve.js"
import type { SendVerificationRequestParams } from "./types.js"

/** Fields of mail-library errors that say what went wrong without quoting the message. */
const diagnosticFields = ["code", "responseCode", "command", "errno", "syscall", "status"] as const

function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length === 0) continue
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join("[redacted]")
  }
  return out
}

/** The failure as it may be logged: message without any of `secrets`, diagnostic fields, no original object. */
export function loggableCause(error: unknown, ...secrets: string[]): Record<string, unknown> {
  const source = error instanceof Error ? error : undefined
  const err = new Error(redact(source ? source.message : String(error), secrets))
  err.name = source?.name ?? "Error"
  const fields: Record<string, unknown> = {}
  for (const field of diagnosticFields) {
    const value = (source as Record<string, unknown> | undefined)?.[field]
    if (typeof value === "string") fields[field] = redact(value, secrets)
    else if (typeof value === "number") fields[field] = value
  }
  return { ...fields, err }
}

/** What was stored for an email, to remove when it cannot be sent. */
export type StoredForEmail = Pick<VerificationToken, "identifier" | "token">

/**
 * Sends `params`; on failure removes each of `stored` and returns the `EmailSignInError` to report
 * (with a cause that quotes neither the token nor the code), else undefined.
 */
export async function deliver(
  ctx: RequestContext,
  provider: EmailProvider,
  params: SendVerificationRequestParams,
  stored: readonly StoredForEmail[],
): Promise<EmailSignInError | undefined> {
  const secrets = params.code === undefined ? [params.token] : [params.token, params.code]
  try {
    await provider.config.sendVerificationRequest(params)
    return undefined
  } catch (error) {
    for (const record of stored) {
      try {
        await provider.adapter.useVerificationToken(record)
      } catch (cleanup) {
        ctx.config.logger.error(new EmailSignInError("The unsent sign-in email's token could not be removed.", { cause: loggableCause(cleanup, ...secrets) }))
      }
    }
    const what = params.code === undefined ? "sign-in link" : "sign-in email"
    return new EmailSignInError(`The email provider "${provider.id}" could not send the ${what}.`, { cause: loggableCause(error, ...secrets) })
  }
}

/**
 * Sends the link; on failure removes the stored token (`hashedToken`) and throws `EmailSignInError`.
 */
export async function sendLink(ctx: RequestContext, provider: EmailProvider, params: SendVerificationRequestParams, hashedToken: string): Promise<void> {
  const failure = await deliver(ctx, provider, params, [{ identifier: params.identifier, token: hashedToken }])
  if (failure) throw failure
}
