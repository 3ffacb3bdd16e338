/**
 * SAML metadata: reading an identity provider's (what an admin pastes or uploads when setting up a
 * connection) and writing this service provider's for one connection (what the admin gives their
 * IdP).
 *
 * An IdP may list several signing certificates: during a key rollover it publishes the next one
 * beside the current one, so every one of them is kept and any may sign. A KeyDescriptor without
 * `use` serves both signing and encryption, so it counts as signing too.
 *
 * XML is read here through {@link parseXml} (xml.ts), which service-provider.ts uses as well: it
 * refuses any DOCTYPE or entity declaration before parsing.
 *
 * @module
 */
import { X509Certificate } from "node:crypto"
import { generateServiceProviderMetadata } from "@node-saml/node-saml"
import { XMLSerializer } from "@xmldom/xmldom"
import { SamlMetadataError } from "./errors.js"
import type { SamlConnectionSettings } from "./settings.js"
import { children, isElement, ns, parseXml } from "./xml.js"

/** The NameID format a connection asks for and announces: the user's email address. */
export const emailAddressFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
const postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"

/** What a connection needs from an identity provider's metadata. */
export interface IdpMetadata {
  entityId: string
  /** The SingleSignOnService location for the HTTP-Redirect binding, where `authnRequest` sends the browser. */
  ssoUrl: string
  /** The SingleSignOnService location for the HTTP-POST binding, when listed. */
  ssoPostUrl?: string
  /** The SingleLogoutService location for the HTTP-Redirect binding, when listed. */
  sloUrl?: string
  /** Every signing certificate, in PEM: any of them may sign (key rollover). At least one. */
  certificates: string[]
  /** Whether the IdP asks for signed AuthnRequests (`WantAuthnRequestsSigned`): set `signRequests` then. */
  wantAuthnRequestsSigned: boolean
}

/**
 * Reads an identity provider's SAML 2.0 metadata: an EntityDescriptor, or an EntitiesDescriptor
 * (federation metadata) holding one IdP or, with `options.entityId`, the IdP to pick.
 *
 * @throws {@link SamlMetadataError} when the metadata is refused or lacks what a connection needs.
 */
export function parseIdpMetadata(xml: string, options: { entityId?: string } = {}): IdpMetadata {
  const root = parseXml(xml, (reason) => new SamlMetadataError("malformed", `The IdP metadata was refused: ${reason}.`)).documentElement
  let entities: Element[]
  if (isElement(root, ns.metadata, "EntityDescriptor")) entities = [root]
  else if (isElement(root, ns.metadata, "EntitiesDescriptor")) entities = Array.from(root.getElementsByTagNameNS(ns.metadata, "EntityDescriptor"))
  else throw new SamlMetadataError("malformed", "The XML is not SAML metadata: its root is neither an EntityDescriptor nor an EntitiesDescriptor.")

  const idps = entities
    .map((entity) => ({ entityId: entity.getAttribute("entityID") ?? "", descriptor: children(entity, ns.metadata, "IDPSSODescriptor").find(supportsSaml2) }))
    .filter((idp): idp is { entityId: string; descriptor: Element } => idp.descriptor !== undefined)
    .filter((idp) => options.entityId === undefined || idp.entityId === options.entityId)
  const [idp, ...others] = idps
  if (!idp) {
    const which = options.entityId === undefined ? "" : ` with entityID ${options.entityId}`
    throw new SamlMetadataError("no-idp", `The metadata describes no SAML 2.0 identity provider${which} (IDPSSODescriptor).`)
  }
  if (others.length > 0) {
    throw new SamlMetadataError("ambiguous", `The metadata describes ${idps.length} identity providers: say which one with entityId.`)
  }
  if (!idp.entityId) throw new SamlMetadataError("malformed", "The identity provider's EntityDescriptor has no entityID.")

  const ssoUrl = location(idp.descriptor, "SingleSignOnService", redirectBinding)
  if (ssoUrl === undefined) throw new SamlMetadataError("no-sso-service", "The identity provider has no SingleSignOnService with the HTTP-Redirect binding.")
  const certificates = signingCertificates(idp.descriptor)
  if (certificates.length === 0) throw new SamlMetadataError("no-certificate", "The identity provider lists no signing certificate (KeyDescriptor use=\"signing\" or without use).")
  const ssoPostUrl = location(idp.descriptor, "SingleSignOnService", postBinding)
  const sloUrl = location(idp.descriptor, "SingleLogoutService", redirectBinding)
  return {
    entityId: idp.entityId,
    ssoUrl,
    ...(ssoPostUrl === undefined ? {} : { ssoPostUrl }),
    ...(sloUrl === undefined ? {} : { sloUrl }),
    certificates,
    wantAuthnRequestsSigned: idp.descriptor.getAttribute("WantAuthnRequestsSigned") === "true",
  }
}

