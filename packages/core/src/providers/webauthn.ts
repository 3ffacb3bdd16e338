/**
 * The general WebAuthn provider: security keys as well as passkeys. User verification and
 * discoverable credentials are `preferred` rather than required, so a key without a PIN or
 * without room for resident credentials works too (it then needs the email to be found).
 * For passkeys, use `@sesame/core/providers/passkey`.
 *
 * Needs `experimental: { enableWebAuthn: true }`, an adapter with the authenticator methods, and the
 * `@simplewebauthn/server` package (an optional peer dependency, loaded on the first WebAuthn request).
 *
 * @example
 * ```ts
 * import WebAuthn from "@sesame/core/providers/webauthn"
 *
 * WebAuthn({ relayingParty: { id: "example.com", name: "Example", origin: "https://login.example.com" } })
 * ```
 *
 * @module
 */
import type { WebAuthnConfig } from "../webauthn/types.js"

export type { RelyingParty, WebAuthnConfig } from "../webauthn/types.js"

/** Options of `WebAuthn()`: any `WebAuthnConfig` field; `id` defaults to `webauthn`. */
export type WebAuthnOptions = Partial<Omit<WebAuthnConfig, "type">>

export default function WebAuthn(options: WebAuthnOptions = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    userVerification: "preferred",
    residentKey: "preferred",
    ...options,
    type: "webauthn",
  }
}
