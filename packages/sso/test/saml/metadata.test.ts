/**
 * IdP metadata in (every signing certificate, the Redirect and POST endpoints, federation files,
 * hostile or incomplete XML refused with its code) and SP metadata out.
 */
import { X509Certificate } from "node:crypto"
import { DOMParser } from "@xmldom/xmldom"
import { beforeAll, describe, expect, it } from "vitest"
import { SamlMetadataError, type SamlMetadataErrorCode } from "../../src/saml/errors.js"
import { parseIdpMetadata, serviceProviderMetadata } from "../../src/saml/metadata.js"
import { connection, keyPair, type KeyPair } from "./fixtures.js"

const md = "urn:oasis:names:tc:SAML:2.0:metadata"
const redirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
const post = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"

let current: KeyPair
let next: KeyPair
let encryption: KeyPair

beforeAll(async () => {
  ;[current, next, encryption] = await Promise.all([keyPair("current"), keyPair("next"), keyPair("encryption")])
})

/** The base64 body of a PEM certificate, wrapped as metadata often has it. */
const body = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").trim()

function keyDescriptor(pem: string, use?: "signing" | "encryption"): string {
  return `<md:KeyDescriptor${use ? ` use="${use}"` : ""}><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>
${body(pem)}
</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
}

/** An IdP EntityDescriptor like SimpleSAMLphp's; `inner` replaces the IDPSSODescriptor's content. */
function idpEntity(entityId: string, inner?: string, protocols = "urn:oasis:names:tc:SAML:2.0:protocol"): string {
  const content =
    inner ??
    `${keyDescriptor(current.certificate, "signing")}${keyDescriptor(next.certificate)}${keyDescriptor(encryption.certificate, "encryption")}${keyDescriptor(current.certificate)}
<md:SingleLogoutService Binding="${redirect}" Location="https://idp.acme.test/slo"/>
<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
<md:SingleSignOnService Binding="${post}" Location="https://idp.acme.test/sso/post"/>
<md:SingleSignOnService Binding="${redirect}" Location="https://idp.acme.test/sso"/>`
  return `<md:EntityDescriptor xmlns:md="${md}" entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="${protocols}" WantAuthnRequestsSigned="true">${content}</md:IDPSSODescriptor></md:EntityDescriptor>`
}

const spEntity = `<md:EntityDescriptor xmlns:md="${md}" entityID="https://sp.test"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:AssertionConsumerService Binding="${post}" Location="https://sp.test/acs" index="0"/></md:SPSSODescriptor></md:EntityDescriptor>`
const federation = (...entities: string[]) => `<md:EntitiesDescriptor xmlns:md="${md}">${entities.join("")}</md:EntitiesDescriptor>`

function refusal(xml: string, options?: { entityId?: string }): { code: SamlMetadataErrorCode; message: string } {
  try {
    parseIdpMetadata(xml, options)
  } catch (error) {
    expect(error).toBeInstanceOf(SamlMetadataError)
    const { code, message } = error as SamlMetadataError
    return { code, message }
  }
  throw new Error("the metadata was accepted")
}

describe("parseIdpMetadata", () => {
  it("reads the entity ID, the Redirect and POST endpoints, and every signing certificate once", () => {
    expect(parseIdpMetadata(`<?xml version="1.0"?>\n${idpEntity("https://idp.acme.test/metadata")}`)).toEqual({
      entityId: "https://idp.acme.test/metadata",
      ssoUrl: "https://idp.acme.test/sso",
      ssoPostUrl: "https://idp.acme.test/sso/post",
      sloUrl: "https://idp.acme.test/slo",
      // use="signing" and no use (both uses) count; use="encryption" does not; the repeat is dropped.
      certificates: [new X509Certificate(current.certificate).toString(), new X509Certificate(next.certificate).toString()],
      wantAuthnRequestsSigned: true,
    })
  })

  it("leaves out the endpoints the IdP does not list", () => {
    const minimal = idpEntity("https://idp.test", `${keyDescriptor(current.certificate)}<md:SingleSignOnService Binding="${redirect}" Location="https://idp.test/sso"/>`)
    const parsed = parseIdpMetadata(minimal)
    expect(parsed).not.toHaveProperty("ssoPostUrl")
    expect(parsed).not.toHaveProperty("sloUrl")
  })

  it("picks the identity provider out of federation metadata, by entityId when there are several", () => {
    expect(parseIdpMetadata(federation(spEntity, idpEntity("https://idp.one"))).entityId).toBe("https://idp.one")
    const two = federation(idpEntity("https://idp.one"), federation(idpEntity("https://idp.two")))
    expect(refusal(two).code).toBe("ambiguous")
    expect(parseIdpMetadata(two, { entityId: "https://idp.two" }).entityId).toBe("https://idp.two")
    expect(refusal(two, { entityId: "https://idp.three" }).code).toBe("no-idp")
  })

  it("refuses a DOCTYPE before parsing: external entities and entity expansion", () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]>${idpEntity("https://idp.test&x;")}`
    expect(refusal(xxe)).toEqual({ code: "malformed", message: expect.not.stringContaining("passwd") })
    const laughs = `<!DOCTYPE r [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${idpEntity("https://idp.test&b;")}`
    expect(refusal(laughs).code).toBe("malformed")
  })

  it("refuses what is not SAML 2.0 IdP metadata", () => {
    expect(refusal("not xml <").code).toBe("malformed")
    expect(refusal(`<md:EntityDescriptor xmlns:md="${md}" entityID="x">`).code).toBe("malformed")
    expect(refusal(`<EntityDescriptor entityID="x"/>`).code).toBe("malformed")
    expect(refusal(spEntity).code).toBe("no-idp")
    expect(refusal(idpEntity("https://idp.test", undefined, "urn:oasis:names:tc:SAML:1.1:protocol")).code).toBe("no-idp")
    expect(refusal(idpEntity("")).code).toBe("malformed")
  })

  it("refuses an IdP without what a connection needs", () => {
    const sso = `<md:SingleSignOnService Binding="${redirect}" Location="https://idp.test/sso"/>`
    expect(refusal(idpEntity("https://idp.test", `${keyDescriptor(current.certificate)}<md:SingleSignOnService Binding="${post}" Location="https://idp.test/sso"/>`)).code).toBe(
      "no-sso-service",
    )
    expect(refusal(idpEntity("https://idp.test", `${keyDescriptor(current.certificate, "encryption")}${sso}`)).code).toBe("no-certificate")
    expect(refusal(idpEntity("https://idp.test", `${keyDescriptor("-----BEGIN CERTIFICATE-----\nTm90IGEgY2VydA==\n-----END CERTIFICATE-----")}${sso}`)).code).toBe("bad-certificate")
    expect(refusal(idpEntity("https://idp.test", `${keyDescriptor("not base64 at all!")}${sso}`)).code).toBe("bad-certificate")
    expect(refusal(idpEntity("https://idp.test", `${keyDescriptor(current.certificate)}<md:SingleSignOnService Binding="${redirect}" Location="javascript:alert(1)"/>`)).code).toBe("malformed")
  })
})

