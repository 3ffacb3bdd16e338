/**
 * The SAML 2.0 service provider for one connection: a stateless layer over @node-saml/node-saml.
 * `authnRequest` starts a sign-in (HTTP-Redirect binding); `verifyResponse` checks what the IdP
 * posts back to the assertion consumer service (HTTP-POST binding).
 *
 * Nothing is kept between calls: the caller stores the AuthnRequest's ID bound to the browser and
 * passes it back, and remembers used assertion IDs in a shared store (`replay`), so that any
 * instance of the app can finish a sign-in another one started. node-saml's own InResponseTo
 * check needs its request cache (in memory by default, so per instance); it is switched off
 * (`validateInResponseTo: "never"`) and done in assertion-checks.ts against the ID the caller passes.
 *
 * node-saml checks the XML signature and hands back the assertion as it was signed
 * (node-saml-client.ts); every rule on that signed copy is checked in assertion-checks.ts, each
 * failure with its own {@link SamlError} code; XML is read through the hardened parser in xml.ts.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import { checkConditions, checkEncryption, checkIssuer, checkResponseAddress, checkStatus, checkSubjectConfirmation, onlyChild } from "./assertion-checks.js"
import { fail, SamlError } from "./errors.js"
import { samlClient, signedAssertionXml } from "./node-saml-client.js"
import { checkSettings, defaultClockSkewSeconds, type SamlConnectionSettings } from "./settings.js"
import { children, isElement, ns, parseXml } from "./xml.js"

export type { SamlConnectionSettings } from "./settings.js"

/** What a verified assertion says, read only from its signed content. */
export interface SamlAssertion {
  /** The IdP's entity ID. */
  issuer: string
  /** The subject's NameID, whole (comments inside it cannot cut it short). */
  nameId: string
  /** The NameID's Format, `...:unspecified` when the IdP gives none. */
  nameIdFormat: string
  /** The AuthnStatement's SessionIndex, for single logout. */
  sessionIndex?: string
  /** Every attribute by its Name, each with all its values. */
  attributes: Record<string, string[]>
  /** The assertion's ID, as recorded by the replay check. */
  assertionId: string
  /** The earliest NotOnOrAfter of the assertion's Conditions and subject confirmation. */
  notOnOrAfter: Date
}

/** The store of assertion IDs already used, shared by every instance of the app. */
export interface SamlReplayCache {
  /**
   * Records `assertionId` and answers whether it was recorded before (atomically: of two
   * concurrent calls for one ID, one answers false). `notOnOrAfter` is when the record may be
   * dropped: the assertion's NotOnOrAfter plus the clock skew, after which it is refused anyway.
   */
  seen(assertionId: string, notOnOrAfter: Date): Promise<boolean>
}

/** The largest SAML Response accepted, decoded: real ones are a few KiB, and parsing costs grow with size. */
const maxResponseBytes = 256 * 1024
const unspecifiedFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"

/**
 * Starts a sign-in at the identity provider: the URL to redirect the browser to (HTTP-Redirect
 * binding, signed when `signRequests` is set) and the AuthnRequest's ID, which the caller stores
 * bound to this browser (an HttpOnly cookie, a server-side session) and passes to
 * {@link verifyResponse} when the response comes back.
 *
 * @param relayState - Sent to the IdP and back unchanged, unsigned: an opaque token of at most 80
 *   bytes (SAML bindings 3.4.3) of letters, digits, `.`, `_` and `-`.
 * @throws TypeError when the settings are incomplete or `relayState` is not such a token.
 */
export async function authnRequest(settings: SamlConnectionSettings, relayState: string): Promise<{ url: string; requestId: string }> {
  checkSettings(settings)
  // node-saml signs the query as `querystring` encodes it but sends it as URLSearchParams does;
  // the two agree only on these characters, and the IdP checks the signature on what it got.
  if (!/^[A-Za-z0-9._-]{0,80}$/.test(relayState)) throw new TypeError("SAML relayState must be at most 80 letters, digits, '.', '_' or '-'")
  // The form node-saml uses: an xs:ID must not start with a digit.
  const requestId = `_${randomBytes(20).toString("hex")}`
  const url = await samlClient(settings, requestId).getAuthorizeUrlAsync(relayState, undefined, {})
  return { url, requestId }
}

/**
 * Verifies a SAML Response posted to the assertion consumer service and returns what its signed
 * assertion says. Refused, with a {@link SamlError} whose code names the failed check, unless:
 * the assertion is signed by one of `settings.certificates` (the Response may be signed too, but
 * its signature alone is not enough; an encrypted one, decrypted with `settings.decryption`, must
 * be signed inside), it is the only one, it is issued by `idpEntityId` for the
 * audience `spEntityId`, it is addressed to `acsUrl` (Recipient, and the Response's Destination
 * when present), it is valid now within the clock skew, the status is Success, it answers
 * `expected.requestId` (or no request, when `allowIdpInitiated` is set), and `replay` has not seen
 * its ID.
 *
 * @param form - The posted form fields. RelayState is not read: it is unsigned, and the caller
 *   uses it only to find its own state.
 * @param expected - The ID `authnRequest` returned for this browser, or null when none is pending.
 * @param replay - The shared store of used assertion IDs.
 * @throws {@link SamlError} when the response is refused; TypeError when the settings are incomplete.
 */
