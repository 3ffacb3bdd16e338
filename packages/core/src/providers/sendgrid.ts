/**
 * Sign in with a link sent by [SendGrid](https://sendgrid.com) (Twilio SendGrid v3 Mail Send API).
 *
 * @remarks
 * - `POST https://api.sendgrid.com/v3/mail/send` with `Authorization: Bearer <API key>` and a JSON
 *   body: `personalizations[].to`, `from` as `{ email, name }`, `subject`, and `content` (plain text
 *   first, then HTML, as SendGrid requires). SendGrid answers `202 Accepted`.
 * - For the EU region, `baseUrl: "https://api.eu.sendgrid.com"`.
 *
 * @example
 * ```ts
 * import SendGrid from "@sesame/core/providers/sendgrid"
 * // AUTH_SENDGRID_KEY
 * const providers = [SendGrid({ from: "Acme <sign-in@acme.example>" })]
 * ```
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../email/types.js"
import { credentialsOf, deliver, emailService, parseAddress, type EmailServiceOptions } from "./lib/email.js"

async function send(params: SendVerificationRequestParams, baseUrl: string): Promise<void> {
  const { from, apiKey } = credentialsOf("SendGrid", params)
  const { subject, html, text } = params.message
  await deliver("SendGrid", `${baseUrl}/v3/mail/send`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: params.identifier }] }],
      from: parseAddress(from),
      subject,
      content: [
        { type: "text/plain", value: text },
        { type: "text/html", value: html },
      ],
    }),
  })
}

/** The SendGrid email provider; the API key from `apiKey` or `AUTH_SENDGRID_KEY`. */
export default function SendGrid(options?: EmailServiceOptions): EmailConfig {
  return emailService({ id: "sendgrid", name: "SendGrid", baseUrl: "https://api.sendgrid.com", send }, options)
}
