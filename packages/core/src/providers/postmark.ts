/**
 * Sign in with a link sent by [Postmark](https://postmarkapp.com) (HTTP API).
 *
 * @remarks
 * - `POST https://api.postmarkapp.com/email` with the server token in `X-Postmark-Server-Token`
 *   and a JSON body with capitalised fields (`From`, `To`, `Subject`, `HtmlBody`, `TextBody`,
 *   `MessageStream`).
 * - Sign-in links are transactional mail: they go to the `outbound` message stream unless
 *   `messageStream` says otherwise.
 *
 * @example
 * ```ts
 * import Postmark from "@sesame/core/providers/postmark"
 * // AUTH_POSTMARK_KEY (a server API token)
 * const providers = [Postmark({ from: "Acme <sign-in@acme.example>" })]
 * ```
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../email/types.js"
import { credentialsOf, deliver, emailService, type EmailServiceOptions } from "./lib/email.js"

export interface PostmarkOptions extends EmailServiceOptions {
  /** Default `outbound`. */
  messageStream?: string
}

/** The Postmark email provider; the server token from `apiKey` or `AUTH_POSTMARK_KEY`. */
export default function Postmark(options: PostmarkOptions = {}): EmailConfig {
  const { messageStream = "outbound", ...rest } = options
  async function send(params: SendVerificationRequestParams, baseUrl: string): Promise<void> {
    const { from, apiKey } = credentialsOf("Postmark", params)
    const { subject, html, text } = params.message
    await deliver("Postmark", `${baseUrl}/email`, {
      method: "POST",
      headers: { "x-postmark-server-token": apiKey, accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ From: from, To: params.identifier, Subject: subject, HtmlBody: html, TextBody: text, MessageStream: messageStream }),
    })
  }
  return emailService({ id: "postmark", name: "Postmark", baseUrl: "https://api.postmarkapp.com", send }, rest)
}