describe("serviceProviderMetadata", () => {
  const settings = connection(["unused"])

  /** The SPSSODescriptor of `xml`, checked to be this connection's. */
  function descriptor(xml: string): Element {
    const root = new DOMParser().parseFromString(xml, "text/xml").documentElement
    expect(root.getAttribute("entityID")).toBe(settings.spEntityId)
    const sp = root.getElementsByTagNameNS(md, "SPSSODescriptor")[0]!
    expect(sp.getAttribute("WantAssertionsSigned")).toBe("true")
    expect(sp.getElementsByTagNameNS(md, "NameIDFormat")[0]?.textContent).toBe("urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress")
    const acs = sp.getElementsByTagNameNS(md, "AssertionConsumerService")[0]!
    expect([acs.getAttribute("Binding"), acs.getAttribute("Location")]).toEqual([post, settings.acsUrl])
    return sp
  }

  it("describes the connection's entity ID, ACS (HTTP-POST), signed assertions and the emailAddress format", () => {
    const sp = descriptor(serviceProviderMetadata(settings))
    expect(sp.getAttribute("AuthnRequestsSigned")).toBe("false")
    expect(sp.getElementsByTagNameNS(md, "KeyDescriptor")).toHaveLength(0)
  })

  it("announces signed AuthnRequests and their certificate, never the private key", () => {
    const xml = serviceProviderMetadata({ ...settings, signRequests: current })
    const sp = descriptor(xml)
    expect(sp.getAttribute("AuthnRequestsSigned")).toBe("true")
    const key = sp.getElementsByTagNameNS(md, "KeyDescriptor")[0]!
    expect(key.getAttribute("use")).toBe("signing")
    expect(key.textContent?.replace(/\s/g, "")).toBe(body(current.certificate).replace(/\s/g, ""))
    expect(xml).not.toContain("PRIVATE KEY")
    expect(xml).not.toContain(body(current.privateKey).split("\n")[1])
  })
})
