/**
 * The SAML service provider against a test IdP in Node (fixtures.ts): the working flow beside each
 * attack, every refusal with its own SamlError code and a message that quotes no XML.
 */
import { createPublicKey, createVerify } from "node:crypto"
import { inflateRawSync } from "node:zlib"
import { beforeAll, describe, expect, it } from "vitest"
import { authnRequest, verifyResponse, type SamlConnectionSettings, type SamlReplayCache } from "../../src/saml/service-provider.js"
import { connection, editXml, expectRefused, encode, keyPair, newId, responseXml, signAssertion, signedResponse, signResponse, type KeyPair } from "./fixtures.js"

const ns = { protocol: "urn:oasis:names:tc:SAML:2.0:protocol", assertion: "urn:oasis:names:tc:SAML:2.0:assertion", dsig: "http://www.w3.org/2000/09/xmldsig#" }
const minute = 60_000

let idp: KeyPair
let nextIdp: KeyPair
let stranger: KeyPair
let sp: KeyPair
let settings: SamlConnectionSettings

beforeAll(async () => {
  ;[idp, nextIdp, stranger, sp] = await Promise.all([keyPair("idp"), keyPair("idp-next"), keyPair("stranger"), keyPair("sp")])
  settings = connection([idp.certificate])
})

/** A replay store in memory, recording when each ID may be forgotten. */
function memoryReplay(): SamlReplayCache & { until: Map<string, Date> } {
  const until = new Map<string, Date>()
  return {
    until,
    seen: async (id, notOnOrAfter) => {
      if (until.has(id)) return true
      until.set(id, notOnOrAfter)
      return false
    },
  }
}

/** Verifies as the ACS would for the browser that started request `requestId`. */
function verify(samlResponse: string, requestId: string | null = "_request-a", overrides: Partial<SamlConnectionSettings> = {}, replay = memoryReplay()) {
  return verifyResponse({ ...settings, ...overrides }, { SAMLResponse: samlResponse, RelayState: "relay" }, { requestId }, replay)
}

/** The first element `localName` in `namespace`. */
function first(doc: Document, namespace: string, localName: string): Element {
  const element = doc.getElementsByTagNameNS(namespace, localName)[0]
  if (!element) throw new Error(`no ${localName}`)
  return element
}

/** A copy of the signed assertion with Mallory's NameID, its Signature removed. */
function evilTwin(signed: Element): Element {
  const evil = signed.cloneNode(true) as Element
  const signature = Array.from(evil.childNodes).find((node) => (node as Element).localName === "Signature")
  if (signature) evil.removeChild(signature)
  const nameId = evil.getElementsByTagNameNS(ns.assertion, "NameID")[0]!
  nameId.textContent = "mallory@evil.test"
  return evil
}

