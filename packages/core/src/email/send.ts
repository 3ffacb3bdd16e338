/**
 * Handing the link to the provider's `sendVerificationRequest`, and cleaning up when that fails.
 *
 * A failed send (SMTP server down, recipient refused, API error) must leave nothing behind: the
 * stored token is removed, so a link that never reached anyone cannot be used later, and the user
 * sees `EmailSignin` on the sign-in page. The cause is logged, but mail libraries and HTTP APIs
 * like to quote what they were given, so the message is rebuilt with the token (and so the link)
 * cut out, and only the non-secret diagnostic fields of the original error are kept.
 *
 * @module
 */
import { EmailSignInError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { EmailProvider } from "./resolve.js"
import type { SendVerificationRequestParams } from "./types.js"

/** Fields of mail-library errors that say what went wrong without quoting the message. */
const diagnosticFields = ["code", "responseCode", "command", "errno", "syscall", "status"] as const

function redactToken(text: string, token: string): string {
  if (token.length === 0) return text
  let out = text
  for (const form of new Set([token, encodeURIComponent(token)])) out = out.split(form).join("[redacted]")
  return out
}

/** The failure as it may be logged: message without the token, diagnostic fields, no original object. */
export function loggableCause(error: unknown, token: string): Record<string, unknown> {
  const source = error instanceof Error ? error : undefined
  const err = new Error(redactToken(source ? source.message : String(error), token))
  err.name = source?.name ?? "Error"
  const fields: Record<string, unknown> = {}
  for (const field of diagnosticFields) {
    const value = (source as Record<string, unknown> | undefined)?.[field]
    if (typeof value === "string") fields[field] = redactToken(value, token)
    else if (typeof value === "number") fields[field] = value
  }
  return { ...fields, err }
}

/**
 * Sends the link; on failure removes the stored token (`hashedToken`) and throws `EmailSignInError`.
 */
export async function sendLink(ctx: RequestContext, provider: EmailProvider, params: SendVerificationRequestParams, hashedToken: string): Promise<void> {
  try {
    await provider.config.sendVerificationRequest(params)
  } catch (error) {
    try {
      await provider.adapter.useVerificationToken({ identifier: params.identifier, token: hashedToken })
    } catch (cleanup) {
      ctx.config.logger.error(
        new EmailSignInError("The unsent sign-in link's token could not be removed.", { cause: loggableCause(cleanup, params.token) }),
      )
    }
    throw new EmailSignInError(`The email provider "${provider.id}" could not send the sign-in link.`, {
      cause: loggableCause(error, params.token),
    })
  }
}
