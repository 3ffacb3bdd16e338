/**
 * The passkey provider: WebAuthn with discoverable credentials and user verification required,
 * so a user signs in with nothing but their device's unlock (fingerprint, face, PIN), and passkeys
 * show up in the email field's autofill.
 *
 * Needs `experimental: { enableWebAuthn: true }`, an adapter with the authenticator methods, and the
 * `@simplewebauthn/server` package (an optional peer dependency, loaded on the first passkey request).
 *
 * @example
 * ```ts
 * import Passkey from "@sesame/core/providers/passkey"
 *
 * const config = {
 *   adapter: SQLiteAdapter("auth.db"),
 *   providers: [Passkey()],
 *   experimental: { enableWebAuthn: true },
 * }
 * ```
 *
 * @module
 */
import type { WebAuthnConfig } from "../webauthn/types.js"

export type { PasskeyInfo, RelyingParty, WebAuthnConfig } from "../webauthn/types.js"

/** Options of `Passkey()`: any `WebAuthnConfig` field; `id` defaults to `passkey`. */
export type PasskeyOptions = Partial<Omit<WebAuthnConfig, "type">>

export default function Passkey(options: PasskeyOptions = {}): WebAuthnConfig {
  return {
    id: "passkey",
    name: "Passkey",
    userVerification: "required",
    residentKey: "required",
    ...options,
    type: "webauthn",
  }
}