export async function verifyResponse(
  settings: SamlConnectionSettings,
  form: { SAMLResponse: string; RelayState?: string },
  expected: { requestId: string | null },
  replay: SamlReplayCache,
): Promise<SamlAssertion> {
  checkSettings(settings)
  const skewMs = (settings.clockSkewSeconds ?? defaultClockSkewSeconds) * 1000
  const encoded = form.SAMLResponse
  // Checked before decoding, so an enormous field costs nothing; base64 is 4/3 of the size, plus line breaks.
  if (typeof encoded !== "string" || encoded.length > maxResponseBytes * 1.4 || !/^[A-Za-z0-9+/=\s]+$/.test(encoded)) {
    fail("malformed", "The SAMLResponse field is not a base64-encoded SAML Response of a plausible size.")
  }
  const xml = Buffer.from(encoded, "base64").toString("utf8")
  if (Buffer.byteLength(xml) > maxResponseBytes) fail("malformed", `The SAML Response is larger than ${maxResponseBytes / 1024} KiB.`)
  // The same check guards node-saml's parser, which gets this very string.
  const response = parseXml(xml, (reason) => new SamlError("malformed", `The SAML Response was refused: ${reason}.`)).documentElement
  if (!isElement(response, ns.protocol, "Response")) fail("malformed", "The message is not a SAML Response.")
  // Before the signature: IdPs often leave error responses unsigned, and a failure grants nothing.
  checkStatus(response)
  // An EncryptedAssertion is decrypted by node-saml (with `settings.decryption`), and what it
  // hands back is the decrypted assertion as it was signed: every check below holds for it alike.
  const encrypted = checkEncryption(response, settings)

  const signedAssertion = await signedAssertionXml(settings, encoded, encrypted)
  const assertion = parseXml(signedAssertion, () => new SamlError("malformed", "The signed assertion could not be read.")).documentElement

  // The Response's own Destination, Issuer and InResponseTo are unsigned when only the assertion
  // is signed: they may make us refuse, never accept.
  checkResponseAddress(response, settings)

  checkIssuer(assertion, settings.idpEntityId)
  const now = Date.now()
  const conditionsEnd = checkConditions(assertion, settings.spEntityId, now, skewMs)
  const subject = onlyChild(assertion, "Subject")
  const confirmationEnd = checkSubjectConfirmation(subject, {
    acsUrl: settings.acsUrl,
    now,
    skewMs,
    responseInResponseTo: response.getAttribute("InResponseTo") || null,
    expectedRequestId: expected.requestId,
    allowIdpInitiated: settings.allowIdpInitiated === true,
  })
  const notOnOrAfter = new Date(Math.min(confirmationEnd, conditionsEnd ?? Infinity))

  const nameIdElement = onlyChild(subject, "NameID")
  // textContent joins every text node: a comment slipped into the signed value (which exclusive
  // canonicalization ignores) cannot cut it short.
  const nameId = (nameIdElement.textContent ?? "").trim()
  if (nameId === "") fail("malformed", "The assertion's NameID is empty.")
  const assertionId = assertion.getAttribute("ID")
  if (!assertionId) fail("malformed", "The assertion has no ID.")
  // An assertion without an AuthnStatement says who the user is, not that they signed in (profiles 4.1.4.2).
  const [authnStatement] = children(assertion, ns.assertion, "AuthnStatement")
  if (!authnStatement) fail("malformed", "The assertion has no AuthnStatement.")
  const sessionIndex = authnStatement.getAttribute("SessionIndex")

  // Last, so that only an assertion accepted in every other way uses up its ID.
  if (await replay.seen(assertionId, new Date(notOnOrAfter.getTime() + skewMs))) fail("replay", "This assertion was used already.")
  return {
    issuer: settings.idpEntityId,
    nameId,
    nameIdFormat: nameIdElement.getAttribute("Format") || unspecifiedFormat,
    ...(sessionIndex ? { sessionIndex } : {}),
    attributes: attributesOf(assertion),
    assertionId,
    notOnOrAfter,
  }
}

/** Every attribute's values by Name, from all AttributeStatements (values of one name are joined). */
function attributesOf(assertion: Element): Record<string, string[]> {
  const values = new Map<string, string[]>()
  for (const statement of children(assertion, ns.assertion, "AttributeStatement")) {
    for (const attribute of children(statement, ns.assertion, "Attribute")) {
      const name = attribute.getAttribute("Name")
      if (!name) continue
      const list = values.get(name) ?? []
      for (const value of children(attribute, ns.assertion, "AttributeValue")) list.push(value.textContent ?? "")
      values.set(name, list)
    }
  }
  // fromEntries defines own properties, so a Name like "__proto__" is just a key.
  return Object.fromEntries(values)
}
