/**
 * Encrypted assertions at the SAML layer (service-provider.ts with `decryption`): the working flow,
 * signed then encrypted by a test IdP (fixtures.ts), beside each attack on it. A decrypted
 * assertion must be signed and meet every check a plain one meets; what cannot be decrypted, or
 * names a refused algorithm, or comes without a key to decrypt it, is refused with its own code,
 * never with anything but a SamlError.
 */
import { DOMParser, XMLSerializer } from "@xmldom/xmldom"
import { beforeAll, describe, expect, it } from "vitest"
import type { SamlErrorCode } from "../../src/saml/errors.js"
import { verifyResponse, type SamlConnectionSettings, type SamlReplayCache } from "../../src/saml/service-provider.js"
import { connection, editXml, expectRefused, encode, encryptAssertion, encryptedResponse, encryptXml, keyPair, responseXml, signAssertion, signResponse, type KeyPair } from "./fixtures.js"

const ns = { assertion: "urn:oasis:names:tc:SAML:2.0:assertion", xenc: "http://www.w3.org/2001/04/xmlenc#" }
const gcm = "http://www.w3.org/2009/xmlenc11#aes256-gcm"
const cbc = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"

let idp: KeyPair
let sp: KeyPair
let otherSp: KeyPair
let settings: SamlConnectionSettings

beforeAll(async () => {
  ;[idp, sp, otherSp] = await Promise.all([keyPair("idp"), keyPair("sp"), keyPair("other-sp")])
  settings = connection([idp.certificate], { decryption: sp })
})

function memoryReplay(): SamlReplayCache {
  const seen = new Set<string>()
  return { seen: async (id) => seen.has(id) || (seen.add(id), false) }
}

function verify(samlResponse: string, requestId: string | null = "_request-a", overrides: Partial<SamlConnectionSettings> = {}, replay = memoryReplay()) {
  return verifyResponse({ ...settings, ...overrides }, { SAMLResponse: samlResponse }, { requestId }, replay)
}

/** A signed assertion for `nameId` answering `_request-a`, as XML (not encrypted). */
const signedXml = (options: Parameters<typeof responseXml>[1] = { inResponseTo: "_request-a" }) => signAssertion(responseXml(settings, options), idp)

describe("an encrypted assertion: the working flow", () => {
  it("is decrypted with the service provider's key and read as a plain one (AES-256-GCM, and AES-128-CBC as SimpleSAMLphp sends)", async () => {
    for (const encryptionAlgorithm of [gcm, cbc]) {
      const assertion = await verify(await encryptedResponse(settings, idp, sp.certificate, { inResponseTo: "_request-a", nameId: "grace@acme.test", attributes: { email: ["grace@acme.test"], groups: ["staff"] } }, { encryptionAlgorithm }))
      expect(assertion, encryptionAlgorithm).toMatchObject({ issuer: settings.idpEntityId, nameId: "grace@acme.test", attributes: { email: ["grace@acme.test"], groups: ["staff"] } })
    }
  })

  it("is accepted inside a signed Response too, its own signature still required", async () => {
    const both = signResponse(await encryptAssertion(signedXml(), sp.certificate), idp)
    expect((await verify(encode(both))).nameId).toBe("ada@acme.test")
    // The Response's signature covers the ciphertext, not a signature on the assertion inside it.
    const responseOnly = signResponse(await encryptAssertion(responseXml(settings, { inResponseTo: "_request-a" }), sp.certificate), idp)
    await expectRefused(verify(encode(responseOnly)), "signature")
  })

  it("still reads a plain signed assertion when the service provider has a key", async () => {
    expect((await verify(encode(signedXml()))).nameId).toBe("ada@acme.test")
  })
})

