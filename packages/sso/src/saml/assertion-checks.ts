/**
 * The rules a SAML Response and its signed assertion must meet, each failure with its own
 * {@link SamlError} code. They are checked here, on the assertion as node-saml hands it back
 * signed (node-saml-client.ts), because node-saml leaves out or bends several (lib/saml.js):
 * - the assertion's Issuer is never compared with the IdP's (`idpIssuer` is only checked on logout
 *   messages);
 * - the Response's Destination and the SubjectConfirmationData's Recipient are never checked;
 * - the SubjectConfirmationData's NotOnOrAfter and InResponseTo are only looked at when it
 *   validates InResponseTo itself, and a missing Conditions skips every time check;
 * - a non-Success status is only noticed when the Response has no assertion;
 * - there is no replay check (that one is `verifyResponse`'s, last);
 * - an EncryptedAssertion is decrypted with whatever algorithms it names, RSA PKCS#1 v1.5 and
 *   3DES included (xml-encryption 3.1 allows them unless told not to, and node-saml does not tell
 *   it), and without a key the failure is a generic one: {@link checkEncryption} comes first.
 *
 * @module
 */
import { fail, type SamlError } from "./errors.js"
import type { SamlConnectionSettings } from "./settings.js"
import { children, ns } from "./xml.js"

const successStatus = "urn:oasis:names:tc:SAML:2.0:status:Success"
const bearerMethod = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

/** The one child `localName` (assertion namespace) of `parent`; none or several is malformed. */
export function onlyChild(parent: Element, localName: string): Element {
  const [found, ...more] = children(parent, ns.assertion, localName)
  if (!found || more.length > 0) fail("malformed", `The assertion must have exactly one ${localName}.`)
  return found
}

/** The algorithms an EncryptedAssertion may name: AES (GCM, or CBC as most IdPs still use) for the assertion, RSA-OAEP for its key. */
const acceptedEncryption = new Set([
  "http://www.w3.org/2009/xmlenc11#aes128-gcm",
  "http://www.w3.org/2009/xmlenc11#aes256-gcm",
  "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
  "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
  "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
])

/**
 * Whether the Response carries an EncryptedAssertion, checked before node-saml decrypts it:
 * refused (`encrypted`) when this service provider has no key, and (`decryption`) when any
 * EncryptionMethod in it names another algorithm than {@link acceptedEncryption}: RSA PKCS#1 v1.5
 * key transport invites Bleichenbacher-style oracles, 3DES is withdrawn. Matched by local name
 * in any namespace, as node-saml finds it.
 */
export function checkEncryption(response: Element, settings: Pick<SamlConnectionSettings, "decryption">): boolean {
  const encrypted = Array.from(response.childNodes).filter((node): node is Element => node.nodeType === 1 && (node as Element).localName === "EncryptedAssertion")
  if (encrypted.length === 0) return false
  if (!settings.decryption) fail("encrypted", "The assertion is encrypted, and this service provider has no key to decrypt it: configure the SSO module's `serviceProvider` key pair, or turn the IdP's assertion encryption off.")
  for (const element of encrypted) {
    for (const method of Array.from(element.getElementsByTagName("*")).filter((node) => node.localName === "EncryptionMethod")) {
      if (!acceptedEncryption.has(method.getAttribute("Algorithm") ?? "")) fail("decryption", "The encrypted assertion names an encryption algorithm this service provider does not accept (AES-GCM or AES-CBC with RSA-OAEP only).")
    }
  }
  return true
}

/** Checks that the Response's status is Success; any other is refused with its name, if it is a SAML one. */
export function checkStatus(response: Element): void {
  const code = children(response, ns.protocol, "Status").flatMap((status) => children(status, ns.protocol, "StatusCode"))[0]?.getAttribute("Value")
  if (!code) fail("malformed", "The SAML Response has no status.")
  if (code !== successStatus) {
    // Only a well-formed status name goes into the message, never whatever the XML holds.
    const name = /^urn:oasis:names:tc:SAML:2\.0:status:([A-Za-z]{1,40})$/.exec(code)?.[1] ?? "(not a SAML status)"
    fail("status", `The identity provider answered with the status ${name}.`)
  }
}

/** Checks the Response's own Destination and Issuer, when present: unsigned, they may only refuse. */
export function checkResponseAddress(response: Element, settings: SamlConnectionSettings): void {
  // xmldom answers "" for a missing attribute, as it does for an empty one: both count as absent.
  const destination = response.getAttribute("Destination") || null
  if (destination !== null && destination !== settings.acsUrl) fail("recipient", `The Response's Destination is not ${settings.acsUrl}.`)
  for (const issuer of children(response, ns.assertion, "Issuer")) {
    if ((issuer.textContent ?? "").trim() !== settings.idpEntityId) fail("issuer", `The Response was not issued by ${settings.idpEntityId}.`)
  }
}

