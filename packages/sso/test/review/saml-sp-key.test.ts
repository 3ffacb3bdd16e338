/**
 * Review: the service provider's key pair (`sso({ serviceProvider })`) and what it turns on, through
 * the module's endpoints: the option's checks, `signRequests` on connections, the signed redirect
 * to the IdP, the service provider metadata, and encrypted assertions at the ACS (each attack
 * beside the working flow), and the built-in page's "Sign requests".
 */
import { createVerify, generateKeyPairSync } from "node:crypto"
import { DOMParser } from "@xmldom/xmldom"
import { organizations } from "@sesame/organizations"
import { sso, type ConnectionInfo } from "@sesame/sso"
import { beforeAll, describe, expect, it } from "vitest"
import { ssoMessages } from "../../src/messages.js"
import { encode, encryptAssertion, encryptedResponse, keyPair, responseXml, signAssertion, type KeyPair, type ResponseOptions } from "../saml/fixtures.js"
import { origin, ssoWorld } from "../world.js"
import { membersOf, outcome, postAcs, samlConnection, sessionSet, settingsOf, startSaml, twoOrgs, type Browser } from "./helpers.js"

const md = "urn:oasis:names:tc:SAML:2.0:metadata"
const dsig = "http://www.w3.org/2000/09/xmldsig#"
const rsaSha256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"

let idpKey: KeyPair
let spKey: KeyPair
let otherKey: KeyPair
beforeAll(async () => {
  ;[idpKey, spKey, otherKey] = await Promise.all([keyPair("acme-idp"), keyPair("app.example"), keyPair("other")])
})

/** Acme and Globex with an app that has the service provider key (or not), the SAML refusals' codes collected from the debug log. */
async function world(withKey = true) {
  const refusals: string[] = []
  const t = await twoOrgs({ allowPrivateNetworks: true, ...(withKey ? { serviceProvider: spKey } : {}) }, (w) => {
    w.config.debug = true
    w.config.logger!.debug = (_message: string, metadata?: unknown) => {
      const code = (metadata as { code?: unknown } | undefined)?.code
      if (typeof code === "string") refusals.push(code)
    }
  })
  return { ...t, refusals }
}

/** The PEM certificate's base64 body, as metadata carries it. */
const body = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")

/** IdP metadata for `key`, asking for signed requests or not. */
function idpMetadata(entityId: string, key: KeyPair, wantSigned: boolean): string {
  return `<md:EntityDescriptor xmlns:md="${md}" entityID="${entityId}"><md:IDPSSODescriptor WantAuthnRequestsSigned="${wantSigned}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${dsig}"><ds:X509Data><ds:X509Certificate>${body(key.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`
}

/** The raw `name=value` pair of the redirect's query, as the IdP receives it (still URL-encoded). */
function rawParam(location: URL, name: string): string | undefined {
  return location.search.slice(1).split("&").find((pair) => pair.startsWith(`${name}=`))
}

/** Whether the redirect's Signature verifies with `certificate` over `SAMLRequest=…&RelayState=…&SigAlg=…` (SAML bindings 3.4.4.1), as sent. */
function redirectSignatureVerifies(location: URL, certificate: string): boolean {
  const signed = ["SAMLRequest", "RelayState", "SigAlg"].map((name) => rawParam(location, name)!).join("&")
  const signature = Buffer.from(decodeURIComponent(rawParam(location, "Signature")!.slice("Signature=".length)), "base64")
  return createVerify("RSA-SHA256").update(signed).verify(certificate, signature)
}

