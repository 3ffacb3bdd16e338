/**
 * The SMTP email provider, on `nodemailer` (an optional peer dependency: install it next to
 * `@sesame/core`). Node.js only; nodemailer is imported when the first link is sent, so importing
 * this module, or `@sesame/core` itself, loads nothing of it on an edge runtime.
 *
 * @example
 * ```ts
 * import Nodemailer from "@sesame/core/providers/nodemailer"
 *
 * Nodemailer({
 *   server: "smtps://user:password@smtp.example.com:465", // or { host, port, secure, auth }
 *   from: "Example <no-reply@example.com>",
 * })
 * ```
 *
 * @module
 */
import type { EmailConfig, SendVerificationRequestParams } from "../email/types.js"

/** SMTP transport options, as nodemailer's `createTransport` takes them (`host`, `port`, `secure`, `auth`, …). */
export interface SmtpServerOptions {
  host?: string
  port?: number
  /** TLS from the start (port 465); otherwise STARTTLS is used when the server offers it. */
  secure?: boolean
  auth?: { user?: string; pass?: string; [option: string]: unknown }
  [option: string]: unknown
}

/** Options of `Nodemailer()`: `server` is required; `id` defaults to `nodemailer`. */
export interface NodemailerOptions extends Partial<Omit<EmailConfig, "type" | "from">> {
  /** The SMTP server: a URL (`smtp://…`, `smtps://user:pass@host:465`) or transport options. */
  server: string | SmtpServerOptions
  /** The sender. Default `no-reply@<the app's host name>`. */
  from?: string
}

/** The provider `Nodemailer()` returns: an email provider that also carries its `server`. */
export interface NodemailerConfig extends EmailConfig {
  /** The SMTP server, for a custom `sendVerificationRequest` that makes its own transport. */
  server: string | SmtpServerOptions
}

/** The part of a nodemailer transporter used here. */
interface Transporter {
  sendMail(mail: { to: string; from: string; subject: string; text: string; html: string }): Promise<{ rejected?: unknown[]; pending?: unknown[] }>
}

/** One email as the built-in messages are: a recipient, a subject, and plain-text and HTML parts. */
export interface SmtpMessage {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * A function that sends a message through `server`, from `from`, with one transporter made on
 * first use (nodemailer is only loaded then). It throws when the server refuses the recipient.
 */
function smtpTransport(server: string | SmtpServerOptions, caller: string): (message: SmtpMessage & { from: string }) => Promise<void> {
  if (typeof server !== "string" && (typeof server !== "object" || server === null)) {
    throw new TypeError(`${caller}: \`server\` must be an SMTP URL or nodemailer transport options.`)
  }
  let transporter: Promise<Transporter> | undefined
  const transport = () =>
    (transporter ??= import("nodemailer").then(({ createTransport }) => createTransport(server as Parameters<typeof createTransport>[0]))).catch(
      (error: unknown) => {
        transporter = undefined
        throw error
      },
    )
  return async (mail) => {
    const result = await (await transport()).sendMail(mail)
    const failed = (result.rejected?.length ?? 0) + (result.pending?.length ?? 0)
    if (failed > 0) throw new Error("The SMTP server did not accept the recipient.")
  }
}

/**
 * The `sendEmail` of the password provider over SMTP: sends each built-in message as it is.
 *
 * @example
 * ```ts
 * Password({ sendEmail: smtpSender({ server: "smtps://user:password@smtp.example.com:465", from: "Example <no-reply@example.com>" }) })
 * ```
 */
export function smtpSender(options: { server: string | SmtpServerOptions; from?: string }): (params: { to: string; url: string; message: Omit<SmtpMessage, "to"> }) => Promise<void> {
  const send = smtpTransport(options?.server, "smtpSender({ server })")
  return ({ to, url, message }) => send({ to, from: options.from ?? `no-reply@${new URL(url).hostname}`, ...message })
}

/** An email provider that sends its links over SMTP with nodemailer. */
export default function Nodemailer(options: NodemailerOptions): NodemailerConfig {
  // One transporter per provider, made on first use: nodemailer is only loaded when a link is sent.
  const send = smtpTransport(options.server, "Nodemailer({ server })")

  async function sendVerificationRequest({ identifier, url, message, provider }: SendVerificationRequestParams): Promise<void> {
    await send({ to: identifier, from: provider.from ?? `no-reply@${new URL(url).hostname}`, ...message })
  }

  return { id: "nodemailer", name: "Email", ...options, sendVerificationRequest: options.sendVerificationRequest ?? sendVerificationRequest, type: "email" }
}
