/**
 * Review of the recent changes, as an attacker: `admit` (a linked account refused once another
 * organization proves its user's domain) on the OpenID Connect path, the sealed client secret,
 * encrypted SAML assertions at the ACS, `signRequests` and the service provider key, and SCIM
 * through the organizations module's provisioning functions. Each attack sits beside the flow it
 * must not break; a `FINDING` says what was found, and whether it is fixed (a plain `it`) or not
 * yet (an `it.fails` whose body is what should hold).
 */
import { createServer } from "node:http"
import { Auth } from "@sesame/core"
import { startDevIdp, type DevIdp, type DevIdpAccount } from "@sesame/dev-idp"
import { domainModel, memberModel } from "@sesame/organizations"
import type { ConnectionInfo } from "@sesame/sso"
import { freePort } from "@sesame/testing"
import { DOMParser, XMLSerializer } from "@xmldom/xmldom"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { logText } from "../../../core/test/helpers.js"
import { moduleSealing } from "../../../core/src/modules/sealing.js"
import { secret as appSecret } from "../../../organizations/test/world.js"
import { connectionModel } from "../../src/models.js"
import { encode, encryptAssertion, encryptXml, keyPair, responseXml, signAssertion, signResponse, type KeyPair, type ResponseOptions } from "../saml/fixtures.js"
import { clientSecret, origin, people, proveDomain, throughIdp, type World } from "../world.js"
import { membersOf, outcome, postAcs, samlConnection, settingsOf, startSaml, twoOrgs, type Browser } from "./helpers.js"

const xenc = "http://www.w3.org/2001/04/xmlenc#"
const dsig = "http://www.w3.org/2000/09/xmldsig#"
const protocol = "urn:oasis:names:tc:SAML:2.0:protocol"
const assertionNs = "urn:oasis:names:tc:SAML:2.0:assertion"
const rsa15 = "http://www.w3.org/2001/04/xmlenc#rsa-1_5"
const cbc = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"

let idps: DevIdp[] = []
let closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all([...idps.map((idp) => idp.close()), ...closers.map((close) => close())])
  idps = []
  closers = []
})

let idpKey: KeyPair
let spKey: KeyPair
beforeAll(async () => {
  ;[idpKey, spKey] = await Promise.all([keyPair("acme-idp"), keyPair("app.example")])
})

// ---------------------------------------------------------------------------------------------
// OpenID Connect helpers

/** An OIDC connection of `organizationId` made by `admin`, and a dev IdP for it with `accounts` (which checks `idpSecret`). */
async function oidcFor(admin: Browser, organizationId: string, accounts: DevIdpAccount[], name: string, idpSecret = clientSecret): Promise<ConnectionInfo> {
  const port = await freePort()
  const connection = (await admin.api("createConnection", organizationId, { protocol: "oidc", name, issuer: `http://127.0.0.1:${port}`, clientId: "app", clientSecret })) as ConnectionInfo
  idps.push(await startDevIdp({ port, clients: [{ client_id: "app", client_secret: idpSecret, redirect_uris: [connection.oidc!.redirectUri] }], accounts }))
  return connection
}

/** `sso/start` with `fields`, then through the IdP as its account `login`; the app's last answer. */
async function viaIdp(browser: Browser, fields: Record<string, string>, login: string): Promise<Response> {
  const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), ...fields } })
  const location = started.headers.get("location")
  if (started.status !== 302 || !location || new URL(location).origin === origin) return started
  const url = new URL(location)
  url.searchParams.set("login_hint", login)
  return throughIdp(browser, new Response(null, { status: 302, headers: { location: url.href } }))
}

const emailOf = async (browser: Browser): Promise<string | null> => (await browser.session())?.user?.email ?? null

/** Loses `domain` for `from` and has `to` prove it. */
async function domainChangesHands(w: World, from: string, to: string, domain: string): Promise<void> {
  await w.adapter.store!.delete(domainModel, { organizationId: from, domain })
  await proveDomain(w, to, domain)
}

