/**
 * What the HTTP email services share: the sign-in mail (subject, text and HTML, in one place so
 * that every service sends the same words, and the translator of the built-in pages can take them
 * over), and the call to the service, whose failure names the service and the HTTP status but
 * never the API key, the address or the link.
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../../email/types.js"
import type { Theme } from "../../types.js"

/** Options of a built-in email service provider. */
export interface EmailServiceOptions extends Partial<Omit<EmailConfig, "type">> {
  /** The service's API base URL, for a regional endpoint or a test server. */
  baseUrl?: string
}

/** The sign-in mail. */
export interface VerificationMessage {
  subject: string
  text: string
  html: string
}

/** The sign-in mail's words; the one place they are written. */
const english = {
  subject: (host: string) => `Sign in to ${host}`,
  button: "Sign in",
  ignore: "If you did not request this email you can safely ignore it.",
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A colour the mail can use: `#rgb` or `#rrggbb`, else the default blue. */
function buttonColour(theme: Theme | undefined): string {
  return theme?.brandColor && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(theme.brandColor) ? theme.brandColor : "#346df1"
}

/** The mail that carries the sign-in link `url`. */
export function verificationMessage({ url, theme }: { url: string; theme?: Theme }): VerificationMessage {
  const host = new URL(url).host
  const subject = english.subject(host)
  const colour = buttonColour(theme)
  const html = `<body style="background:#f9f9f9;margin:0;padding:24px 0">
<table width="100%" border="0" cellspacing="0" cellpadding="0" style="max-width:600px;margin:auto;background:#ffffff;border-radius:10px">
<tr><td align="center" style="padding:24px 0 8px;font:20px Helvetica,Arial,sans-serif;color:#444444">${escapeHtml(subject)}</td></tr>
<tr><td align="center" style="padding:16px 0"><a href="${escapeHtml(url)}" target="_blank" style="font:bold 18px Helvetica,Arial,sans-serif;color:#ffffff;background:${colour};text-decoration:none;border-radius:5px;padding:10px 20px;display:inline-block">${escapeHtml(english.button)}</a></td></tr>
<tr><td align="center" style="padding:0 16px 24px;font:14px Helvetica,Arial,sans-serif;color:#666666">${escapeHtml(english.ignore)}</td></tr>
</table>
</body>`
  return { subject, text: `${subject}\n${url}\n\n${english.ignore}\n`, html }
}

/** A refused or failed delivery. The message names the service and the status only. */
export class EmailDeliveryError extends Error {
  override name = "EmailDeliveryError"
  constructor(
    readonly service: string,
    readonly status: number | undefined,
  ) {
    super(status === undefined ? `${service} could not be reached to send the sign-in email.` : `${service} refused the sign-in email with HTTP status ${status}.`)
  }
}

/** The `from` and `apiKey` the provider needs, or a clear error naming what is missing. */
export function credentialsOf(service: string, params: SendVerificationRequestParams): { from: string; apiKey: string } {
  const { from, apiKey, id } = params.provider
  if (!apiKey) throw new Error(`${service}: the email provider "${id}" has no API key; set \`apiKey\` or AUTH_<ID>_KEY.`)
  if (!from) throw new Error(`${service}: the email provider "${id}" has no \`from\` address.`)
  return { from, apiKey }
}

/** Sends one request to the service; resolves on a 2xx answer, else throws `EmailDeliveryError`. */
export async function deliver(service: string, url: string, init: RequestInit): Promise<void> {
  let response: Response
  try {
    response = await fetch(url, { ...init, redirect: "manual" })
  } catch {
    throw new EmailDeliveryError(service, undefined)
  }
  // The body is read and dropped: it may echo the address, and the connection is freed either way.
  await response.arrayBuffer().catch(() => undefined)
  if (response.status < 200 || response.status > 299) throw new EmailDeliveryError(service, response.status)
}

/** `Name <address>` or `address`, split. */
export function parseAddress(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (!match) return { email: from.trim() }
  const name = match[1]!.replace(/^"|"$/g, "")
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() }
}

/** The defaults of an email service provider, with `options` applied. */
export function emailService(
  defaults: { id: string; name: string; send: (params: SendVerificationRequestParams, baseUrl: string) => Promise<void>; baseUrl: string },
  options: EmailServiceOptions = {},
): EmailConfig {
  const { baseUrl = defaults.baseUrl, ...rest } = options
  const base = baseUrl.replace(/\/+$/, "")
  return {
    id: defaults.id,
    name: defaults.name,
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: (params) => defaults.send(params, base),
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    type: "email",
  }
}