describe("authnRequest", () => {
  it("redirects to the IdP with an AuthnRequest whose ID is the requestId", async () => {
    const { url, requestId } = await authnRequest(settings, "relay-1")
    const target = new URL(url)
    expect(`${target.origin}${target.pathname}`).toBe(settings.ssoUrl)
    expect(target.searchParams.get("RelayState")).toBe("relay-1")
    expect(target.searchParams.has("Signature")).toBe(false)
    const request = inflateRawSync(Buffer.from(target.searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
    expect(requestId).toMatch(/^_[0-9a-f]{40}$/)
    expect(request).toContain(`ID="${requestId}"`)
    expect(request).toContain(`AssertionConsumerServiceURL="${settings.acsUrl}"`)
    expect(request).toContain(`>${settings.spEntityId}</saml:Issuer>`)
    expect(request).toContain('Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"')
    expect(request).not.toContain("RequestedAuthnContext")
    const again = await authnRequest(settings, "relay-1")
    expect(again.requestId).not.toBe(requestId)
  })

  it("signs the redirect with signRequests, as the IdP checks it on the raw query (rsa-sha256)", async () => {
    const { url } = await authnRequest({ ...settings, signRequests: sp }, "relay-1")
    const raw = new URL(url).search.slice(1).split("&")
    const param = (name: string) => raw.find((pair) => pair.startsWith(`${name}=`))!
    expect(decodeURIComponent(param("SigAlg").slice(7))).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    const signed = [param("SAMLRequest"), param("RelayState"), param("SigAlg")].join("&")
    const signature = Buffer.from(decodeURIComponent(param("Signature").slice(10)), "base64")
    expect(createVerify("RSA-SHA256").update(signed).verify(createPublicKey(sp.certificate), signature)).toBe(true)
  })

  it("refuses a RelayState over 80 bytes or with characters whose encoding is ambiguous, and incomplete settings", async () => {
    await expect(authnRequest(settings, "x".repeat(81))).rejects.toThrow(TypeError)
    await expect(authnRequest(settings, "a b")).rejects.toThrow(TypeError)
    await expect(authnRequest({ ...settings, ssoUrl: "javascript:alert(1)" }, "r")).rejects.toThrow(/ssoUrl/)
    await expect(authnRequest({ ...settings, certificates: [] }, "r")).rejects.toThrow(/certificates/)
    await expect(authnRequest({ ...settings, clockSkewSeconds: 301 }, "r")).rejects.toThrow(/clockSkewSeconds/)
  })
})

describe("verifyResponse: the working flow", () => {
  it("returns what the signed assertion says and records its ID until NotOnOrAfter plus the skew", async () => {
    const subjectEnd = new Date(Math.floor(Date.now() / 1000) * 1000 + 4 * minute)
    const attributes = { email: ["ada@acme.test"], groups: ["staff", "admins"], ["__proto__"]: ["odd name"] }
    const replay = memoryReplay()
    const assertion = await verify(
      signedResponse(settings, idp, { inResponseTo: "_request-a", subjectNotOnOrAfter: subjectEnd, attributes, assertionId: "_assertion-1" }),
      "_request-a",
      {},
      replay,
    )
    expect(assertion).toEqual({
      issuer: settings.idpEntityId,
      nameId: "ada@acme.test",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      sessionIndex: "_session-1",
      attributes: { email: ["ada@acme.test"], groups: ["staff", "admins"], ["__proto__"]: ["odd name"] },
      assertionId: "_assertion-1",
      notOnOrAfter: subjectEnd,
    })
    expect(Object.getPrototypeOf(assertion.attributes)).toBe(Object.prototype)
    expect(replay.until.get("_assertion-1")).toEqual(new Date(subjectEnd.getTime() + minute))
  })

  it("accepts a Response signed as a whole beside its signed assertion", async () => {
    const xml = signResponse(signAssertion(responseXml(settings, { inResponseTo: "_request-a" }), idp), idp)
    expect((await verify(encode(xml))).nameId).toBe("ada@acme.test")
  })

  it("accepts the IdP's next certificate beside the current one (rollover)", async () => {
    const rolled = signedResponse(settings, nextIdp, { inResponseTo: "_request-a" })
    expect((await verify(rolled, "_request-a", { certificates: [idp.certificate, nextIdp.certificate] })).nameId).toBe("ada@acme.test")
    await expectRefused(verify(rolled), "signature")
  })

  it("accepts an unsolicited response when the connection allows IdP-initiated sign-in, with or without a pending request", async () => {
    const unsolicited = signedResponse(settings, idp, { inResponseTo: null })
    expect((await verify(unsolicited, null, { allowIdpInitiated: true })).nameId).toBe("ada@acme.test")
    expect((await verify(unsolicited, "_request-a", { allowIdpInitiated: true })).nameId).toBe("ada@acme.test")
  })

  it("allows the clock skew either way", async () => {
    const now = Date.now()
    const late = signedResponse(settings, idp, { inResponseTo: "_request-a", notOnOrAfter: new Date(now - 30_000), subjectNotOnOrAfter: new Date(now - 30_000) })
    expect((await verify(late)).nameId).toBe("ada@acme.test")
    const early = signedResponse(settings, idp, { inResponseTo: "_request-a", notBefore: new Date(now + 30_000) })
    expect((await verify(early)).nameId).toBe("ada@acme.test")
    await expectRefused(verify(early, "_request-a", { clockSkewSeconds: 0 }), "not-yet-valid")
  })
})

describe("verifyResponse: signature", () => {
  it("refuses an unsigned response", async () => {
    await expectRefused(verify(encode(responseXml(settings, { inResponseTo: "_request-a" }))), "signature")
  })

  it("refuses an assertion signed by a key the connection does not trust, even with its certificate in KeyInfo", async () => {
    await expectRefused(verify(signedResponse(settings, stranger, { inResponseTo: "_request-a" })), "signature")
  })

  it("refuses a Response signed as a whole whose assertion is unsigned, as sent and once edited (partly signed)", async () => {
    const responseOnly = signResponse(responseXml(settings, { inResponseTo: "_request-a" }), idp)
    await expectRefused(verify(encode(responseOnly)), "signature")
    await expectRefused(verify(encode(responseOnly.replace("ada@acme.test</saml:NameID>", "mallory@evil.test</saml:NameID>"))), "signature")
  })

  it("refuses an edited signed assertion", async () => {
    const xml = signAssertion(responseXml(settings, { inResponseTo: "_request-a" }), idp)
    await expectRefused(verify(encode(xml.replace("ada@acme.test</saml:NameID>", "mallory@evil.test</saml:NameID>"))), "signature")
  })

  it("reads a NameID with a comment inside as the whole signed value, never the part before the comment", async () => {
    const xml = signAssertion(responseXml(settings, { inResponseTo: "_request-a", nameId: "ada@acme.test.evil.test" }), idp)
    const commented = xml.replace(">ada@acme.test.evil.test</saml:NameID>", ">ada@acme.test<!---->.evil.test</saml:NameID>")
    expect(commented).not.toBe(xml)
    const assertion = await verify(encode(commented))
    expect(assertion.nameId).toBe("ada@acme.test.evil.test")
  })
})

describe("verifyResponse: XML signature wrapping", () => {
  const signedXml = () => signAssertion(responseXml(settings, { inResponseTo: "_request-a" }), idp)

  it("refuses a second, unsigned assertion before the signed one", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signed = first(doc, ns.assertion, "Assertion")
      const evil = evilTwin(signed)
      evil.setAttribute("ID", newId())
      signed.parentNode!.insertBefore(evil, signed)
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })

  it("refuses a second, unsigned assertion after the signed one", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signed = first(doc, ns.assertion, "Assertion")
      const evil = evilTwin(signed)
      evil.setAttribute("ID", newId())
      signed.parentNode!.appendChild(evil)
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })

  it("refuses the signed assertion moved into the Response's Extensions with an evil one, same ID, in its place", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signed = first(doc, ns.assertion, "Assertion")
      const response = signed.parentNode as Element
      const evil = evilTwin(signed)
      response.replaceChild(evil, signed)
      const extensions = doc.createElementNS(ns.protocol, "samlp:Extensions")
      extensions.appendChild(signed)
      response.insertBefore(extensions, first(doc, ns.protocol, "Status"))
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })

  it("refuses an evil assertion carrying the signature, the signed one moved into the signature's Object", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signed = first(doc, ns.assertion, "Assertion")
      const evil = evilTwin(signed)
      const signature = first(doc, ns.dsig, "Signature").cloneNode(true) as Element
      const object = doc.createElementNS(ns.dsig, "ds:Object")
      signature.appendChild(object)
      signed.parentNode!.replaceChild(evil, signed)
      evil.insertBefore(signature, evil.getElementsByTagNameNS(ns.assertion, "Subject")[0]!)
      object.appendChild(signed)
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })

  it("refuses an evil assertion with a copy of the genuine Signature (decoy), the signed one hidden in Extensions", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signed = first(doc, ns.assertion, "Assertion")
      const response = signed.parentNode as Element
      const evil = evilTwin(signed)
      evil.setAttribute("ID", newId())
      evil.insertBefore(first(doc, ns.dsig, "Signature").cloneNode(true), evil.getElementsByTagNameNS(ns.assertion, "Subject")[0]!)
      response.replaceChild(evil, signed)
      const extensions = doc.createElementNS(ns.protocol, "samlp:Extensions")
      extensions.appendChild(signed)
      response.insertBefore(extensions, first(doc, ns.protocol, "Status"))
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })

  it("refuses a decoy copy of the Signature beside the genuine one in the signed assertion", async () => {
    const wrapped = editXml(signedXml(), (doc) => {
      const signature = first(doc, ns.dsig, "Signature")
      signature.parentNode!.insertBefore(signature.cloneNode(true), signature)
    })
    await expectRefused(verify(encode(wrapped)), "signature")
  })
})