describe("the serviceProvider option", () => {
  const orgs = organizations()
  const make = (serviceProvider: unknown) => () => sso({ organizations: orgs, serviceProvider: serviceProvider as never })

  it("takes an RSA key and its certificate, as openssl makes them", () => {
    expect(make(spKey)).not.toThrow()
  })

  it("refuses, as a TypeError naming the option and quoting no key, anything else", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }) as string
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }) as string
    const encrypted = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "secret" }) as string
    const cases: [unknown, RegExp][] = [
      ["a key", /`serviceProvider` must be/],
      [{ privateKey: spKey.privateKey }, /serviceProvider\.certificate/],
      [{ certificate: spKey.certificate }, /serviceProvider\.privateKey/],
      [{ privateKey: "not a key", certificate: spKey.certificate }, /serviceProvider\.privateKey/],
      [{ privateKey: encrypted, certificate: spKey.certificate }, /serviceProvider\.privateKey.*unencrypted/],
      [{ privateKey: ec, certificate: spKey.certificate }, /serviceProvider\.privateKey.*RSA/],
      [{ privateKey: small, certificate: spKey.certificate }, /serviceProvider\.privateKey.*2048/],
      [{ privateKey: spKey.privateKey, certificate: "not a certificate" }, /serviceProvider\.certificate/],
      [{ privateKey: spKey.privateKey, certificate: otherKey.certificate }, /serviceProvider\.certificate.*is not the certificate of/],
      [{ privateKey: spKey.privateKey, certificate: spKey.privateKey }, /serviceProvider\.certificate/],
    ]
    for (const [value, message] of cases) {
      let thrown: unknown
      try {
        make(value)()
      } catch (error) {
        thrown = error
      }
      expect(thrown, JSON.stringify(value)?.slice(0, 60)).toBeInstanceOf(TypeError)
      expect((thrown as Error).message).toMatch(message)
      expect((thrown as Error).message).not.toMatch(/BEGIN|MII/)
    }
  })
})

describe("signRequests on a SAML connection", () => {
  it("is refused (InvalidInput) when the app has no service provider key, on create and update; otherwise false, and no certificate shown", async () => {
    const { ada, acme } = await world(false)
    const refused = await ada.post("sso/connections/create", { organizationId: acme.id, protocol: "saml", name: "x", idpEntityId: "https://idp.example", ssoUrl: "https://idp.example/sso", certificates: [idpKey.certificate], signRequests: true })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: "InvalidInput", message: expect.stringMatching(/serviceProvider/) })
    // Metadata that asks for signed requests is still taken: the connection says unsigned.
    const made = await samlConnection(ada, acme.id, idpKey, { metadata: idpMetadata("https://idp.acme.example", idpKey, true) }, "acme")
    expect(made.saml).toMatchObject({ signRequests: false })
    expect(made.saml).not.toHaveProperty("spCertificate")
    await expect(ada.api("updateConnection", acme.id, made.id, { signRequests: true })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(ada.api("updateConnection", acme.id, made.id, { signRequests: "maybe" })).rejects.toMatchObject({ code: "InvalidInput" })
  })

  it("defaults to what the IdP's metadata asks (WantAuthnRequestsSigned) with a key, and is the admin's choice after", async () => {
    const { ada, acme } = await world()
    const wants = await samlConnection(ada, acme.id, idpKey, { metadata: idpMetadata("https://idp.acme.example", idpKey, true) }, "wants")
    const doesNot = await samlConnection(ada, acme.id, idpKey, { metadata: idpMetadata("https://idp2.acme.example", idpKey, false) }, "does-not")
    const byHand = await samlConnection(ada, acme.id, idpKey, {}, "by-hand")
    const chosen = await samlConnection(ada, acme.id, idpKey, { signRequests: true }, "chosen")
    expect([wants, doesNot, byHand, chosen].map((c: ConnectionInfo) => c.saml!.signRequests)).toEqual([true, false, false, true])
    expect(chosen.saml!.spCertificate).toBe(spKey.certificate)
    expect((await ada.api("getConnection", acme.id, chosen.id)).saml.signRequests).toBe(true)
    // Turned off by the admin, it stays off when metadata asking for it comes again; new metadata asking for it turns on one that was off.
    const off = await ada.api("updateConnection", acme.id, wants.id, { signRequests: false })
    expect(off.saml.signRequests).toBe(false)
    expect((await ada.api("updateConnection", acme.id, wants.id, { name: "renamed" })).saml.signRequests).toBe(false)
    expect((await ada.api("updateConnection", acme.id, doesNot.id, { metadata: idpMetadata("https://idp2.acme.example", idpKey, true) })).saml.signRequests).toBe(true)
  })
})

