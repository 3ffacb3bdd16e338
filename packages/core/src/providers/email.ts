/**
 * The generic email provider: sign-in links sent by your own code (an HTTP email API, a queue, …).
 *
 * `sendVerificationRequest` receives the address, the link and the built-in message (subject,
 * text and HTML in the visitor's language, themed), and throws when sending fails.
 *
 * @example
 * ```ts
 * import Email from "@sesame/core/providers/email"
 *
 * Email({
 *   async sendVerificationRequest({ identifier, message }) {
 *     const res = await fetch("https://api.mail.example/send", {
 *       method: "POST",
 *       headers: { authorization: `Bearer ${process.env.AUTH_EMAIL_KEY}`, "content-type": "application/json" },
 *       body: JSON.stringify({ to: identifier, from: "no-reply@example.com", ...message }),
 *     })
 *     if (!res.ok) throw new Error(`The mail API answered ${res.status}.`)
 *   },
 * })
 * ```
 *
 * @module
 */
import type { EmailConfig } from "../email/types.js"

export { normalizeEmail } from "../email/normalize.js"
export { memoryRateLimitStore, type MemoryRateLimitStoreOptions } from "../email/rate-limit.js"
export type {
  EmailConfig,
  EmailRateLimitOptions,
  RateLimitStore,
  SendVerificationRequestParams,
  VerificationEmail,
} from "../email/types.js"

/** Options of `Email()`: `sendVerificationRequest` is required; `id` defaults to `email`. */
export type EmailOptions = Partial<Omit<EmailConfig, "type" | "sendVerificationRequest">> & Pick<EmailConfig, "sendVerificationRequest">

/** An email provider that sends its links with `sendVerificationRequest`. */
export default function Email(options: EmailOptions): EmailConfig {
  return { id: "email", name: "Email", ...options, type: "email" }
}
