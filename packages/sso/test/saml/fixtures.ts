/**
 * A test identity provider in Node: RSA keys with self-signed certificates made by openssl at test
 * time, and SAML Responses shaped like SimpleSAMLphp's (namespaces declared on the Response,
 * rsa-sha256, exclusive canonicalization), signed with xml-crypto on the assertion, the Response,
 * both or neither, and the assertion encrypted to the service provider's certificate with
 * xml-encryption (the copy node-saml itself decrypts with). The options change one thing at a
 * time, for the attack tests.
 */
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { DOMParser, XMLSerializer } from "@xmldom/xmldom"
import { SignedXml } from "xml-crypto"
import { expect } from "vitest"
import { SamlError, type SamlErrorCode } from "../../src/saml/errors.js"
import type { SamlConnectionSettings } from "../../src/saml/service-provider.js"

/** A private key and its self-signed certificate, both PEM. */
export interface KeyPair {
  privateKey: string
  certificate: string
}

/** A fresh RSA-2048 key and a self-signed certificate valid two days (openssl, about 0.1 s). */
export async function keyPair(commonName = "test"): Promise<KeyPair> {
  const dir = await mkdtemp(join(tmpdir(), "sesame-saml-key-"))
  try {
    const keyFile = join(dir, "key.pem")
    const certFile = join(dir, "cert.pem")
    await promisify(execFile)("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-subj", `/CN=${commonName}`, "-days", "2", "-keyout", keyFile, "-out", certFile])
    return { privateKey: await readFile(keyFile, "utf8"), certificate: await readFile(certFile, "utf8") }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The connection the tests verify against, trusting `certificates`. */
export function connection(certificates: string[], overrides: Partial<SamlConnectionSettings> = {}): SamlConnectionSettings {
  return {
    idpEntityId: "https://idp.acme.test/metadata",
    ssoUrl: "https://idp.acme.test/sso",
    certificates,
    spEntityId: "http://localhost:3000/auth/sso/saml/acme/metadata",
    acsUrl: "http://localhost:3000/auth/sso/saml/acme/acs",
    ...overrides,
  }
}

/** What a test Response says; each field defaults to what {@link connection} accepts. */
export interface ResponseOptions {
  /** The request answered (Response and SubjectConfirmationData InResponseTo); null: IdP-initiated. */
  inResponseTo: string | null
  issuer?: string
  /** The assertion's Issuer, when it differs from the Response's. */
  assertionIssuer?: string
  nameId?: string
  audience?: string
  recipient?: string
  /** The Response's Destination; null leaves it out. */
  destination?: string | null
  /** The Conditions' window; default from a minute ago to five minutes on. */
  notBefore?: Date
  notOnOrAfter?: Date
  /** The SubjectConfirmationData's NotOnOrAfter; default five minutes on. */
  subjectNotOnOrAfter?: Date
  /** The top-level StatusCode; default Success. */
  status?: string
  /** Leave the assertion out (an error response). */
  withoutAssertion?: boolean
  attributes?: Record<string, string[]>
  assertionId?: string
}

const minute = 60_000
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z")
export const newId = () => `_${randomBytes(16).toString("hex")}`

/** An unsigned SAML Response for `settings`. */
export function responseXml(settings: SamlConnectionSettings, options: ResponseOptions): string {
  const now = Date.now()
  const issuer = escape(options.issuer ?? settings.idpEntityId)
  const destination = options.destination === undefined ? settings.acsUrl : options.destination
  const inResponseTo = options.inResponseTo === null ? "" : ` InResponseTo="${escape(options.inResponseTo)}"`
  const attributes = Object.entries(options.attributes ?? { email: [options.nameId ?? "ada@acme.test"], givenName: ["Ada"] })
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map((value) => `<saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue>`)
          .join("")}</saml:Attribute>`,
    )
    .join("")
  const assertion = `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${options.assertionId ?? newId()}" Version="2.0" IssueInstant="${instant(new Date(now))}">
<saml:Issuer>${escape(options.assertionIssuer ?? options.issuer ?? settings.idpEntityId)}</saml:Issuer>
<saml:Subject><saml:NameID SPNameQualifier="${escape(settings.spEntityId)}" Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(options.nameId ?? "ada@acme.test")}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${instant(options.subjectNotOnOrAfter ?? new Date(now + 5 * minute))}" Recipient="${escape(options.recipient ?? settings.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>
<saml:Conditions NotBefore="${instant(options.notBefore ?? new Date(now - minute))}" NotOnOrAfter="${instant(options.notOnOrAfter ?? new Date(now + 5 * minute))}"><saml:AudienceRestriction><saml:Audience>${escape(options.audience ?? settings.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>
<saml:AuthnStatement AuthnInstant="${instant(new Date(now))}" SessionIndex="_session-1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>
<saml:AttributeStatement>${attributes}</saml:AttributeStatement>
</saml:Assertion>`
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${instant(new Date(now))}"${destination === null ? "" : ` Destination="${escape(destination)}"`}${inResponseTo}>
<saml:Issuer>${issuer}</saml:Issuer>
<samlp:Status><samlp:StatusCode Value="${escape(options.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success")}"/></samlp:Status>
${options.withoutAssertion ? "" : assertion}
</samlp:Response>`
}

const assertionPath = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']"
const responsePath = "/*[local-name(.)='Response']"

/** Signs the element at `path` (enveloped, exc-c14n, rsa-sha256), the signature right after its Issuer as the schema wants. */
function sign(xml: string, key: KeyPair, path: string): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  })
  signer.addReference({
    xpath: path,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  })
  signer.computeSignature(xml, { prefix: "ds", location: { reference: `${path}/*[local-name(.)='Issuer']`, action: "after" } })
  return signer.getSignedXml()
}

