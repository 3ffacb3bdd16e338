/**
 * Why SAML input was refused. A SAML Response comes from the browser, so anyone can send one:
 * {@link SamlError} says which check it failed with a stable `code`, and its message never quotes
 * the XML or a value taken from it, only what this side expected. IdP metadata comes from an admin
 * and fails with a {@link SamlMetadataError}.
 *
 * @module
 */

/** Why a SAML Response was refused. */
export type SamlErrorCode =
  /** Not a SAML Response we can read: bad base64 or XML, a DOCTYPE or entity, too large, a missing part. */
  | "malformed"
  /** The assertion is not signed by one of the connection's certificates, or unsigned content would be read. */
  | "signature"
  /** The assertion is addressed to another service provider (`Audience`). */
  | "audience"
  /** The response was sent to another endpoint (`Destination`, `Recipient`). */
  | "recipient"
  /** Past `NotOnOrAfter`, beyond the accepted clock skew. */
  | "expired"
  /** Before `NotBefore`, beyond the accepted clock skew. */
  | "not-yet-valid"
  /** It answers another request than the one this browser started. */
  | "in-response-to"
  /** It answers no request, and the connection does not allow IdP-initiated sign-in. */
  | "unsolicited"
  /** It was issued by another identity provider. */
  | "issuer"
  /** The identity provider reports a failure (a status other than Success). */
  | "status"
  /** The assertion was used already. */
  | "replay"
  /** The assertion is encrypted, and this service provider has no key to decrypt it. */
  | "encrypted"
  /** The encrypted assertion cannot be decrypted with this service provider's key (another key, a refused algorithm, not an assertion inside). */
  | "decryption"

/**
 * A SAML Response refused by `verifyResponse`. Nothing in it was trusted: the caller ends the
 * sign-in and may show or log `code`.
 *
 * @example
 * ```ts
 * try {
 *   assertion = await verifyResponse(settings, form, { requestId }, replay)
 * } catch (error) {
 *   if (error instanceof SamlError) return deny(error.code)
 *   throw error
 * }
 * ```
 */
export class SamlError extends Error {
  override readonly name = "SamlError"
  constructor(
    readonly code: SamlErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** Refuses the SAML Response being verified: throws a {@link SamlError} with `code`. */
export function fail(code: SamlErrorCode, message: string): never {
  throw new SamlError(code, message)
}

/** Why IdP metadata was refused. */
export type SamlMetadataErrorCode =
  /** Not well-formed XML, a DOCTYPE or entity, not SAML metadata, or a location that is not an http(s) URL. */
  | "malformed"
  /** No SAML 2.0 identity provider in it (or none with the `entityId` asked for). */
  | "no-idp"
  /** Several identity providers and no `entityId` to choose one. */
  | "ambiguous"
  /** No SingleSignOnService with the HTTP-Redirect binding. */
  | "no-sso-service"
  /** No signing certificate. */
  | "no-certificate"
  /** A certificate that is not a valid X.509 certificate. */
  | "bad-certificate"

/** IdP metadata that cannot configure a connection; the message says what is missing or wrong. */
export class SamlMetadataError extends Error {
  override readonly name = "SamlMetadataError"
  constructor(
    readonly code: SamlMetadataErrorCode,
    message: string,
  ) {
    super(message)
  }
}