describe("verifyResponse: addressing and time", () => {
  it("refuses an assertion for another service provider (audience)", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", audience: "https://other-sp.evil.test" })), "audience")
  })

  it("refuses an assertion without Conditions, so without an audience", async () => {
    const xml = responseXml(settings, { inResponseTo: "_request-a" }).replace(/<saml:Conditions[\s\S]*<\/saml:Conditions>/, "")
    await expectRefused(verify(encode(signAssertion(xml, idp))), "audience")
  })

  it("refuses an assertion for another endpoint (Recipient), and a Response with another Destination", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", recipient: "https://evil.test/acs" })), "recipient")
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", destination: "https://evil.test/acs" })), "recipient")
    expect((await verify(signedResponse(settings, idp, { inResponseTo: "_request-a", destination: null }))).nameId).toBe("ada@acme.test")
  })

  it("refuses an expired assertion: Conditions, and the subject confirmation alone", async () => {
    const past = new Date(Date.now() - 5 * minute)
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", notOnOrAfter: past })), "expired")
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", subjectNotOnOrAfter: past })), "expired")
  })

  it("refuses an assertion not valid yet beyond the skew", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", notBefore: new Date(Date.now() + 10 * minute) })), "not-yet-valid")
  })

  it("refuses an assertion that does not say the user signed in (no AuthnStatement)", async () => {
    const xml = responseXml(settings, { inResponseTo: "_request-a" }).replace(/<saml:AuthnStatement[\s\S]*<\/saml:AuthnStatement>/, "")
    await expectRefused(verify(encode(signAssertion(xml, idp))), "malformed")
  })

  it("refuses another issuer, even signed by the trusted key", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", issuer: "https://evil.test/idp" })), "issuer")
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", assertionIssuer: "https://evil.test/idp" })), "issuer")
  })

  it("refuses a non-Success status, with or without a signed assertion", async () => {
    const requester = "urn:oasis:names:tc:SAML:2.0:status:Requester"
    const failure = await expectRefused(verify(encode(responseXml(settings, { inResponseTo: "_request-a", status: requester, withoutAssertion: true }))), "status")
    expect(failure.message).toContain("Requester")
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a", status: requester })), "status")
  })
})

