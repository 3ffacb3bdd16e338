/**
 * How @node-saml/node-saml is configured for one connection, and the one thing it is asked to
 * verify.
 *
 * node-saml 5.1.0 is used for what it does well: the XML signature, and handing back only the
 * assertion as it was signed (its canonical form), so nothing unsigned is ever read. Its other
 * checks are switched off and done in assertion-checks.ts, on that signed copy: its InResponseTo
 * check needs its request cache (in memory by default, so per instance), hence
 * `validateInResponseTo: "never"` and a check against the ID the caller passes; its audience and
 * time checks (`audience: false`, `acceptedClockSkewMs: -1`), so that each failure gets its own
 * {@link SamlError} code.
 *
 * An EncryptedAssertion is decrypted by node-saml too (`decryptionPvk`, through xml-encryption):
 * it requires the decrypted assertion's own signature (`wantAssertionsSigned`), refuses a Response
 * with an Assertion beside the EncryptedAssertion, and hands back the assertion as it was signed
 * (or, when the Response is signed as well, as it was decrypted from the signed Response), which
 * then meets exactly the checks of a plain one.
 *
 * @module
 */
import { SAML, ValidateInResponseTo, type Profile } from "@node-saml/node-saml"
import { fail, type SamlError } from "./errors.js"
import { emailAddressFormat } from "./metadata.js"
import type { SamlConnectionSettings } from "./settings.js"

/** A node-saml instance for one call; `requestId` becomes the AuthnRequest's ID. */
export function samlClient(settings: SamlConnectionSettings, requestId?: string): SAML {
  const { signRequests } = settings
  return new SAML({
    entryPoint: settings.ssoUrl,
    issuer: settings.spEntityId,
    callbackUrl: settings.acsUrl,
    idpCert: settings.certificates,
    identifierFormat: emailAddressFormat,
    // Asking for a context (node-saml asks for PasswordProtectedTransport, exactly) makes IdPs
    // refuse users who sign in another way (a passkey, Kerberos); how the IdP signs in is its call.
    disableRequestedAuthnContext: true,
    // The assertion must carry its own signature; the Response's is optional, as many IdPs sign only the assertion.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.never,
    audience: false,
    acceptedClockSkewMs: -1,
    ...(signRequests ? { privateKey: signRequests.privateKey, publicCert: signRequests.certificate, signatureAlgorithm: "sha256" as const } : {}),
    ...(settings.decryption ? { decryptionPvk: settings.decryption.privateKey } : {}),
    ...(requestId === undefined ? {} : { generateUniqueId: () => requestId }),
  })
}

/**
 * The assertion as it was signed, from node-saml; its failures become `signature`, `malformed`
 * or, when the Response carries an EncryptedAssertion (`encrypted`), `decryption`.
 * node-saml refuses several assertions (an EncryptedAssertion counts as one), a signature that
 * does not reference its own parent, an ID that several elements carry, and (xml-crypto 6.3)
 * copies of one signature value.
 */
export async function signedAssertionXml(settings: SamlConnectionSettings, encoded: string, encrypted = false): Promise<string> {
  let profile: Profile | null
  try {
    ;({ profile } = await samlClient(settings).validatePostResponseAsync({ SAMLResponse: encoded }))
  } catch (error) {
    if (error instanceof Error && /signature|signed|ref(erence)? uri/i.test(error.message)) {
      fail("signature", "The assertion is not signed by a certificate of this connection, or the signature does not cover what would be read.")
    }
    if (encrypted && !settings.decryption) fail("encrypted", "The assertion is encrypted, and this service provider has no key to decrypt it.")
    // Whatever went wrong inside (the key, the padding, the XML it held), one code: which one it
    // was is what a padding-oracle attack on CBC would want to learn.
    if (encrypted) fail("decryption", "The encrypted assertion could not be decrypted with this service provider's key into an assertion.")
    fail("malformed", "The SAML Response has no assertion that can be read.")
  }
  const xml = profile?.getAssertionXml?.()
  if (!xml) fail("malformed", "The SAML Response has no assertion.")
  return xml
}
