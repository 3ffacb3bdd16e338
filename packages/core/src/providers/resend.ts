/**
 * Sign in with a link sent by [Resend](https://resend.com) (HTTP API).
 *
 * @remarks
 * - `POST https://api.resend.com/emails` with `Authorization: Bearer <API key>` and a JSON body
 *   (`from`, `to`, `subject`, `html`, `text`).
 * - The `from` domain must be verified in Resend.
 *
 * @example
 * ```ts
 * import Resend from "@sesame/core/providers/resend"
 * // AUTH_RESEND_KEY
 * const providers = [Resend({ from: "Acme <sign-in@acme.example>" })]
 * ```
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../email/types.js"
import { credentialsOf, deliver, emailService, type EmailServiceOptions } from "./lib/email.js"

async function send(params: SendVerificationRequestParams, baseUrl: string): Promise<void> {
  const { from, apiKey } = credentialsOf("Resend", params)
  const { subject, html, text } = params.message
  await deliver("Resend", `${baseUrl}/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ from, to: [params.identifier], subject, html, text }),
  })
}

/** The Resend email provider; the API key from `apiKey` or `AUTH_RESEND_KEY`. */
export default function Resend(options?: EmailServiceOptions): EmailConfig {
  return emailService({ id: "resend", name: "Resend", baseUrl: "https://api.resend.com", send }, options)
}