describe("admit: a domain that changes hands, on the OpenID Connect path", () => {
  it("Acme's OIDC connection no longer signs in as Grace once Globex proves acme.test, nor links a new IdP subject to her; Globex's own connection then signs her in", async () => {
    const { w, ada, gil, acme, globex } = await twoOrgs()
    const grace = await w.user("grace@acme.test")
    const acmeIdp = await oidcFor(ada, acme.id, [...people, { id: "grace-2", email: "grace@acme.test", name: "Grace again" }], "Acme")
    // The working flow: Acme holds the domain, its IdP vouches, the account links to Grace.
    const first = new w.Browser()
    await viaIdp(first, { email: "grace@acme.test" }, "grace@acme.test")
    expect(await emailOf(first)).toBe("grace@acme.test")
    expect((await w.adapter.getUserByAccount!({ provider: acmeIdp.providerId, providerAccountId: "grace@acme.test" }))?.id).toBe(grace.id)

    await domainChangesHands(w, acme.id, globex.id, "acme.test")
    const attacker = new w.Browser()
    const refused = await viaIdp(attacker, { organization: acme.slug }, "grace@acme.test")
    expect(outcome(refused).error).toBe("AccessDenied")
    expect(await attacker.session()).toBeNull()
    // Another subject of Acme's IdP with Grace's address: Acme vouches for acme.test no more.
    const other = new w.Browser()
    const notLinked = await viaIdp(other, { organization: acme.slug }, "grace-2")
    expect(outcome(notLinked).error).toBe("OAuthAccountNotLinked")
    expect(await other.session()).toBeNull()

    // The legitimate case: the new owner's connection vouches for acme.test and links to Grace.
    const globexIdp = await oidcFor(gil, globex.id, people, "Globex")
    const back = new w.Browser()
    await viaIdp(back, { email: "grace@acme.test" }, "grace@acme.test")
    expect(await emailOf(back)).toBe("grace@acme.test")
    expect((await w.adapter.getUserByAccount!({ provider: globexIdp.providerId, providerAccountId: "grace@acme.test" }))?.id).toBe(grace.id)
    // And it keeps signing her in (its own organization holds the domain).
    const again = new w.Browser()
    await viaIdp(again, { email: "grace@acme.test" }, "grace@acme.test")
    expect(await emailOf(again)).toBe("grace@acme.test")
  })

  it("an account linked while signed in (any domain) is refused too once another organization proves the user's domain", async () => {
    const { w, ada, acme, globex } = await twoOrgs()
    const ivy = await w.user("ivy@initech.test")
    const acmeIdp = await oidcFor(ada, acme.id, [{ id: "ivy", email: "ivy@initech.test", name: "Ivy" }], "Acme")
    // Ivy, signed in, links her Acme IdP account (an SSO sign-in from a signed-in browser links).
    await viaIdp(ivy, { organization: acme.slug, email: "ivy" }, "ivy")
    expect((await w.adapter.getUserByAccount!({ provider: acmeIdp.providerId, providerAccountId: "ivy" }))?.id).toBe(ivy.id)
    const before = new w.Browser()
    await viaIdp(before, { organization: acme.slug }, "ivy")
    expect(await emailOf(before)).toBe("ivy@initech.test")
    await proveDomain(w, globex.id, "initech.test")
    const attacker = new w.Browser()
    expect(outcome(await viaIdp(attacker, { organization: acme.slug }, "ivy")).error).toBe("AccessDenied")
    expect(await attacker.session()).toBeNull()
  })

  // FINDING (low), fixed: `stillSpeaksFor` let through a linked user whose domain `emailDomain`
  // could not read, and `emailDomain` reads ASCII only: a user at `anna@bücher.test` was never seen
  // at `xn--bcher-kva.test` (how a proven IDN is stored), so the former IdP kept signing her in
  // after another organization proved it. Now the domain is looked for in punycode, and an
  // unreadable one is refused.
  it("a user whose address is in Unicode form is no longer signed in by the former IdP after another organization proves the domain", async () => {
    const { w, ada, acme, globex } = await twoOrgs()
    const anna = await w.user("anna@bücher.test")
    const acmeIdp = await oidcFor(ada, acme.id, [{ id: "anna", email: "anna@xn--bcher-kva.test", name: "Anna" }], "Acme")
    await viaIdp(anna, { organization: acme.slug, email: "anna" }, "anna")
    expect((await w.adapter.getUserByAccount!({ provider: acmeIdp.providerId, providerAccountId: "anna" }))?.id).toBe(anna.id)
    await proveDomain(w, globex.id, "xn--bcher-kva.test")
    const attacker = new w.Browser()
    await viaIdp(attacker, { organization: acme.slug }, "anna")
    expect(await emailOf(attacker)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// The sealed client secret

const storedSecret = async (w: World, id: string) => ((await w.adapter.store!.findOne(connectionModel, { id }))!.settings as { clientSecret: string }).clientSecret

/** An OpenID provider that serves its discovery document and records every token request (and refuses it). */
async function tokenTrap(): Promise<{ issuer: string; seen: string[] }> {
  const port = await freePort()
  const issuer = `http://127.0.0.1:${port}`
  const seen: string[] = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      if (req.url === "/.well-known/openid-configuration") {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] }))
        return
      }
      if (req.url === "/token") {
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1]
        seen.push(`${basic ? decodeURIComponent(Buffer.from(basic, "base64").toString()) : ""} ${decodeURIComponent(body)}`)
      }
      res.writeHead(req.url === "/token" ? 400 : 404, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: "invalid_grant" }))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  return { issuer, seen }
}