function supportsSaml2(descriptor: Element): boolean {
  return (descriptor.getAttribute("protocolSupportEnumeration") ?? "").split(/\s+/).includes(ns.protocol)
}

/** The Location of the first `service` element with `binding`, checked to be an http(s) URL. */
function location(descriptor: Element, service: string, binding: string): string | undefined {
  const endpoint = children(descriptor, ns.metadata, service).find((element) => element.getAttribute("Binding") === binding)
  if (!endpoint) return undefined
  const value = endpoint.getAttribute("Location") ?? ""
  if (!URL.canParse(value) || !["http:", "https:"].includes(new URL(value).protocol)) {
    throw new SamlMetadataError("malformed", `The ${service} location for ${binding} is not an http(s) URL.`)
  }
  return value
}

/** The certificates of the signing KeyDescriptors, in PEM, without duplicates. */
function signingCertificates(descriptor: Element): string[] {
  const pems = children(descriptor, ns.metadata, "KeyDescriptor")
    .filter((key) => (key.getAttribute("use") || "signing") === "signing")
    .flatMap((key) => children(key, ns.dsig, "KeyInfo"))
    .flatMap((info) => children(info, ns.dsig, "X509Data"))
    .flatMap((data) => children(data, ns.dsig, "X509Certificate"))
    .map((certificate) => toPem(certificate.textContent ?? ""))
  return [...new Set(pems)]
}

function toPem(base64: string): string {
  const der = base64.replace(/\s+/g, "")
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(der)) throw new Error("not base64")
    return new X509Certificate(Buffer.from(der, "base64")).toString()
  } catch {
    throw new SamlMetadataError("bad-certificate", "An X509Certificate in the IdP metadata is not a valid certificate.")
  }
}

/**
 * This service provider's metadata for one connection, to give the IdP: the entity ID, the
 * assertion consumer service (HTTP-POST binding) at `acsUrl`, `WantAssertionsSigned="true"`, the
 * emailAddress NameID format and:
 * - with `signRequests`, `AuthnRequestsSigned="true"` and its certificate as a signing KeyDescriptor;
 * - with `decryption`, its certificate as an encryption KeyDescriptor (with the algorithms
 *   xml-encryption decrypts, AES-GCM first) and, when requests are not signed, as a signing one
 *   too: a service provider has one key pair, and an IdP that knows it already needs no new
 *   metadata when the connection starts signing its requests.
 */
export function serviceProviderMetadata(connection: Pick<SamlConnectionSettings, "spEntityId" | "acsUrl" | "signRequests" | "decryption">): string {
  const { signRequests, decryption } = connection
  const signing = signRequests ?? decryption
  const xml = generateServiceProviderMetadata({
    issuer: connection.spEntityId,
    callbackUrl: connection.acsUrl,
    identifierFormat: emailAddressFormat,
    wantAssertionsSigned: true,
    // node-saml only checks that a private key is there, to announce signed requests and the certificate.
    ...(signing ? { privateKey: signing.privateKey, publicCerts: [signing.certificate] } : {}),
    ...(decryption ? { decryptionPvk: decryption.privateKey, decryptionCert: decryption.certificate } : {}),
  })
  if (signRequests || !signing) return xml
  // node-saml says AuthnRequestsSigned="true" whenever it announces a signing certificate.
  const doc = parseXml(xml, (reason) => new Error(`node-saml wrote metadata that cannot be read: ${reason}`))
  for (const descriptor of children(doc.documentElement, ns.metadata, "SPSSODescriptor")) descriptor.setAttribute("AuthnRequestsSigned", "false")
  return new XMLSerializer().serializeToString(doc)
}
