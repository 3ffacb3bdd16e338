/**
 * A SAML connection's settings: the identity provider's entity ID, sign-in URL and signing
 * certificates, from its metadata XML or given one by one, and this service provider's side of
 * the connection (its entity ID and assertion consumer service URL, one pair per connection, as
 * IdPs' admin consoles ask for them).
 *
 * Whether a connection signs its AuthnRequests is its own setting (`signRequests`); the key it
 * signs with is the app's (`SsoOptions.serviceProvider`), one for every connection, never stored.
 *
 * The IdP's sign-in URL is only where the browser is sent, so no server request goes there; the
 * metadata is taken as XML, never fetched from a URL an admin types (which would be a way into
 * the app's network).
 *
 * @module
 */
import { createHash, X509Certificate } from "node:crypto"
import { SsoError } from "./errors.js"
import { parseIdpMetadata } from "./saml/metadata.js"
import { SamlMetadataError } from "./saml/errors.js"

/** A SAML connection's settings, as stored. */
export interface SamlSettings {
  idpEntityId: string
  /** The IdP's SingleSignOnService for the HTTP-Redirect binding. */
  ssoUrl: string
  /** The IdP's signing certificates, PEM: any of them may sign (for key rollover). */
  certificates: string[]
  /** Accept sign-ins started at the IdP (its portal). Off by default: nothing ties such a response to the browser it reaches. */
  allowIdpInitiated: boolean
  /**
   * Sign the AuthnRequests with the app's service provider key. Default: what the IdP's metadata
   * asks (`WantAuthnRequestsSigned`) when the app has a key. Missing in connections stored before
   * it existed, which read as false.
   */
  signRequests?: boolean
}

/** Whether the connection's AuthnRequests are signed: it says so, and the app has a service provider key to sign with. */
export function effectiveSignRequests(settings: SamlSettings, hasKey: boolean): boolean {
  return settings.signRequests === true && hasKey
}

/** A certificate as the admins see it. */
export interface CertificateInfo {
  /** SHA-256 of the DER, hex with colons, as IdP consoles show it. */
  fingerprint: string
  subject: string
  notAfter: string
}

/** This service provider's side of a SAML connection, where the IdP is told to send its answers. */
export function serviceProviderOf(authUrl: string, connectionId: string): { spEntityId: string; acsUrl: string; metadataUrl: string } {
  const metadataUrl = `${authUrl}/sso/saml/metadata?connection=${encodeURIComponent(connectionId)}`
  return { spEntityId: metadataUrl, acsUrl: `${authUrl}/sso/saml/acs?connection=${encodeURIComponent(connectionId)}`, metadataUrl }
}

function pem(value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`
}

/** `value` as PEM certificates: each must parse as X.509. */
function certificatesOf(value: unknown): string[] {
  const list = typeof value === "string" ? [value] : value
  if (!Array.isArray(list) || list.length === 0 || list.length > 5) throw new SsoError("InvalidInput", "`certificates` must list 1 to 5 signing certificates (PEM).")
  return list.map((item) => {
    if (typeof item !== "string" || item.length > 16384) throw new SsoError("InvalidInput", "`certificates` must list certificates in PEM.")
    try {
      const text = pem(item)
      new X509Certificate(text)
      return text
    } catch {
      throw new SsoError("InvalidInput", "A certificate in `certificates` is not an X.509 certificate.")
    }
  })
}

export function certificateInfo(text: string): CertificateInfo {
  const certificate = new X509Certificate(text)
  const fingerprint = createHash("sha256").update(certificate.raw).digest("hex").toUpperCase().match(/../g)!.join(":")
  return { fingerprint, subject: certificate.subject, notAfter: new Date(certificate.validTo).toISOString() }
}

function urlOf(value: unknown, allowLoopbackHttp: boolean): string {
  let url: URL
  try {
    if (typeof value !== "string" || value.length > 2048) throw new Error()
    url = new URL(value)
  } catch {
    throw new SsoError("InvalidInput", "`ssoUrl` must be a URL.")
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]"
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback && allowLoopbackHttp)) throw new SsoError("InvalidInput", "`ssoUrl` must be an https URL.")
  if (url.username || url.password || url.hash) throw new SsoError("InvalidInput", "`ssoUrl` must not carry credentials or a fragment.")
  return url.href
}

/** A form's or JSON's true/false (`"true"`, `"false"` as a form posts them); anything else is `InvalidInput`. */
export function booleanOf(value: unknown, field: string): boolean {
  if (value === true || value === "true") return true
  if (value === false || value === "false") return false
  throw new SsoError("InvalidInput", `\`${field}\` must be true or false.`)
}

/**
 * The settings from `input`: `metadata` (the IdP's metadata XML), or `idpEntityId`, `ssoUrl` and
 * `certificates`; what `input` leaves out stays as in `previous`.
 *
 * `signRequests` is refused when the app has no service provider key (`hasKey`); left out, it
 * stays as it was, or turns on when new metadata asks for signed requests and the app has a key
 * (metadata never turns it off: an admin's choice stands).
 */
export function samlSettings(input: Record<string, unknown>, previous: SamlSettings | undefined, allowLoopbackHttp: boolean, hasKey: boolean): SamlSettings {
  let fromMetadata: Partial<SamlSettings> = {}
  let metadataWantsSigned = false
  if (input.metadata !== undefined) {
    if (typeof input.metadata !== "string" || input.metadata.length > 512 * 1024) throw new SsoError("InvalidInput", "`metadata` must be the IdP's metadata XML.")
    try {
      const parsed = parseIdpMetadata(input.metadata)
      fromMetadata = { idpEntityId: parsed.entityId, ssoUrl: parsed.ssoUrl, certificates: parsed.certificates }
      metadataWantsSigned = parsed.wantAuthnRequestsSigned
    } catch (error) {
      if (error instanceof SamlMetadataError) throw new SsoError("InvalidInput", error.message)
      throw error
    }
  }
  const pick = <K extends keyof SamlSettings>(key: K): unknown => input[key] ?? fromMetadata[key] ?? previous?.[key]
  const idpEntityId = pick("idpEntityId")
  if (typeof idpEntityId !== "string" || idpEntityId.trim() === "" || idpEntityId.length > 1024) throw new SsoError("InvalidInput", "`idpEntityId` (or `metadata`) is required.")
  const allowIdpInitiated = booleanOf(input.allowIdpInitiated ?? previous?.allowIdpInitiated ?? false, "allowIdpInitiated")
  // Kept even while the app has no key (a key taken out of the configuration and put back): it
  // only signs while there is one (`effectiveSignRequests`).
  let signRequests = previous?.signRequests === true || (metadataWantsSigned && hasKey)
  if (input.signRequests !== undefined) {
    signRequests = booleanOf(input.signRequests, "signRequests")
    if (signRequests && !hasKey) {
      throw new SsoError("InvalidInput", "`signRequests` needs the app's service provider key: the SSO module's `serviceProvider` option (a private key and its certificate) is not set.")
    }
  }
  return {
    idpEntityId: idpEntityId.trim(),
    ssoUrl: urlOf(pick("ssoUrl"), allowLoopbackHttp),
    certificates: certificatesOf(pick("certificates")),
    allowIdpInitiated,
    signRequests,
  }
}