describe("the sealed client secret", () => {
  it("no answer carries it, sealed or not: the owner's JSON, endpoints and page say hasClientSecret only; another organization's admin and a member get NotFound", async () => {
    const { w, ada, gil, acme, globex } = await twoOrgs()
    const cy = await w.user("cy@example.com")
    await w.join(ada, acme, cy, ["member"])
    const made = await oidcFor(ada, acme.id, people, "Acme")
    const sealed = await storedSecret(w, made.id)
    const leaks = (text: string) => text.includes(clientSecret) || text.includes(sealed) || text.includes(sealed.split(".")[4] ?? sealed)
    const answers: unknown[] = [
      made,
      await ada.api("getConnection", acme.id, made.id),
      await ada.api("listConnections", acme.id),
      await ada.api("updateConnection", acme.id, made.id, { name: "Acme renamed" }),
      (await ada.get("sso/connections", { organizationId: acme.id })).body,
      (await ada.get("sso/connections/one", { organizationId: acme.id, connectionId: made.id })).body,
      (await ada.post("sso/connections/update", { organizationId: acme.id, connectionId: made.id, name: "Acme" })).body,
      await (await ada.send("sso/manage", { query: { organizationId: acme.id } })).text(),
    ]
    for (const [index, answer] of answers.entries()) expect(leaks(typeof answer === "string" ? answer : JSON.stringify(answer)), `answer ${index}`).toBe(false)
    expect((made as ConnectionInfo).oidc).toMatchObject({ hasClientSecret: true })

    for (const who of [gil, cy]) {
      for (const organizationId of [acme.id, globex.id]) {
        await expect(who.api("getConnection", organizationId, made.id)).rejects.toMatchObject({ code: "NotFound" })
        const one = await who.get("sso/connections/one", { organizationId, connectionId: made.id })
        expect(one.status).toBe(404)
        expect(leaks(JSON.stringify(one.body))).toBe(false)
        expect(leaks(await (await who.send("sso/manage", { query: { organizationId } })).text())).toBe(false)
      }
      await expect(who.api("listConnections", acme.id)).rejects.toMatchObject({ code: "NotFound" })
      await expect(who.api("updateConnection", acme.id, made.id, { clientSecret: "mine" })).rejects.toMatchObject({ code: "NotFound" })
    }
    expect(await storedSecret(w, made.id)).toBe(sealed)
  })

  it("appears in no log line, sealed or not (debug on): a sign-in, a token request the IdP refuses for a wrong secret", async () => {
    const lines: string[] = []
    const { w, ada, gil, acme, globex } = await twoOrgs(undefined, (world) => {
      world.config.debug = true
      world.config.logger = {
        error: (error: Error) => void lines.push(logText(error)),
        warn: (...args: unknown[]) => void lines.push(logText(args)),
        debug: (message: string, metadata?: unknown) => void lines.push(`${message} ${logText(metadata)}`),
      }
    })
    const acmeIdp = await oidcFor(ada, acme.id, people, "Acme")
    const globexIdp = await oidcFor(gil, globex.id, people, "Globex", "the-idp-expects-another-secret")
    const grace = new w.Browser()
    await viaIdp(grace, { email: "grace@acme.test" }, "grace@acme.test")
    expect(await emailOf(grace)).toBe("grace@acme.test")
    const dan = new w.Browser()
    const failed = await viaIdp(dan, { email: "dan@globex.test" }, "dan@globex.test")
    expect(outcome(failed).error).toBeTruthy()
    expect(await dan.session()).toBeNull()
    const text = lines.join("\n")
    expect(lines.length).toBeGreaterThan(0)
    const basic = Buffer.from(`app:${clientSecret}`).toString("base64")
    for (const needle of [clientSecret, basic, await storedSecret(w, acmeIdp.id), await storedSecret(w, globexIdp.id)]) expect(text.includes(needle)).toBe(false)
  })

  it("an update without a secret keeps the sealed one (and the sign-in); an empty or blank one is refused and changes nothing; a new one is sealed anew", async () => {
    const { w, ada, acme } = await twoOrgs()
    const made = await oidcFor(ada, acme.id, people, "Acme")
    const sealed = await storedSecret(w, made.id)
    await ada.api("updateConnection", acme.id, made.id, { name: "Renamed", enabled: true, roles: ["member"] })
    expect(await storedSecret(w, made.id)).toBe(sealed)
    const grace = new w.Browser()
    await viaIdp(grace, { email: "grace@acme.test" }, "grace@acme.test")
    expect(await emailOf(grace)).toBe("grace@acme.test")
    for (const blank of ["", "   ", null, 42]) {
      await expect(ada.api("updateConnection", acme.id, made.id, { clientSecret: blank })).rejects.toMatchObject({ code: "InvalidInput" })
    }
    expect(await storedSecret(w, made.id)).toBe(sealed)
    await ada.api("updateConnection", acme.id, made.id, { clientSecret: "a-rotated-client-secret" })
    const next = await storedSecret(w, made.id)
    expect(next).not.toBe(sealed)
    expect(await moduleSealing([appSecret]).open("sso.client-secret", next)).toEqual({ value: "a-rotated-client-secret", rotated: false })
  })

  // FINDING (medium), fixed: an update that changed the issuer (or the client id) without a new
  // secret kept the stored one, and the next sign-in sent it to the token endpoint the new issuer's
  // discovery names: any admin could read the IdP client secret the sealing and `hasClientSecret`
  // keep from them ("point the saved credential at my server"). Now such an update is refused.
  it("an admin who changes the issuer or the client id without re-entering the secret is refused, and the secret goes nowhere new", async () => {
    const { w, ada, acme } = await twoOrgs()
    const made = await oidcFor(ada, acme.id, people, "Acme")
    const trap = await tokenTrap()
    await expect(ada.api("updateConnection", acme.id, made.id, { issuer: trap.issuer })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(ada.api("updateConnection", acme.id, made.id, { clientId: "another-client" })).rejects.toMatchObject({ code: "InvalidInput" })
    // Nothing changed: the connection still starts at its own IdP, and the trap saw nothing.
    const browser = new w.Browser()
    const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), organization: acme.slug } })
    expect(new URL(started.headers.get("location")!).origin).not.toBe(trap.issuer)
    expect(trap.seen).toEqual([])
    // Changing only its name or roles keeps the secret, as before.
    await expect(ada.api("updateConnection", acme.id, made.id, { name: "Acme (new name)" })).resolves.toMatchObject({ oidc: { hasClientSecret: true } })
  })

  it("a new issuer with its new secret: the new secret (only) goes to the new issuer", async () => {
    const { w, ada, acme } = await twoOrgs()
    const made = await oidcFor(ada, acme.id, people, "Acme")
    const trap = await tokenTrap()
    await ada.api("updateConnection", acme.id, made.id, { issuer: trap.issuer, clientSecret: "the-new-idps-own-secret" })
    const browser = new w.Browser()
    const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), organization: acme.slug } })
    const location = new URL(started.headers.get("location")!)
    await browser.send(`callback/${made.providerId}`, { query: { code: "any-code", state: location.searchParams.get("state")! } })
    expect(trap.seen.join("\n")).toContain("the-new-idps-own-secret")
    expect(trap.seen.join("\n")).not.toContain(clientSecret)
  })

  it("NOTE (database write access, not a finding): a sealed secret copied into another connection's row opens there, as it is bound to no connection", async () => {
    const { w, ada, gil, acme, globex } = await twoOrgs()
    const acmeConnection = await oidcFor(ada, acme.id, people, "Acme")
    const globexConnection = await oidcFor(gil, globex.id, people, "Globex", "globex-own-secret")
    const row = await w.adapter.store!.findOne(connectionModel, { id: globexConnection.id })
    await w.adapter.store!.update(connectionModel, { id: globexConnection.id }, { settings: { ...(row!.settings as object), clientSecret: await storedSecret(w, acmeConnection.id) } })
    expect(await moduleSealing([appSecret]).open("sso.client-secret", await storedSecret(w, globexConnection.id))).toEqual({ value: clientSecret, rotated: false })
    // A salt per connection (`sso.client-secret.<connection id>`) would make the copy useless.
  })
})