export const signAssertion = (xml: string, key: KeyPair) => sign(xml, key, assertionPath)
export const signResponse = (xml: string, key: KeyPair) => sign(xml, key, responsePath)

/** The form field: base64 of the XML. */
export const encode = (xml: string) => Buffer.from(xml, "utf8").toString("base64")

/** A Response whose assertion `key` signs, base64-encoded: what an IdP that signs only the assertion posts. */
export function signedResponse(settings: SamlConnectionSettings, key: KeyPair, options: ResponseOptions): string {
  return encode(signAssertion(responseXml(settings, options), key))
}

/** Parses `xml`, lets `change` edit the DOM, serializes it back: for the signature-wrapping attacks. */
export function editXml(xml: string, change: (doc: Document) => void): string {
  const doc = new DOMParser().parseFromString(xml, "text/xml")
  change(doc)
  return new XMLSerializer().serializeToString(doc)
}

/** xml-encryption as node-saml resolves it: the library that decrypts is the one that encrypts here. */
const xmlenc = createRequire(createRequire(import.meta.url).resolve("@node-saml/node-saml"))("xml-encryption") as typeof import("xml-encryption")

/** How {@link encryptAssertion} encrypts: AES-256-GCM with RSA-OAEP by default. */
export interface EncryptionOptions {
  encryptionAlgorithm?: string
  keyEncryptionAlgorithm?: string
}

/** `content` encrypted to `certificate` as an `xenc:EncryptedData` element (XML). */
export function encryptXml(content: string, certificate: string, options: EncryptionOptions = {}): Promise<string> {
  return new Promise((resolve, reject) =>
    xmlenc.encrypt(
      content,
      {
        rsa_pub: certificate,
        pem: certificate,
        encryptionAlgorithm: (options.encryptionAlgorithm ?? "http://www.w3.org/2009/xmlenc11#aes256-gcm") as never,
        keyEncryptionAlgorithm: (options.keyEncryptionAlgorithm ?? "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p") as never,
        // The refused algorithms are made too, to see them refused.
        disallowEncryptionWithInsecureAlgorithm: false,
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  )
}

/**
 * The Response with its Assertion, as it stands (signed or not), replaced by a
 * `saml:EncryptedAssertion` of it encrypted to `certificate`: what an IdP that signs, then encrypts
 * sends. The assertion is encrypted as a document of its own, its namespaces declared on it, as
 * SimpleSAMLphp and Okta do; exclusive canonicalization makes its signature hold either way.
 */
export async function encryptAssertion(xml: string, certificate: string, options: EncryptionOptions = {}): Promise<string> {
  const doc = new DOMParser().parseFromString(xml, "text/xml")
  const assertion = doc.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Assertion")[0]
  if (!assertion) throw new Error("no Assertion to encrypt")
  const encryptedData = await encryptXml(new XMLSerializer().serializeToString(assertion), certificate, options)
  const wrapper = doc.createElementNS("urn:oasis:names:tc:SAML:2.0:assertion", "saml:EncryptedAssertion")
  wrapper.appendChild(doc.importNode(new DOMParser().parseFromString(encryptedData, "text/xml").documentElement, true))
  assertion.parentNode!.replaceChild(wrapper, assertion)
  return new XMLSerializer().serializeToString(doc)
}

/** A Response whose assertion `idpKey` signs and which is then encrypted to `spCertificate`, base64-encoded. */
export async function encryptedResponse(settings: SamlConnectionSettings, idpKey: KeyPair, spCertificate: string, options: ResponseOptions, encryption: EncryptionOptions = {}): Promise<string> {
  return encode(await encryptAssertion(signAssertion(responseXml(settings, options), idpKey), spCertificate, encryption))
}

/** Expects a refusal with `code`, whose message quotes nothing of the response (no XML, none of the tests' planted words). */
export async function expectRefused(verifying: Promise<unknown>, code: SamlErrorCode): Promise<SamlError> {
  const error = await verifying.then(
    () => expect.unreachable(`accepted, expected a refusal with ${code}`),
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(SamlError)
  const refusal = error as SamlError
  expect({ code: refusal.code, message: refusal.message }).toEqual({ code, message: expect.not.stringMatching(/<|passwd|evil|mallory/) })
  return refusal
}
