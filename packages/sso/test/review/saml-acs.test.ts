/**
 * Review: attacks on the SAML assertion consumer service (`POST sso/saml/acs?connection=`), with
 * forged responses from test IdP keys (fixtures.ts). Each test passes when the attack fails.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { encode, keyPair, responseXml, signAssertion, type KeyPair } from "../saml/fixtures.js"
import { origin } from "../world.js"
import { membersOf, outcome, postAcs, responseFor, samlConnection, sessionSet, settingsOf, startSaml, twoOrgs } from "./helpers.js"

let acmeKey: KeyPair
let globexKey: KeyPair
beforeAll(async () => {
  ;[acmeKey, globexKey] = await Promise.all([keyPair("acme-idp"), keyPair("globex-idp")])
})

async function world(acmeExtra: Record<string, unknown> = {}, globexExtra: Record<string, unknown> = {}) {
  const t = await twoOrgs()
  const acmeSaml = await samlConnection(t.ada, t.acme.id, acmeKey, acmeExtra, "acme")
  const globexSaml = await samlConnection(t.gil, t.globex.id, globexKey, globexExtra, "globex")
  return { ...t, acmeSaml, globexSaml }
}

describe("SAML ACS: the harness itself", () => {
  it("signs in grace@acme.test through Acme's connection (control: the forged flow is accepted when it is right)", async () => {
    const { w, ada, acme, acmeSaml } = await world()
    const grace = new w.Browser()
    const { requestId, relayState } = await startSaml(grace, { email: "grace@acme.test", callbackUrl: `${origin}/dashboard` })
    const answer = await postAcs(grace, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState })
    expect(outcome(answer).location).toBe(`${origin}/dashboard`)
    expect((await grace.session()).user.email).toBe("grace@acme.test")
    expect((await membersOf(ada, acme.id)).map((m) => m.email)).toContain("grace@acme.test")
  })
})

describe("SAML ACS: responses moved between connections and organizations", () => {
  it("refuses a response signed by Acme's IdP key posted to Globex's ACS, even shaped for Globex (audience, recipient, issuer, InResponseTo)", async () => {
    const { w, globexSaml } = await world()
    await w.user("dan@globex.test")
    const attacker = new w.Browser()
    const { requestId, relayState } = await startSaml(attacker, { email: "dan@globex.test" })
    const answer = await postAcs(attacker, globexSaml.id, { SAMLResponse: responseFor(globexSaml, acmeKey, { inResponseTo: requestId, nameId: "dan@globex.test" }), RelayState: relayState })
    expect(outcome(answer)).toMatchObject({ path: "/auth/sso", error: "SamlRefused" })
    expect(sessionSet(answer)).toBe(false)
    expect(await attacker.session()).toBeNull()
  })

  it("refuses Globex's genuine response at Acme's ACS when Acme's admin registered Globex's public IdP certificate and entity ID (audience is per connection)", async () => {
    const { w, ada, acme, globexSaml } = await world()
    const dan = await w.user("dan@globex.test")
    // Acme's admin copies Globex's IdP metadata (public) into a connection of Acme that allows IdP-initiated sign-in.
    const copy = await samlConnection(ada, acme.id, globexKey, { idpEntityId: globexSaml.saml!.idpEntityId, allowIdpInitiated: true }, "copy")
    // A response Globex's IdP issued for Globex's connection (e.g. taken from Dan's browser), posted to the copy.
    const genuine = responseFor(globexSaml, globexKey, { inResponseTo: null, nameId: "dan@globex.test" })
    const attacker = new w.Browser()
    const answer = await postAcs(attacker, copy.id, { SAMLResponse: genuine })
    expect(outcome(answer)).toMatchObject({ path: "/auth/sso", error: "SamlRefused" })
    expect(await attacker.session()).toBeNull()
    expect(await w.adapter.getUserByAccount!({ provider: `sso-${copy.id}`, providerAccountId: "dan@globex.test" })).toBeNull()
    expect((await dan.session()).user.email).toBe("dan@globex.test")
  })

  it("refuses a response for connection X posted with the RelayState of a sign-in the same browser started at connection Y", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    const acmeStart = await startSaml(browser, { email: "grace@acme.test" })
    const globexStart = await startSaml(browser, { email: "dan@globex.test" })
    // Acme's response (answering Acme's request) with Globex's RelayState.
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: acmeStart.requestId, nameId: "grace@acme.test" }), RelayState: globexStart.relayState })
    expect(outcome(answer).error).toMatch(/^Saml/)
    expect(await browser.session()).toBeNull()
  })

  it("refuses a response answering connection Y's request, posted to connection X with X's RelayState", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    // Globex first: the browser's cookie is then Acme's sign-in's, so only InResponseTo is wrong.
    const globexStart = await startSaml(browser, { email: "dan@globex.test" })
    const acmeStart = await startSaml(browser, { email: "grace@acme.test" })
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: globexStart.requestId, nameId: "grace@acme.test" }), RelayState: acmeStart.relayState })
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(await browser.session()).toBeNull()
  })

  it("refuses a response whose ACS URL names another connection than the one it was made for (connection query swapped)", async () => {
    const { w, ada, acme, acmeSaml } = await world()
    // Two connections of Acme trusting the same key: a response for the first posted to the second.
    const second = await samlConnection(ada, acme.id, acmeKey, {}, "acme-2")
    const browser = new w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
    const answer = await postAcs(browser, second.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState })
    expect(outcome(answer).error).toMatch(/^Saml/)
    expect(await browser.session()).toBeNull()
  })
})

describe("SAML ACS: bound to the browser", () => {
  it("refuses browser A's response and RelayState posted from browser B (without A's cookie, or with B's own)", async () => {
    const { w, acmeSaml } = await world()
    const victim = new w.Browser()
    const { requestId, relayState } = await startSaml(victim, { email: "grace@acme.test" })
    const response = responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" })
    const other = new w.Browser()
    await startSaml(other, { email: "grace@acme.test" }) // B holds a saml cookie of its own
    const answer = await postAcs(other, acmeSaml.id, { SAMLResponse: response, RelayState: relayState })
    expect(outcome(answer).error).toBe("SamlUnsolicited")
    expect(await other.session()).toBeNull()
    const bare = new w.Browser()
    expect(outcome(await postAcs(bare, acmeSaml.id, { SAMLResponse: response, RelayState: relayState })).error).toMatch(/^Saml/)
    expect(await bare.session()).toBeNull()
  })

  it("refuses the same response posted twice by the browser that asked for it", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
    const fields = { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState }
    expect(sessionSet(await postAcs(browser, acmeSaml.id, fields))).toBe(true)
    expect(sessionSet(await postAcs(browser, acmeSaml.id, fields))).toBe(false)
  })
})

describe("SAML ACS: IdP-initiated", () => {
  it("is refused by a connection that does not allow it", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: null, nameId: "grace@acme.test" }) })
    expect(outcome(answer).error).toBe("SamlUnsolicited")
    expect(await browser.session()).toBeNull()
  })

  it("when allowed, still refuses a response that answers some other browser's request, and never redirects off the origin by a posted callbackUrl", async () => {
    const { w, acmeSaml } = await world({ allowIdpInitiated: true })
    const victim = new w.Browser()
    const { requestId } = await startSaml(victim, { email: "grace@acme.test" })
    const attacker = new w.Browser()
    const stolen = await postAcs(attacker, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }) })
    expect(outcome(stolen).error).toBe("SamlRefused")
    expect(await attacker.session()).toBeNull()

    const unsolicited = await postAcs(new w.Browser(), acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: null, nameId: "grace@acme.test" }), callbackUrl: "https://evil.example/phish" })
    expect(outcome(unsolicited).location).not.toContain("evil.example")
    expect(new URL(outcome(unsolicited).location!).origin).toBe(origin)
  })

  it("is refused once the connection is disabled, even with a pending request", async () => {
    const { w, ada, acme, acmeSaml } = await world()
    const browser = new w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
    await ada.api("updateConnection", acme.id, acmeSaml.id, { enabled: false })
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState })
    expect(outcome(answer).error).toBe("NoConnection")
    expect(await browser.session()).toBeNull()
  })
})

describe("SAML ACS: where the browser goes afterwards", () => {
  it("never leaves the origin by the callbackUrl recorded at start, nor by one posted with the response", async () => {
    const { w, acmeSaml } = await world()
    for (const callbackUrl of ["https://evil.example/x", "//evil.example/x", "javascript:alert(1)", `${origin}.evil.example/`, "https:evil.example"]) {
      const browser = new w.Browser()
      const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test", callbackUrl })
      const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState, callbackUrl: "https://evil.example/posted" })
      const to = outcome(answer).location!
      expect(new URL(to).origin, callbackUrl).toBe(origin)
    }
  })

  it("goes where the browser's own start said, not where the posted form says", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test", callbackUrl: `${origin}/mine` })
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: responseFor(acmeSaml, acmeKey, { inResponseTo: requestId, nameId: "grace@acme.test" }), RelayState: relayState, callbackUrl: `${origin}/theirs` })
    expect(outcome(answer).location).toBe(`${origin}/mine`)
  })
})

describe("SAML ACS: sizes", () => {
  it("refuses a body over the limit (413) and an oversized SAMLResponse without trying to verify it", async () => {
    const { w, acmeSaml } = await world()
    const browser = new w.Browser()
    const { relayState } = await startSaml(browser, { email: "grace@acme.test" })
    const huge = await postAcs(browser, acmeSaml.id, { SAMLResponse: "A".repeat(3 * 1024 * 1024), RelayState: relayState })
    expect(huge.status).toBe(413)
    const { requestId, relayState: second } = await startSaml(browser, { email: "grace@acme.test" })
    // Just under the body limit, over the SAML limit: a valid signed response padded with whitespace-free junk in an attribute.
    const padded = encode(signAssertion(responseXml(settingsOf(acmeSaml), { inResponseTo: requestId, nameId: "grace@acme.test", attributes: { email: ["grace@acme.test"], junk: ["x".repeat(400 * 1024)] } }), acmeKey))
    const answer = await postAcs(browser, acmeSaml.id, { SAMLResponse: padded, RelayState: second })
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(await browser.session()).toBeNull()
  })

  it("refuses an entity-expansion (billion laughs) response quickly", async () => {
    const { w, acmeSaml } = await world({ allowIdpInitiated: true })
    const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&f;</samlp:Response>`
    const started = Date.now()
    const answer = await postAcs(new w.Browser(), acmeSaml.id, { SAMLResponse: encode(bomb) })
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
