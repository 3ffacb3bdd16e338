/**
 * What the HTTP email services share: the call to the service, whose failure names the service and
 * the HTTP status but never the API key, the address or the link. The mail itself is the built-in
 * one (`params.message`: localised, themed, escaped), the same every sender gets.
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../../email/types.js"

/** Options of a built-in email service provider. */
export interface EmailServiceOptions extends Partial<Omit<EmailConfig, "type">> {
  /** The service's API base URL, for a regional endpoint or a test server. */
  baseUrl?: string
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