describe("the redirect to the IdP", () => {
  it("is signed (SigAlg rsa-sha256, Signature over SAMLRequest&RelayState&SigAlg as sent) when the connection signs, and verifies with the app's certificate only", async () => {
    const { w, ada, acme } = await world()
    await samlConnection(ada, acme.id, idpKey, { signRequests: true }, "acme")
    const { location } = await startSaml(new w.Browser(), { email: "grace@acme.test" })
    expect(decodeURIComponent(rawParam(location, "SigAlg")!.slice("SigAlg=".length))).toBe(rsaSha256)
    expect(redirectSignatureVerifies(location, spKey.certificate)).toBe(true)
    expect(redirectSignatureVerifies(location, otherKey.certificate)).toBe(false)
    // Another RelayState (a swapped one) does not verify.
    const swapped = new URL(location.href.replace(/RelayState=[^&]+/, "RelayState=other"))
    expect(redirectSignatureVerifies(swapped, spKey.certificate)).toBe(false)
  })

  it("is unsigned when the connection says false, with the key all the same", async () => {
    const { w, ada, acme } = await world()
    await samlConnection(ada, acme.id, idpKey, { signRequests: false }, "acme")
    const { location } = await startSaml(new w.Browser(), { email: "grace@acme.test" })
    expect(location.searchParams.has("SigAlg")).toBe(false)
    expect(location.searchParams.has("Signature")).toBe(false)
  })

  it("is unsigned once the app's key is taken out, though the connection says to sign, and signed again when it is back", async () => {
    const { w, ada, acme } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, { signRequests: true }, "acme")
    // The same store and secret, configured without the key.
    const keyless = ssoWorld({ allowPrivateNetworks: true }, { adapter: w.adapter })
    const { location } = await startSaml(new keyless.Browser(), { email: "grace@acme.test" })
    expect(location.searchParams.has("Signature")).toBe(false)
    const adaThere = await new keyless.Browser("ada@example.com").signIn()
    expect((await adaThere.api("getConnection", acme.id, made.id)).saml).toMatchObject({ signRequests: false })
    expect((await adaThere.api("getConnection", acme.id, made.id)).saml).not.toHaveProperty("spCertificate")
    const again = await startSaml(new w.Browser(), { email: "grace@acme.test" })
    expect(redirectSignatureVerifies(again.location, spKey.certificate)).toBe(true)
  })
})

describe("the service provider metadata", () => {
  /** The connection's metadata, parsed: its SPSSODescriptor's attributes and KeyDescriptors. */
  async function metadataOf(browser: Browser, connectionId: string) {
    const answer = await browser.send("sso/saml/metadata", { query: { connection: connectionId } })
    expect(answer.status).toBe(200)
    const doc = new DOMParser().parseFromString(await answer.text(), "text/xml")
    const descriptor = doc.getElementsByTagNameNS(md, "SPSSODescriptor")[0]!
    const keys = Array.from(doc.getElementsByTagNameNS(md, "KeyDescriptor")).map((key) => ({
      use: key.getAttribute("use"),
      certificate: (key.getElementsByTagNameNS(dsig, "X509Certificate")[0]?.textContent ?? "").replace(/\s+/g, ""),
    }))
    return { authnRequestsSigned: descriptor.getAttribute("AuthnRequestsSigned"), wantAssertionsSigned: descriptor.getAttribute("WantAssertionsSigned"), keys }
  }

  it("carries the app's certificate for signing and encryption with a key, AuthnRequestsSigned as the connection signs", async () => {
    const { w, ada, acme } = await world()
    const signing = await samlConnection(ada, acme.id, idpKey, { signRequests: true }, "signing")
    const notSigning = await samlConnection(ada, acme.id, idpKey, { signRequests: false }, "not-signing")
    const keys = [
      { use: "signing", certificate: body(spKey.certificate) },
      { use: "encryption", certificate: body(spKey.certificate) },
    ]
    expect(await metadataOf(new w.Browser(), signing.id)).toEqual({ authnRequestsSigned: "true", wantAssertionsSigned: "true", keys })
    expect(await metadataOf(new w.Browser(), notSigning.id)).toEqual({ authnRequestsSigned: "false", wantAssertionsSigned: "true", keys })
  })

  it("has no KeyDescriptor without a key", async () => {
    const { w, ada, acme } = await world(false)
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    expect(await metadataOf(new w.Browser(), made.id)).toEqual({ authnRequestsSigned: "false", wantAssertionsSigned: "true", keys: [] })
  })
})