// ---------------------------------------------------------------------------------------------
// SAML: encrypted assertions at the ACS

/** Acme and Globex, the app with the service provider key, a SAML connection of Acme's; the refusals' codes from the debug log. */
async function samlWorld() {
  const refusals: string[] = []
  const t = await twoOrgs({ allowPrivateNetworks: true, serviceProvider: spKey }, (w) => {
    w.config.debug = true
    w.config.logger!.debug = (_message: string, metadata?: unknown) => {
      const code = (metadata as { code?: unknown } | undefined)?.code
      if (typeof code === "string") refusals.push(code)
    }
  })
  const made = await samlConnection(t.ada, t.acme.id, idpKey, {}, "acme")
  await t.w.user("mallory@acme.test")
  return { ...t, made, refusals }
}

/** The Response `xml` for a sign-in `browser` started, posted to Acme's ACS. */
async function postXml(browser: Browser, made: ConnectionInfo, build: (requestId: string) => Promise<string>): Promise<Response> {
  const { requestId, relayState } = await startSaml(browser, { email: "grace@acme.test" })
  return postAcs(browser, made.id, { SAMLResponse: encode(await build(requestId)), RelayState: relayState })
}

const parse = (xml: string) => new DOMParser().parseFromString(xml, "text/xml")
const serialize = (doc: Document) => new XMLSerializer().serializeToString(doc)
const first = (doc: Document | Element, namespace: string, localName: string) => doc.getElementsByTagNameNS(namespace, localName)[0]!

/** The Response for `nameId` answering `requestId`, signed by Acme's IdP. */
const signedXml = (made: ConnectionInfo, options: ResponseOptions) => signAssertion(responseXml(settingsOf(made), options), idpKey)