describe("an encrypted assertion: refused", () => {
  it("when the decrypted assertion is not signed", async () => {
    await expectRefused(verify(encode(await encryptAssertion(responseXml(settings, { inResponseTo: "_request-a" }), sp.certificate))), "signature")
  })

  it("when it is signed by another key than the connection's (anyone can encrypt to the public certificate)", async () => {
    const mallory = await keyPair("mallory")
    await expectRefused(verify(await encryptedResponse(settings, mallory, sp.certificate, { inResponseTo: "_request-a", nameId: "mallory@acme.test" })), "signature")
  })

  it("when it was encrypted to another key, as a code of its own and not a crash", async () => {
    for (const encryptionAlgorithm of [gcm, cbc]) {
      await expectRefused(verify(await encryptedResponse(settings, idp, otherSp.certificate, { inResponseTo: "_request-a" }, { encryptionAlgorithm })), "decryption")
    }
  })

  it("when its ciphertext was changed (GCM's tag; CBC's padding or the XML it turns into)", async () => {
    for (const encryptionAlgorithm of [gcm, cbc]) {
      const xml = await encryptAssertion(signedXml(), sp.certificate, { encryptionAlgorithm })
      const tampered = editXml(xml, (doc) => {
        // The last CipherValue is the EncryptedData's (the first is the EncryptedKey's).
        const values = doc.getElementsByTagNameNS(ns.xenc, "CipherValue")
        const value = values[values.length - 1]!
        const bytes = Buffer.from(value.textContent!, "base64")
        bytes[bytes.length - 20]! ^= 0x01
        value.textContent = bytes.toString("base64")
      })
      // GCM fails its tag; CBC a padding or the XML: one code whichever, as a padding oracle would want to tell them apart.
      await expectRefused(verify(encode(tampered)), "decryption")
    }
  })

  it("without a key, with its own code saying to configure the service provider key", async () => {
    const error = await expectRefused(verify(await encryptedResponse(settings, idp, sp.certificate, { inResponseTo: "_request-a" }), "_request-a", { decryption: undefined }), "encrypted")
    expect(error.message).toMatch(/serviceProvider/)
  })

  it("when it names RSA PKCS#1 v1.5 key transport or 3DES, before any decryption", async () => {
    for (const encryption of [{ keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-1_5" }, { encryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#tripledes-cbc" }]) {
      await expectRefused(verify(encode(await encryptAssertion(signedXml(), sp.certificate, encryption))), "decryption")
    }
  })

  it("when it is the same signed assertion again, encrypted anew or sent plain (replay goes by the assertion's ID)", async () => {
    const replay = memoryReplay()
    const plain = signedXml()
    await verify(encode(await encryptAssertion(plain, sp.certificate)), "_request-a", {}, replay)
    await expectRefused(verify(encode(await encryptAssertion(plain, sp.certificate)), "_request-a", {}, replay), "replay")
    await expectRefused(verify(encode(plain), "_request-a", {}, replay), "replay")
  })

  it("when the decrypted assertion fails any check a plain one must meet: audience, recipient, time, InResponseTo, issuer", async () => {
    const cases: [Parameters<typeof responseXml>[1], SamlErrorCode][] = [
      [{ inResponseTo: "_request-a", audience: "https://other-sp.example" }, "audience"],
      [{ inResponseTo: "_request-a", recipient: "https://other-sp.example/acs" }, "recipient"],
      [{ inResponseTo: "_request-a", notOnOrAfter: new Date(Date.now() - 10 * 60_000), subjectNotOnOrAfter: new Date(Date.now() - 10 * 60_000) }, "expired"],
      [{ inResponseTo: "_request-b" }, "in-response-to"],
      [{ inResponseTo: null }, "unsolicited"],
      [{ inResponseTo: "_request-a", assertionIssuer: "https://evil-idp.example" }, "issuer"],
    ]
    for (const [options, code] of cases) await expectRefused(verify(await encryptedResponse(settings, idp, sp.certificate, options)), code)
  })
})

describe("an encrypted assertion: wrapping", () => {
  /** Mallory's unsigned assertion, as XML of its own. */
  const evilAssertion = () => {
    const xml = responseXml(settings, { inResponseTo: "_request-a", nameId: "mallory@evil.test" })
    return new DOMParser().parseFromString(xml, "text/xml").getElementsByTagNameNS(ns.assertion, "Assertion")[0]!
  }

  it("refuses a genuine EncryptedAssertion beside a plain unsigned Assertion, in either order", async () => {
    const genuine = await encryptAssertion(signedXml({ inResponseTo: "_request-a", nameId: "grace@acme.test" }), sp.certificate)
    for (const before of [true, false]) {
      const mixed = editXml(genuine, (doc) => {
        const encrypted = doc.getElementsByTagNameNS(ns.assertion, "EncryptedAssertion")[0]!
        const evil = doc.importNode(evilAssertion(), true)
        encrypted.parentNode!.insertBefore(evil, before ? encrypted : encrypted.nextSibling)
      })
      await expectRefused(verify(encode(mixed)), "signature")
    }
  })

  it("refuses a genuine signed Assertion beside an EncryptedAssertion of an unsigned one", async () => {
    // Serialized on its own, the assertion declares the saml prefix it uses.
    const evilEncrypted = await encryptXml(new XMLSerializer().serializeToString(evilAssertion()), sp.certificate)
    const mixed = editXml(signedXml(), (doc) => {
      const wrapper = doc.createElementNS(ns.assertion, "saml:EncryptedAssertion")
      wrapper.appendChild(doc.importNode(new DOMParser().parseFromString(evilEncrypted, "text/xml").documentElement, true))
      doc.documentElement.appendChild(wrapper)
    })
    await expectRefused(verify(encode(mixed)), "signature")
  })

  it("refuses an EncryptedAssertion holding two assertions, a genuine one wrapped in something else, or no assertion", async () => {
    const signed = new XMLSerializer().serializeToString(new DOMParser().parseFromString(signedXml(), "text/xml").getElementsByTagNameNS(ns.assertion, "Assertion")[0]!)
    for (const content of [`${signed}${signed}`, `<x:Wrapper xmlns:x="urn:x">${signed}</x:Wrapper>`, `<x:Wrapper xmlns:x="urn:x"/>`]) {
      const encrypted = await encryptXml(content, sp.certificate)
      const xml = editXml(responseXml(settings, { inResponseTo: "_request-a", withoutAssertion: true }), (doc) => {
        const wrapper = doc.createElementNS(ns.assertion, "saml:EncryptedAssertion")
        wrapper.appendChild(doc.importNode(new DOMParser().parseFromString(encrypted, "text/xml").documentElement, true))
        doc.documentElement.appendChild(wrapper)
      })
      await expectRefused(verify(encode(xml)), "decryption")
    }
  })

  it("refuses an entity expansion hidden in the ciphertext, quickly", async () => {
    const bomb = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">]><saml:Assertion xmlns:saml="${ns.assertion}" ID="_x">&e;</saml:Assertion>`
    const encrypted = await encryptXml(bomb, sp.certificate)
    const xml = editXml(responseXml(settings, { inResponseTo: "_request-a", withoutAssertion: true }), (doc) => {
      const wrapper = doc.createElementNS(ns.assertion, "saml:EncryptedAssertion")
      wrapper.appendChild(doc.importNode(new DOMParser().parseFromString(encrypted, "text/xml").documentElement, true))
      doc.documentElement.appendChild(wrapper)
    })
    const started = Date.now()
    await expectRefused(verify(encode(xml)), "decryption")
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