describe("an encrypted assertion at the ACS", () => {
  /** A response for `info` whose assertion `idpKey` signs, then encrypted to `to`. */
  const encryptedFor = (info: ConnectionInfo, to: string, options: ResponseOptions) => encryptedResponse(settingsOf(info), idpKey, to, options)

  it("signs Grace in when it is signed, then encrypted to the app's certificate", async () => {
    const { w, ada, acme, refusals } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    const grace = new w.Browser()
    const { requestId, relayState } = await startSaml(grace, { email: "grace@acme.test", callbackUrl: `${origin}/dashboard` })
    const answer = await postAcs(grace, made.id, { SAMLResponse: await encryptedFor(made, spKey.certificate, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState })
    expect(outcome(answer).location).toBe(`${origin}/dashboard`)
    expect((await grace.session()).user.email).toBe("grace@acme.test")
    expect((await membersOf(ada, acme.id)).map((m) => m.email)).toContain("grace@acme.test")
    expect(refusals).toEqual([])
  })

  it("refuses one whose decrypted assertion is unsigned, one encrypted to another key (a redirect with an error, not a 500), and one without a key at the app", async () => {
    const { w, ada, acme, refusals } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    const post = async (samlResponse: (requestId: string) => Promise<string>) => {
      const mallory = new w.Browser()
      const { requestId, relayState } = await startSaml(mallory, { email: "grace@acme.test" })
      const answer = await postAcs(mallory, made.id, { SAMLResponse: await samlResponse(requestId), RelayState: relayState })
      expect(outcome(answer)).toMatchObject({ status: 302, path: "/auth/sso", error: "SamlRefused" })
      expect(sessionSet(answer)).toBe(false)
      expect(await mallory.session()).toBeNull()
    }
    await post(async (requestId) => encode(await encryptAssertion(responseXml(settingsOf(made), { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate)))
    await post((requestId) => encryptedFor(made, otherKey.certificate, { inResponseTo: requestId, nameId: "grace@acme.test" }))
    expect(refusals).toEqual(["signature", "decryption"])

    const keyless = await world(false)
    const there = await samlConnection(keyless.ada, keyless.acme.id, idpKey, {}, "acme")
    const browser = new keyless.w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
    const answer = await postAcs(browser, there.id, { SAMLResponse: await encryptedFor(there, spKey.certificate, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState })
    expect(outcome(answer)).toMatchObject({ status: 302, error: "SamlRefused" })
    expect(await browser.session()).toBeNull()
    expect(keyless.refusals).toEqual(["encrypted"])
  })

  it("refuses a signed-then-encrypted assertion used again: the same post, and the same assertion encrypted anew from another browser", async () => {
    const { w, ada, acme, refusals } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, { allowIdpInitiated: true }, "acme")
    const signed = signAssertion(responseXml(settingsOf(made), { inResponseTo: null, nameId: "grace@acme.test" }), idpKey)
    const first = new w.Browser()
    const fields = { SAMLResponse: encode(await encryptAssertion(signed, spKey.certificate)) }
    expect(sessionSet(await postAcs(first, made.id, fields))).toBe(true)
    expect(sessionSet(await postAcs(first, made.id, fields))).toBe(false)
    const second = new w.Browser()
    expect(sessionSet(await postAcs(second, made.id, { SAMLResponse: encode(await encryptAssertion(signed, spKey.certificate)) }))).toBe(false)
    expect(await second.session()).toBeNull()
    expect(refusals).toEqual(["replay", "replay"])
  })

  it("refuses a Response with a genuine EncryptedAssertion and an unsigned plain Assertion beside it (wrapping)", async () => {
    const { w, ada, acme, refusals } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    await w.user("mallory@acme.test")
    const browser = new w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
    const genuine = await encryptAssertion(signAssertion(responseXml(settingsOf(made), { inResponseTo: requestId, nameId: "grace@acme.test" }), idpKey), spKey.certificate)
    const evil = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(responseXml(settingsOf(made), { inResponseTo: requestId, nameId: "mallory@acme.test" }))![0]
    const mixed = genuine.replace("<saml:EncryptedAssertion>", `${evil}<saml:EncryptedAssertion>`)
    const answer = await postAcs(browser, made.id, { SAMLResponse: encode(mixed), RelayState: relayState })
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(await browser.session()).toBeNull()
    expect(refusals).toEqual(["signature"])
  })
})

describe("the built-in page", () => {
  const form = (browser: Browser, fields: Record<string, string>) =>
    browser.send("sso/manage/act", { body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded", origin } })

  it("with a key: a Sign requests box on the SAML form and on each SAML connection, which turns signing on and off", async () => {
    const { ada, acme } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    const page = async () => (await ada.send("sso/manage", { query: { organizationId: acme.id } })).text()
    const before = await page()
    expect(before).toContain('id="saml-sign-requests" name="signRequests" value="true"')
    expect(before).toMatch(/id="sign-requests-0" name="signRequests" value="true"(?! checked)/)
    expect(before).toContain("requests unsigned")
    expect(before).toContain(`readonly rows="8" aria-labelledby="sp-certificate-0-label">${spKey.certificate.trim()}`)
    const on = await form(ada, { csrfToken: await ada.csrf(), action: "sign-requests", organizationId: acme.id, connectionId: made.id, signRequests: "true" })
    expect(new URL(on.headers.get("location")!).searchParams.get("done")).toBe("sign-requests")
    expect((await ada.api("getConnection", acme.id, made.id)).saml.signRequests).toBe(true)
    const after = await page()
    expect(after).toContain('id="sign-requests-0" name="signRequests" value="true" checked')
    expect(after).toContain("requests signed")
    // Unchecked, the box sends nothing: off.
    await form(ada, { csrfToken: await ada.csrf(), action: "sign-requests", organizationId: acme.id, connectionId: made.id })
    expect((await ada.api("getConnection", acme.id, made.id)).saml.signRequests).toBe(false)
    // Added with the box checked.
    const metadata = idpMetadata("https://idp.other.example", idpKey, false)
    await form(ada, { csrfToken: await ada.csrf(), action: "create-saml", organizationId: acme.id, name: "Checked", metadata, signRequests: "true" })
    const checked = ((await ada.api("listConnections", acme.id)) as ConnectionInfo[]).find((c) => c.name === "Checked")!
    expect(checked.saml!.signRequests).toBe(true)
  })

  it("acts on no other organization's connection by the sign-requests action", async () => {
    const { gil, ada, acme } = await world()
    const made = await samlConnection(ada, acme.id, idpKey, {}, "acme")
    const answer = await form(gil, { csrfToken: await gil.csrf(), action: "sign-requests", organizationId: acme.id, connectionId: made.id, signRequests: "true" })
    expect(new URL(answer.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
    expect((await ada.api("getConnection", acme.id, made.id)).saml.signRequests).toBe(false)
  })

  it("without a key: no box, and it says requests are unsigned", async () => {
    const { ada, acme } = await world(false)
    await samlConnection(ada, acme.id, idpKey, {}, "acme")
    const text = await (await ada.send("sso/manage", { query: { organizationId: acme.id } })).text()
    expect(text).not.toContain('name="signRequests"')
    expect(text).toContain("requests unsigned")
    expect(text).toContain("this app has no service provider key")
  })

  it("has every text in all five languages, and no other", () => {
    const keys = Object.keys(ssoMessages.en).sort()
    for (const [lang, catalogue] of Object.entries(ssoMessages)) {
      expect(Object.keys(catalogue).sort(), lang).toEqual(keys)
      if (lang !== "en") for (const key of keys.filter((k) => /sign-requests|sp-certificate|no-key|requests-/.test(k))) expect(catalogue[key], `${lang} ${key}`).not.toBe(ssoMessages.en[key])
    }
  })
})
