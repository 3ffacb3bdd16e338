/**
 * Email-and-password accounts that Sesame keeps: sign-up, address confirmation, sign-in with
 * throttling, a forgotten password, and (as server functions) changing or setting a password.
 * Needs an adapter with the password and counter methods (every adapter Sesame ships has them)
 * and the optional peer dependency `@node-rs/argon2` for the default hasher.
 *
 * @example
 * ```ts
 * import Password from "@sesame/core/providers/password"
 * import { smtpSender } from "@sesame/core/providers/nodemailer"
 *
 * Auth({
 *   adapter,
 *   providers: [Password({ sendEmail: smtpSender({ server: process.env.SMTP_URL!, from: "Example <no-reply@example.com>" }) })],
 * })
 * ```
 *
 * @module
 */
import type { PasswordConfig } from "../password/types.js"

export type { PasswordConfig, PasswordEmailKind, PasswordEmailParams } from "../password/types.js"

/** Options of `Password()`: `sendEmail` is required; `id` defaults to `password`, `name` to `Password`. */
export type PasswordOptions = Partial<Omit<PasswordConfig, "type" | "sendEmail">> & Pick<PasswordConfig, "sendEmail">

/** The password provider. */
export default function Password(options: PasswordOptions): PasswordConfig {
  return { id: "password", name: "Password", ...options, type: "password" }
}