/** Moves the Response's EncryptedAssertion into a `samlp:Extensions` after its Issuer. */
function intoExtensions(xml: string): string {
  const doc = parse(xml)
  const response = doc.documentElement
  const encrypted = first(doc, assertionNs, "EncryptedAssertion")
  const extensions = doc.createElementNS(protocol, "samlp:Extensions")
  response.removeChild(encrypted)
  extensions.appendChild(encrypted)
  response.insertBefore(extensions, first(doc, assertionNs, "Issuer").nextSibling)
  return serialize(doc)
}

/** The EncryptedKey moved out of EncryptedData's KeyInfo to beside it (in the EncryptedAssertion, or `where`), named by a RetrievalMethod. */
function byRetrievalMethod(xml: string, where: "assertion" | "extensions" = "assertion"): string {
  const doc = parse(xml)
  const data = first(doc, xenc, "EncryptedData")
  const keyInfo = Array.from(data.childNodes).find((n) => (n as Element).localName === "KeyInfo") as Element
  const key = first(keyInfo, xenc, "EncryptedKey")
  keyInfo.removeChild(key)
  key.setAttribute("Id", "k1")
  const method = doc.createElementNS(dsig, "ds:RetrievalMethod")
  method.setAttribute("URI", "#k1")
  method.setAttribute("Type", "http://www.w3.org/2001/04/xmlenc#EncryptedKey")
  keyInfo.appendChild(method)
  if (where === "assertion") data.parentNode!.appendChild(key)
  else {
    const extensions = doc.createElementNS(protocol, "samlp:Extensions")
    extensions.appendChild(key)
    doc.documentElement.insertBefore(extensions, first(doc, assertionNs, "Issuer").nextSibling)
  }
  return serialize(doc)
}