describe("verifyResponse: binding to the request and replay", () => {
  it("refuses the second use of an assertion", async () => {
    const replay = memoryReplay()
    const response = signedResponse(settings, idp, { inResponseTo: "_request-a" })
    await verify(response, "_request-a", {}, replay)
    await expectRefused(verify(response, "_request-a", {}, replay), "replay")
  })

  it("refuses a response for request A presented by the browser that started request B", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a" }), "_request-b"), "in-response-to")
  })

  it("refuses a solicited response where no request is pending, even with IdP-initiated sign-in allowed", async () => {
    await expectRefused(verify(signedResponse(settings, idp, { inResponseTo: "_request-a" }), null, { allowIdpInitiated: true }), "in-response-to")
  })

  it("refuses a Response whose unsigned InResponseTo differs from its assertion's", async () => {
    const xml = signAssertion(responseXml(settings, { inResponseTo: "_request-a" }), idp).replace(/(<samlp:Response[^>]*InResponseTo=")_request-a"/, '$1_request-b"')
    await expectRefused(verify(encode(xml), "_request-a"), "in-response-to")
  })

  it("refuses an unsolicited response when IdP-initiated sign-in is off", async () => {
    const unsolicited = signedResponse(settings, idp, { inResponseTo: null })
    await expectRefused(verify(unsolicited, null), "unsolicited")
    await expectRefused(verify(unsolicited, "_request-a"), "unsolicited")
  })
})

describe("verifyResponse: hostile XML", () => {
  it("refuses an external entity (XXE) without reading the file or quoting it", async () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${responseXml(settings, { inResponseTo: "_request-a", nameId: "&x;" }).replace("&amp;x;", "&x;")}`
    await expectRefused(verify(encode(xml)), "malformed")
  })

  it("refuses entity expansion (billion laughs)", async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("")
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${entities}]><samlp:Response xmlns:samlp="${ns.protocol}">&l9;</samlp:Response>`
    await expectRefused(verify(encode(xml)), "malformed")
  })

  it("refuses a response over 256 KiB, something not base64, not XML, or not a Response", async () => {
    const padded = responseXml(settings, { inResponseTo: "_request-a", attributes: { padding: ["x".repeat(300 * 1024)] } })
    await expectRefused(verify(encode(padded)), "malformed")
    await expectRefused(verify("not base64!"), "malformed")
    await expectRefused(verify(encode("<samlp:Response")), "malformed")
    await expectRefused(verify(encode(signAssertion(responseXml(settings, { inResponseTo: "_request-a" }), idp).replace("</samlp:Response>", ""))), "malformed")
    await expectRefused(verify(encode(`<saml:Assertion xmlns:saml="${ns.assertion}"/>`)), "malformed")
  })
})
