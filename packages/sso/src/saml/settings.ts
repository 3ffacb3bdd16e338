/**
 * One SAML connection's settings, as the service provider receives them on every call, and the
 * check that turns a missing or out-of-range one into a TypeError naming it (a caller's mistake,
 * not a refused response).
 *
 * @module
 */

/** One SAML connection: the identity provider's side (from its metadata) and this service provider's. */
export interface SamlConnectionSettings {
  /** The IdP's entity ID: assertions must be issued by it. */
  idpEntityId: string
  /** The IdP's SingleSignOnService for the HTTP-Redirect binding. */
  ssoUrl: string
  /** The IdP's signing certificates (PEM or bare base64); any of them may sign (key rollover). */
  certificates: string[]
  /** This service provider's entity ID for the connection: assertions must name it as their audience. */
  spEntityId: string
  /** This connection's assertion consumer service URL: responses must be addressed to it. */
  acsUrl: string
  /** Sign AuthnRequests (the IdP's `WantAuthnRequestsSigned`) with this key; the certificate goes into the SP metadata. */
  signRequests?: { privateKey: string; certificate: string }
  /**
   * Decrypt an EncryptedAssertion with this RSA key (the IdP encrypts to the certificate, which
   * the SP metadata announces with `use="encryption"`). Without it, an encrypted assertion is
   * refused (`encrypted`). The decrypted assertion must be signed, and is checked as a plain one.
   */
  decryption?: { privateKey: string; certificate: string }
  /**
   * Accept responses that answer no request (IdP-initiated sign-in, from the IdP's portal).
   * Default false: such a response can be pushed into any browser (login CSRF), since nothing
   * ties it to the one that receives it.
   */
  allowIdpInitiated?: boolean
  /** How far the IdP's clock may be off, in seconds: 0 to 300, default 60. */
  clockSkewSeconds?: number
}

export const defaultClockSkewSeconds = 60
const maxClockSkewSeconds = 300

/** Throws a TypeError naming the first setting that is missing or out of range. */
export function checkSettings(settings: SamlConnectionSettings): void {
  for (const name of ["idpEntityId", "spEntityId"] as const) {
    if (typeof settings[name] !== "string" || settings[name] === "") throw new TypeError(`SAML connection: ${name} is required`)
  }
  for (const name of ["ssoUrl", "acsUrl"] as const) {
    const value = settings[name]
    if (typeof value !== "string" || !URL.canParse(value) || !["http:", "https:"].includes(new URL(value).protocol)) {
      throw new TypeError(`SAML connection: ${name} must be an http(s) URL`)
    }
  }
  if (!Array.isArray(settings.certificates) || settings.certificates.length === 0) {
    throw new TypeError("SAML connection: certificates must list at least one IdP signing certificate")
  }
  const skew = settings.clockSkewSeconds
  if (skew !== undefined && !(Number.isFinite(skew) && skew >= 0 && skew <= maxClockSkewSeconds)) {
    throw new TypeError(`SAML connection: clockSkewSeconds must be between 0 and ${maxClockSkewSeconds}`)
  }
}
