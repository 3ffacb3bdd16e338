/**
 * Sign in with a link sent by [Mailgun](https://www.mailgun.com) (Messages API).
 *
 * @remarks
 * - `POST https://api.mailgun.net/v3/<domain>/messages` with HTTP Basic authentication (user `api`,
 *   password the API key) and a form body (`from`, `to`, `subject`, `text`, `html`).
 * - The sending domain is `domain`, else the domain of the `from` address.
 * - Domains in the EU region need `region: "eu"` (`api.eu.mailgun.net`).
 *
 * @example
 * ```ts
 * import Mailgun from "@sesame/core/providers/mailgun"
 * // AUTH_MAILGUN_KEY
 * const providers = [Mailgun({ from: "Acme <sign-in@mg.acme.example>" })]
 * ```
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../email/types.js"
import { credentialsOf, deliver, emailService, parseAddress, type EmailServiceOptions } from "./lib/email.js"

export interface MailgunOptions extends EmailServiceOptions {
  /** The sending domain. Default: the domain of `from`. */
  domain?: string
  /** Default `us`. */
  region?: "us" | "eu"
}

/** The Mailgun email provider; the API key from `apiKey` or `AUTH_MAILGUN_KEY`. */
export default function Mailgun(options: MailgunOptions = {}): EmailConfig {
  const { domain, region = "us", ...rest } = options
  async function send(params: SendVerificationRequestParams, baseUrl: string): Promise<void> {
    const { from, apiKey } = credentialsOf("Mailgun", params)
    const sendingDomain = domain ?? parseAddress(from).email.split("@")[1]
    if (!sendingDomain) throw new Error(`Mailgun: the email provider "${params.provider.id}" needs \`domain\`, or a \`from\` address with a domain.`)
    const { subject, html, text } = params.message
    await deliver("Mailgun", `${baseUrl}/v3/${encodeURIComponent(sendingDomain)}/messages`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`api:${apiKey}`)}` },
      body: new URLSearchParams({ from, to: params.identifier, subject, text, html }),
    })
  }
  const baseUrl = region === "eu" ? "https://api.eu.mailgun.net" : "https://api.mailgun.net"
  return emailService({ id: "mailgun", name: "Mailgun", baseUrl, send }, rest)
}