/** Checks that the assertion has one Issuer, `idpEntityId`. */
export function checkIssuer(assertion: Element, idpEntityId: string): void {
  const issuer = onlyChild(assertion, "Issuer")
  if ((issuer.textContent ?? "").trim() !== idpEntityId) fail("issuer", `The assertion was not issued by ${idpEntityId}.`)
}

/** Checks the Conditions' time window and audience; returns their NotOnOrAfter, if any. */
export function checkConditions(assertion: Element, spEntityId: string, now: number, skewMs: number): number | undefined {
  const conditions = children(assertion, ns.assertion, "Conditions")
  if (conditions.length > 1) fail("malformed", "The assertion has several Conditions.")
  const [only] = conditions
  if (!only) fail("audience", `The assertion has no Conditions, so no audience: it must name ${spEntityId}.`)
  const end = checkWindow(only, now, skewMs, "Conditions")
  // Every AudienceRestriction must be met (SAML core 2.5.1.4), and there must be one.
  const restrictions = children(only, ns.assertion, "AudienceRestriction")
  const named = (restriction: Element) => children(restriction, ns.assertion, "Audience").some((audience) => (audience.textContent ?? "").trim() === spEntityId)
  if (restrictions.length === 0 || !restrictions.every(named)) fail("audience", `The assertion's audience is not ${spEntityId}.`)
  return end
}

/**
 * Checks NotBefore and NotOnOrAfter of `element` against `now`, allowing `skewMs` either way;
 * returns NotOnOrAfter (ms) when present.
 */
function checkWindow(element: Element, now: number, skewMs: number, what: string): number | undefined {
  const notBefore = instant(element, "NotBefore", what)
  const notOnOrAfter = instant(element, "NotOnOrAfter", what)
  if (notBefore !== undefined && now + skewMs < notBefore) fail("not-yet-valid", `The assertion's ${what} are not valid yet (NotBefore).`)
  if (notOnOrAfter !== undefined && now - skewMs >= notOnOrAfter) fail("expired", `The assertion's ${what} have expired (NotOnOrAfter).`)
  return notOnOrAfter
}

function instant(element: Element, name: string, what: string): number | undefined {
  const value = element.getAttribute(name)
  if (value === null || value === "") return undefined
  // xs:dateTime, in UTC as SAML core 1.3.3 requires.
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value) ? Date.parse(value) : NaN
  if (Number.isNaN(ms)) fail("malformed", `The ${name} of the assertion's ${what} is not a UTC date and time.`)
  return ms
}

export interface ConfirmationRules {
  acsUrl: string
  now: number
  skewMs: number
  responseInResponseTo: string | null
  expectedRequestId: string | null
  allowIdpInitiated: boolean
}

/**
 * Finds a bearer SubjectConfirmation that holds (Web Browser SSO profile, SAML profiles 4.1.4.2):
 * Recipient is the ACS URL, NotOnOrAfter is given and not past, InResponseTo is the request this
 * browser made. Returns its NotOnOrAfter; when none holds, the first one's failure is thrown.
 */
export function checkSubjectConfirmation(subject: Element, rules: ConfirmationRules): number {
  const bearers = children(subject, ns.assertion, "SubjectConfirmation").filter((confirmation) => confirmation.getAttribute("Method") === bearerMethod)
  if (bearers.length === 0) fail("malformed", "The assertion has no bearer SubjectConfirmation.")
  let firstFailure: unknown
  for (const bearer of bearers) {
    try {
      return checkBearer(bearer, rules)
    } catch (error) {
      firstFailure ??= error
    }
  }
  throw firstFailure
}

function checkBearer(confirmation: Element, rules: ConfirmationRules): number {
  const [element, ...more] = children(confirmation, ns.assertion, "SubjectConfirmationData")
  if (!element || more.length > 0) fail("malformed", "A bearer SubjectConfirmation must have one SubjectConfirmationData.")
  if (element.getAttribute("Recipient") !== rules.acsUrl) fail("recipient", `The assertion's Recipient is not ${rules.acsUrl}.`)
  const end = checkWindow(element, rules.now, rules.skewMs, "subject confirmation")
  if (end === undefined) fail("malformed", "The assertion's subject confirmation has no NotOnOrAfter.")

  // The signed InResponseTo decides; the Response's own may only disagree, and then it is refused.
  const answered = element.getAttribute("InResponseTo") || null
  if (rules.responseInResponseTo !== null && rules.responseInResponseTo !== answered) {
    fail("in-response-to", "The Response and its assertion answer different requests.")
  }
  if (answered === null) {
    if (!rules.allowIdpInitiated) fail("unsolicited", "The response answers no request, and this connection does not allow IdP-initiated sign-in.")
  } else if (answered !== rules.expectedRequestId) {
    fail("in-response-to", "The response answers another request than the one this browser started.")
  }
  return end
}