describe("SAML encrypted assertions at the ACS", () => {
  it("control: Grace's signed-then-encrypted assertion signs her in", async () => {
    const { w, made, refusals } = await samlWorld()
    const grace = new w.Browser()
    await postXml(grace, made, (requestId) => encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate))
    expect(await emailOf(grace)).toBe("grace@acme.test")
    expect(refusals).toEqual([])
  })

  it("an EncryptedAssertion inside Extensions (alone, or beside Mallory's genuine plain assertion) never signs Grace in", async () => {
    const { w, made, refusals } = await samlWorld()
    const alone = new w.Browser()
    const answer = await postXml(alone, made, async (requestId) => intoExtensions(await encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate)))
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(await alone.session()).toBeNull()

    const mallory = new w.Browser()
    await postXml(mallory, made, async (requestId) => {
      const hidden = intoExtensions(await encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate))
      const own = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedXml(made, { inResponseTo: requestId, nameId: "mallory@acme.test" }))![0]
      return hidden.replace(/(<samlp:Status>)/, `${own}$1`)
    })
    expect(await emailOf(mallory)).not.toBe("grace@acme.test")
    expect(refusals[0]).toBe("malformed")
  })

  it("two EncryptedAssertions (Mallory's and Grace's, both genuine), in either order: refused", async () => {
    const { w, made, refusals } = await samlWorld()
    for (const order of [0, 1]) {
      const browser = new w.Browser()
      const answer = await postXml(browser, made, async (requestId) => {
        const grace = await encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate)
        const mallory = await encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "mallory@acme.test" }), spKey.certificate)
        const element = (xml: string) => /<saml:EncryptedAssertion[\s\S]*<\/saml:EncryptedAssertion>/.exec(xml)![0]
        const [host, extra] = order === 0 ? [grace, mallory] : [mallory, grace]
        return host.replace(/(<saml:EncryptedAssertion)/, `${element(extra)}$1`)
      })
      expect(outcome(answer).error).toBe("SamlRefused")
      expect(await browser.session()).toBeNull()
    }
    expect(refusals).toEqual(["signature", "signature"])
  })

  it("a decrypted assertion for another audience or recipient (Globex's connection), or another issuer: refused", async () => {
    const { w, gil, globex, made, refusals } = await samlWorld()
    const theirs = await samlConnection(gil, globex.id, idpKey, {}, "globex")
    const other = settingsOf(theirs)
    for (const options of [{ audience: other.spEntityId }, { recipient: other.acsUrl }, { assertionIssuer: "https://idp-globex.example/metadata" }]) {
      const browser = new w.Browser()
      const answer = await postXml(browser, made, (requestId) => encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test", ...options }), spKey.certificate))
      expect(outcome(answer).error, JSON.stringify(options)).toBe("SamlRefused")
      expect(await browser.session()).toBeNull()
    }
    expect(refusals).toEqual(["audience", "recipient", "issuer"])
  })

  it("an EncryptedKey outside EncryptedData (RetrievalMethod): RSA-OAEP beside it works; RSA 1.5 there, nested in a key's KeyInfo, or in Extensions is refused before any RSA decryption", async () => {
    const { w, made, refusals } = await samlWorld()
    const grace = (requestId: string) => signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" })
    // The interoperable form (Shibboleth's): the key beside the data, by reference.
    const beside = new w.Browser()
    await postXml(beside, made, async (requestId) => byRetrievalMethod(await encryptAssertion(grace(requestId), spKey.certificate)))
    expect(await emailOf(beside)).toBe("grace@acme.test")

    const attempts: ((requestId: string) => Promise<string>)[] = [
      async (requestId) => byRetrievalMethod(await encryptAssertion(grace(requestId), spKey.certificate, { keyEncryptionAlgorithm: rsa15 })),
      async (requestId) => byRetrievalMethod(await encryptAssertion(grace(requestId), spKey.certificate, { keyEncryptionAlgorithm: rsa15 }), "extensions"),
      async (requestId) => {
        // An OAEP key whose own KeyInfo holds an RSA 1.5 one: the first EncryptionMethod xml-encryption meets is OAEP.
        const oaep = await encryptAssertion(grace(requestId), spKey.certificate)
        const legacy = first(parse(await encryptXml("<x/>", spKey.certificate, { keyEncryptionAlgorithm: rsa15 })), xenc, "EncryptedKey")
        const doc = parse(oaep)
        const innerKeyInfo = Array.from(first(doc, xenc, "EncryptedKey").childNodes).find((n) => (n as Element).localName === "KeyInfo") as Element
        innerKeyInfo.appendChild(doc.importNode(legacy, true))
        return serialize(doc)
      },
    ]
    for (const [index, build] of attempts.entries()) {
      const browser = new w.Browser()
      const answer = await postXml(browser, made, build)
      expect(outcome(answer), `attempt ${index}`).toMatchObject({ status: 302, error: "SamlRefused" })
      expect(await browser.session()).toBeNull()
    }
    expect(refusals).toEqual(["decryption", "decryption", "decryption"])
  })

  it("a Response the IdP signed around an encrypted assertion that is itself unsigned: refused", async () => {
    const { w, made, refusals } = await samlWorld()
    const browser = new w.Browser()
    const answer = await postXml(browser, made, async (requestId) => signResponse(await encryptAssertion(responseXml(settingsOf(made), { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate), idpKey))
    expect(outcome(answer).error).toBe("SamlRefused")
    expect(await browser.session()).toBeNull()
    expect(refusals).toEqual(["signature"])
  })

  it("no padding oracle in the browser's answer: a CBC ciphertext that no longer decrypts and one that decrypts to an unsigned assertion look the same", async () => {
    const { w, made, refusals } = await samlWorld()
    const tampered = async (requestId: string) => {
      const doc = parse(await encryptAssertion(signedXml(made, { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate, { encryptionAlgorithm: cbc }))
      const values = doc.getElementsByTagNameNS(xenc, "CipherValue")
      const value = values[values.length - 1]!
      const bytes = Buffer.from(value.textContent!, "base64")
      const at = bytes.length - 20
      bytes.writeUInt8(bytes.readUInt8(at) ^ 0x5a, at)
      value.textContent = bytes.toString("base64")
      return serialize(doc)
    }
    const unsigned = (requestId: string) => encryptAssertion(responseXml(settingsOf(made), { inResponseTo: requestId, nameId: "grace@acme.test" }), spKey.certificate, { encryptionAlgorithm: cbc })
    const answers = []
    for (const build of [tampered, unsigned]) {
      const browser = new w.Browser()
      const answer = await postXml(browser, made, build)
      answers.push({ ...outcome(answer), body: await answer.text(), cookies: answer.headers.getSetCookie().map((c) => c.split("=")[0]) })
    }
    expect(answers[0]).toEqual(answers[1])
    // Only the server's debug log tells them apart.
    expect(refusals).toEqual(["decryption", "signature"])
  })
})

// ---------------------------------------------------------------------------------------------
// signRequests and the service provider key

describe("signRequests and the service provider key", () => {
  const pem = (key: string) => key.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")

  it("only the organization's admins change it: a member and another organization's admin get NotFound through the API, the JSON endpoint and the page", async () => {
    const { w, ada, gil, acme, globex, made } = await samlWorld()
    const cy = await w.user("cy@example.com")
    await w.join(ada, acme, cy, ["member"])
    for (const who of [cy, gil]) {
      for (const organizationId of [acme.id, globex.id]) {
        await expect(who.api("updateConnection", organizationId, made.id, { signRequests: true })).rejects.toMatchObject({ code: "NotFound" })
        expect((await who.post("sso/connections/update", { organizationId, connectionId: made.id, signRequests: true })).status).toBe(404)
        const page = await who.send("sso/manage/act", {
          body: new URLSearchParams({ csrfToken: await who.csrf(), action: "sign-requests", organizationId, connectionId: made.id, signRequests: "true" }).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded", origin },
        })
        expect(new URL(page.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
      }
    }
    expect((await ada.api("getConnection", acme.id, made.id)).saml.signRequests).toBe(false)
    // The admin does.
    expect((await ada.api("updateConnection", acme.id, made.id, { signRequests: true })).saml.signRequests).toBe(true)
  })

  it("the private key is in no answer: metadata (to anyone), the admin's JSON and page, a signed redirect, the debug log", async () => {
    const lines: string[] = []
    const { w, ada, acme } = await twoOrgs({ allowPrivateNetworks: true, serviceProvider: spKey }, (world) => {
      world.config.debug = true
      world.config.logger = { error: (e: Error) => void lines.push(logText(e)), warn: (...a: unknown[]) => void lines.push(logText(a)), debug: (m: string, meta?: unknown) => void lines.push(`${m} ${logText(meta)}`) }
    })
    const made = await samlConnection(ada, acme.id, idpKey, { signRequests: true }, "acme")
    const body = pem(spKey.privateKey)
    const pieces = [0, 200, 600, 1000, body.length - 80].map((at) => body.slice(at, at + 40))
    const texts = [
      await (await new w.Browser().send("sso/saml/metadata", { query: { connection: made.id } })).text(),
      JSON.stringify(await ada.api("getConnection", acme.id, made.id)),
      JSON.stringify((await ada.get("sso/connections", { organizationId: acme.id })).body),
      await (await ada.send("sso/manage", { query: { organizationId: acme.id } })).text(),
      (await startSaml(new w.Browser(), { email: "grace@acme.test" })).location.href,
      lines.join("\n"),
    ]
    for (const [index, text] of texts.entries()) {
      expect(text.includes("PRIVATE KEY"), `text ${index}`).toBe(false)
      const decoded = (() => {
        try {
          return decodeURIComponent(text)
        } catch {
          return text
        }
      })()
      for (const piece of pieces) expect(text.includes(piece) || decoded.includes(piece), `text ${index}`).toBe(false)
    }
    expect(texts[0]).toContain(pem(spKey.certificate).slice(0, 60))
  })
})

// ---------------------------------------------------------------------------------------------
// SCIM through the organizations module's provisioning functions

const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User"
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"

async function scim(w: World, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await Auth(
    new Request(`${origin}/auth/sso/scim/v2/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/scim+json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    w.config,
  )
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

const scimUser = (email: string) => ({ schemas: [userSchema], userName: email, emails: [{ primary: true, value: email, type: "work" }], active: true })
const active = (value: boolean) => ({ schemas: [patchOp], Operations: [{ op: "Replace", path: "active", value: value ? "True" : "False" }] })

async function scimWorld() {
  const { w, ada, gil, acme, globex } = await twoOrgs()
  const oidc = { protocol: "oidc", issuer: "http://127.0.0.1:9/", clientId: "app", clientSecret }
  const acmeConnection = await ada.api("createConnection", acme.id, { ...oidc, name: "Acme" })
  const globexConnection = await gil.api("createConnection", globex.id, { ...oidc, name: "Globex" })
  const acmeToken = (await ada.api("createScimToken", acme.id, acmeConnection.id)).token as string
  const globexToken = (await gil.api("createScimToken", globex.id, globexConnection.id)).token as string
  const roles = async (organizationId: string) => Object.fromEntries((await membersOf(organizationId === acme.id ? ada : gil, organizationId)).map((m) => [m.email, m.roles]))
  return { w, ada, gil, acme, globex, acmeToken, globexToken, roles }
}

describe("SCIM through deprovision, provisionRoles and forgetDeparture", () => {
  it("an owner is never demoted through groups: admin given and taken, a group named owner, renamed to owner and back, deleted", async () => {
    const { w, ada, acme, acmeToken, roles } = await scimWorld()
    const boss = await w.user("boss@acme.test")
    await w.join(ada, acme, boss, ["owner"])
    const id = (await scim(w, acmeToken, "POST", "Users", scimUser("boss@acme.test"))).body.id as string
    const admins = (await scim(w, acmeToken, "POST", "Groups", { displayName: "admin", members: [{ value: id }] })).body.id as string
    expect((await roles(acme.id))["boss@acme.test"]).toEqual(["owner", "admin"])
    await scim(w, acmeToken, "PATCH", `Groups/${admins}`, { schemas: [patchOp], Operations: [{ op: "remove", path: `members[value eq "${id}"]` }] })
    await scim(w, acmeToken, "POST", "Groups", { displayName: "Owner", members: [{ value: id }] })
    await scim(w, acmeToken, "PATCH", `Groups/${admins}`, { schemas: [patchOp], Operations: [{ op: "add", path: "members", value: [{ value: id }] }] })
    await scim(w, acmeToken, "PATCH", `Groups/${admins}`, { schemas: [patchOp], Operations: [{ op: "Replace", path: "displayName", value: "owner" }] })
    await scim(w, acmeToken, "PATCH", `Groups/${admins}`, { schemas: [patchOp], Operations: [{ op: "Replace", path: "displayName", value: "member" }] })
    await scim(w, acmeToken, "DELETE", `Groups/${admins}`)
    expect((await roles(acme.id))["boss@acme.test"]).toContain("owner")
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, active(false))).body).toMatchObject({ status: "400", scimType: "mutability" })
    expect((await roles(acme.id))["boss@acme.test"]).toContain("owner")
    // No one else becomes an owner through a group either.
    await w.user("grace@acme.test")
    const grace = (await scim(w, acmeToken, "POST", "Users", scimUser("grace@acme.test"))).body.id as string
    await scim(w, acmeToken, "POST", "Groups", { displayName: "OWNER ", members: [{ value: grace }] })
    expect((await roles(acme.id))["grace@acme.test"]).toEqual(["member"])
  })

  it("another organization's token reaches no member of this one: not by Acme's SCIM ids, nor by deprovisioning its own resource of someone who is in both", async () => {
    const { w, ada, acme, acmeToken, globexToken, roles } = await scimWorld()
    const grace = await w.user("grace@acme.test")
    const graceId = (await scim(w, acmeToken, "POST", "Users", scimUser("grace@acme.test"))).body.id as string
    expect((await scim(w, globexToken, "PATCH", `Users/${graceId}`, active(false))).status).toBe(404)
    expect((await scim(w, globexToken, "DELETE", `Users/${graceId}`)).status).toBe(404)
    expect((await scim(w, globexToken, "POST", "Groups", { displayName: "admin", members: [{ value: graceId }] })).status).toBe(400)
    expect((await roles(acme.id))["grace@acme.test"]).toEqual(["member"])
    expect(await emailOf(grace)).toBe("grace@acme.test")
    // Dan is Globex's (globex.test) and was invited into Acme as an admin: Globex deprovisions him
    // from Globex only, and its groups change his roles in Globex only.
    const dan = await w.user("dan@globex.test")
    await w.join(ada, acme, dan, ["admin"])
    const danId = (await scim(w, globexToken, "POST", "Users", scimUser("dan@globex.test"))).body.id as string
    const group = (await scim(w, globexToken, "POST", "Groups", { displayName: "admin", members: [{ value: danId }] })).body.id as string
    await scim(w, globexToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "remove", path: "members" }] })
    await scim(w, globexToken, "PATCH", `Users/${danId}`, active(false))
    expect((await roles(acme.id))["dan@globex.test"]).toEqual(["admin"])
    expect(await w.adapter.store!.findOne(memberModel, { organizationId: acme.id, userId: dan.id })).not.toBeNull()
  })

  it("control: while Acme holds acme.test, its SCIM deactivation ends Grace's sessions, and reactivation brings her back", async () => {
    const { w, acme, acmeToken, roles } = await scimWorld()
    const grace = await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", scimUser("grace@acme.test"))).body.id as string
    await scim(w, acmeToken, "PATCH", `Users/${id}`, active(false))
    expect(await grace.session()).toBeNull()
    await scim(w, acmeToken, "PATCH", `Users/${id}`, active(true))
    expect((await roles(acme.id))["grace@acme.test"]).toEqual(["member"])
  })

  // FINDING (low), fixed: the domain-changes-hands rule that `admit` applies to sign-ins did not
  // hold for SCIM. A resource Acme provisioned while it held acme.test kept working after Globex
  // proved the domain: Acme's token could deactivate it at will, ending all of Grace's sessions in
  // the app, again and again, and reactivate it, joining her to Acme again. Now only Acme's
  // membership ends, without her sessions, and reactivation joins her to nothing.
  it("after Globex proves acme.test, Acme's SCIM no longer ends Grace's sessions", async () => {
    const { w, acme, globex, acmeToken } = await scimWorld()
    const grace = await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", scimUser("grace@acme.test"))).body.id as string
    await domainChangesHands(w, acme.id, globex.id, "acme.test")
    await scim(w, acmeToken, "PATCH", `Users/${id}`, active(false))
    expect(await emailOf(grace)).toBe("grace@acme.test")
  })

  it("after Globex proves acme.test, Acme's SCIM reactivation no longer joins Grace to Acme", async () => {
    const { w, acme, globex, acmeToken, roles } = await scimWorld()
    await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", scimUser("grace@acme.test"))).body.id as string
    await scim(w, acmeToken, "PATCH", `Users/${id}`, active(false))
    await domainChangesHands(w, acme.id, globex.id, "acme.test")
    await scim(w, acmeToken, "PATCH", `Users/${id}`, active(true))
    expect(await roles(acme.id)).not.toHaveProperty("grace@acme.test")
  })
})
