/**
 * A SAML connection end to end in Chromium, with Debian's SimpleSAMLphp as Acme's identity
 * provider: Grace gives her work address on the sign-in page, signs in at SimpleSAMLphp, and comes
 * back signed in and a member of Acme. Beside the flow, the attacks on it: the same response
 * posted again, the response of one browser pushed into another (login CSRF), a sign-in started
 * at the IdP while the connection does not allow it, and Acme's IdP vouching for an address at a
 * domain Globex proved.
 *
 * The app has a service provider key pair (`serviceProvider`). Initech's connection signs its
 * AuthnRequests, and SimpleSAMLphp knows Initech's SP by that certificate: it checks the request's
 * signature (`validate.authnrequest`) and encrypts the signed assertion to it
 * (`assertion.encryption`). Beside that flow: the same connection's unsigned request, refused by
 * the IdP.
 */
import type { Browser, BrowserContext, Page, Request as BrowserRequest } from "playwright-core"
import { Auth } from "@sesame/core"
import { launchBrowser, serve, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serviceProviderOf } from "../src/saml-settings.js"
import { keyPair, type KeyPair } from "./saml/fixtures.js"
import { startSimpleSamlPhp, type SimpleSamlPhp } from "./simplesamlphp.js"
import { proveDomain, ssoWorld, type World } from "./world.js"

let browser: Browser
let server: TestServer
let idp: SimpleSamlPhp
let w: World
let app: string
let ada: Awaited<ReturnType<World["user"]>>
let acme: { id: string; slug: string }
let connectionId: string
let spEntityId: string
let spKey: KeyPair
let initech: { id: string; slug: string }
let ian: Awaited<ReturnType<World["user"]>>
let initechConnectionId: string

const password = "correct horse battery"

beforeAll(async () => {
  spKey = await keyPair("app.example")
  w = ssoWorld({ allowPrivateNetworks: true, serviceProvider: spKey })
  ada = await w.user("ada@example.com")
  const gil = await w.user("gil@example.com")
  acme = await w.organization(ada, "Acme")
  const globex = await w.organization(gil, "Globex")
  await proveDomain(w, acme.id, "acme.test")
  await proveDomain(w, globex.id, "globex.test")
  await w.user("dan@globex.test")
  ian = await w.user("ian@example.com")
  initech = await w.organization(ian, "Initech")
  await proveDomain(w, initech.id, "initech.test")

  server = await serve((request) => Auth(request, w.config))
  // localhost, as the IdP calls itself: one site for the browser, so the Lax cookie rides along the IdP's form.
  app = server.origin.replace("127.0.0.1", "localhost")
  // The IdP must know the connection's entity ID and ACS, which name the connection: made first
  // with a stand-in certificate, then given the IdP's metadata.
  const standIn = await keyPair("stand-in")
  const created = await ada.api("createConnection", acme.id, { protocol: "saml", name: "Acme SAML", idpEntityId: "https://stand-in.example", ssoUrl: "https://stand-in.example/sso", certificates: [standIn.certificate] })
  connectionId = created.id
  const sp = serviceProviderOf(`${app}/auth`, connectionId)
  spEntityId = sp.spEntityId
  const signing = await ian.api("createConnection", initech.id, { protocol: "saml", name: "Initech SAML", idpEntityId: "https://stand-in.example", ssoUrl: "https://stand-in.example/sso", certificates: [standIn.certificate], signRequests: true })
  initechConnectionId = signing.id
  const initechSp = serviceProviderOf(`${app}/auth`, initechConnectionId)
  ;[idp, browser] = await Promise.all([
    startSimpleSamlPhp({
      sp: [
        { entityId: sp.spEntityId, acsUrl: sp.acsUrl },
        // The certificate as an IdP console takes it: from the connection's answer.
        { entityId: initechSp.spEntityId, acsUrl: initechSp.acsUrl, certificate: signing.saml.spCertificate, validateAuthnRequest: true, encryptAssertion: true },
      ],
      users: [
        { username: "grace", password, attributes: { email: ["grace@acme.test"], givenName: ["Grace"], sn: ["Hopper"] } },
        { username: "dan", password, attributes: { email: ["dan@globex.test"], displayName: ["Not Dan"] } },
        { username: "ines", password, attributes: { email: ["ines@initech.test"], givenName: ["Ines"], sn: ["Initech"] } },
      ],
    }),
    launchBrowser(),
  ])
  await ada.api("updateConnection", acme.id, connectionId, { metadata: idp.metadataXml })
  await ian.api("updateConnection", initech.id, initechConnectionId, { metadata: idp.metadataXml })
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await idp?.stop()
})

/** The sign-in page in a fresh browser, the work address given; the page is at the IdP, at the URL `sentTo` says (the AuthnRequest). */
async function toIdp(email: string): Promise<{ context: BrowserContext; page: Page; sentTo: () => URL; acsPost: () => { body: string } }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  let posted: { body: string } | undefined
  let sent: URL | undefined
  page.on("request", (request: BrowserRequest) => {
    if (request.method() === "POST" && request.url().includes("/sso/saml/acs")) posted = { body: request.postData() ?? "" }
    if (request.url().startsWith(`${idp.origin}/saml2/idp/SSOService.php`)) sent ??= new URL(request.url())
  })
  await page.goto(`${app}/auth/signin?callbackUrl=${encodeURIComponent(`${app}/auth/session`)}`)
  await page.fill("#sso-section-email", email)
  await Promise.all([page.waitForURL((url) => url.origin === idp.origin), page.press("#sso-section-email", "Enter")])
  return { context, page, sentTo: () => sent!, acsPost: () => posted! }
}

/** The sign-in page in a fresh browser, the work address given, the IdP's form filled; the page is back at the app. */
async function signInAs(username: string, email: string): Promise<{ context: BrowserContext; page: Page; sentTo: () => URL; acsPost: () => { body: string } }> {
  const started = await toIdp(email)
  await atIdp(started.page, username)
  return started
}

/** The SAML Response a form posted to the ACS, decoded. */
const postedResponse = (body: string) => Buffer.from(new URLSearchParams(body).get("SAMLResponse")!, "base64").toString("utf8")

/** Signs in at SimpleSAMLphp's form; waits until the browser is back at the app. */
async function atIdp(page: Page, username: string): Promise<void> {
  await page.fill('input[name="username"]', username)
  await page.fill('input[name="password"]', password)
  await Promise.all([page.waitForURL((url) => url.origin === app && !url.pathname.startsWith("/auth/sso/saml")), page.click("#submit_button")])
}

/** The session as the app reports it to this browser (its cookies; the built-in pages' CSP allows no script's fetch). */
async function sessionOf(page: Page): Promise<{ user?: { email: string; name: string } } | null> {
  return (await page.context().request.get(`${app}/auth/session`)).json()
}

describe("a SAML connection, with SimpleSAMLphp as the IdP", () => {
  it("publishes the service provider's metadata with the entity ID and ACS the IdP needs", async () => {
    const response = await fetch(`${app}/auth/sso/saml/metadata?connection=${connectionId}`)
    expect(response.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/)
    const xml = await response.text()
    expect(xml).toContain(`entityID="${spEntityId.replace(/&/g, "&amp;")}"`)
    expect(xml).toContain("/sso/saml/acs?connection=")
    expect((await fetch(`${app}/auth/sso/saml/metadata?connection=nope`)).status).toBe(404)
  })

  it("signs Grace in from her work address, and makes her a member of Acme", async () => {
    const { context, page } = await signInAs("grace", "grace@acme.test")
    expect(new URL(page.url()).pathname).toBe("/auth/session")
    expect((await sessionOf(page))?.user).toMatchObject({ email: "grace@acme.test", name: "Grace Hopper" })
    const members = (await ada.get("organization/members", { organizationId: acme.id })).body as { user: { email: string }; roles: string[] }[]
    expect(members.find((m) => m.user.email === "grace@acme.test")?.roles).toEqual(["member"])
    const grace = await w.adapter.getUserByEmail!("grace@acme.test")
    expect(await w.adapter.getUserByAccount!({ provider: `sso-${connectionId}`, providerAccountId: "grace@acme.test" })).toMatchObject({ id: grace!.id })
    await context.close()
  }, 60_000)

  it("refuses the same response posted again, and the response pushed into another browser", async () => {
    const { context, acsPost } = await signInAs("grace", "grace@acme.test")
    const cookies = (await context.cookies(app)).map((c) => `${c.name}=${c.value}`).join("; ")
    const { body } = acsPost()
    const post = (cookie?: string) =>
      fetch(`${app}/auth/sso/saml/acs?connection=${connectionId}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.origin, ...(cookie ? { cookie } : {}) },
        body,
      })
    for (const [label, answer] of [
      ["replayed in the same browser", await post(cookies)],
      ["pushed into another browser", await post()],
    ] as const) {
      expect(answer.status, label).toBe(302)
      const to = new URL(answer.headers.get("location")!)
      expect(to.pathname, label).toBe("/auth/sso")
      expect(to.searchParams.get("error"), label).toMatch(/^Saml/)
      expect(answer.headers.getSetCookie().some((c) => c.includes("session-token=") && !c.includes("Max-Age=0")), label).toBe(false)
    }
    await context.close()
  }, 60_000)

  it("refuses a sign-in started at the IdP (IdP-initiated) while the connection does not allow it", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${idp.origin}/saml2/idp/SSOService.php?spentityid=${encodeURIComponent(spEntityId)}`)
    await atIdp(page, "grace")
    const url = new URL(page.url())
    expect(url.pathname).toBe("/auth/sso")
    expect(url.searchParams.get("error")).toBe("SamlUnsolicited")
    expect(await page.locator(".alert").count()).toBe(1)
    expect(await sessionOf(page)).toBeNull()
    await context.close()
  }, 60_000)

  it("never lets Acme's IdP sign in as a user at Globex's domain, nor bring them into Acme", async () => {
    const { context, page } = await signInAs("dan", "grace@acme.test")
    const url = new URL(page.url())
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await sessionOf(page)).toBeNull()
    const members = (await ada.get("organization/members", { organizationId: acme.id })).body as { user: { email: string } }[]
    expect(members.map((m) => m.user.email)).not.toContain("dan@globex.test")
    await context.close()
  }, 60_000)

  it("signs Initech's AuthnRequest, which SimpleSAMLphp checks; the assertion comes back encrypted to the app's key, and Ines is signed in, a member of Initech", async () => {
    const { context, page, sentTo, acsPost } = await signInAs("ines", "ines@initech.test")
    expect(sentTo().searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    expect(sentTo().searchParams.get("Signature")).toEqual(expect.any(String))
    const response = postedResponse(acsPost().body)
    expect(response).toMatch(/<saml:EncryptedAssertion[\s>]/)
    expect(response).not.toMatch(/<saml:Assertion[\s>]/)
    expect(new URL(page.url()).pathname).toBe("/auth/session")
    expect((await sessionOf(page))?.user).toMatchObject({ email: "ines@initech.test", name: "Ines Initech" })
    const members = (await ian.get("organization/members", { organizationId: initech.id })).body as { user: { email: string }; roles: string[] }[]
    expect(members.find((m) => m.user.email === "ines@initech.test")?.roles).toEqual(["member"])
    // Acme's connection, which does not sign, still gets plain signed assertions beside it.
    expect(postedResponse((await signInAs("grace", "grace@acme.test")).acsPost().body)).toMatch(/<saml:Assertion[\s>]/)
    await context.close()
  }, 90_000)

  it("refuses the same replayed encrypted response at the ACS", async () => {
    const { context, acsPost } = await signInAs("ines", "ines@initech.test")
    const cookies = (await context.cookies(app)).map((c) => `${c.name}=${c.value}`).join("; ")
    const again = await fetch(`${app}/auth/sso/saml/acs?connection=${initechConnectionId}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.origin, cookie: cookies },
      body: acsPost().body,
    })
    expect(again.status).toBe(302)
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toMatch(/^Saml/)
    expect(again.headers.getSetCookie().some((c) => c.includes("session-token=") && !c.includes("Max-Age=0"))).toBe(false)
    await context.close()
  }, 60_000)

  it("is refused by SimpleSAMLphp once Initech's connection stops signing its requests", async () => {
    await ian.api("updateConnection", initech.id, initechConnectionId, { signRequests: false })
    try {
      const { context, page, sentTo } = await toIdp("ines@initech.test")
      expect(sentTo().searchParams.has("Signature")).toBe(false)
      await page.waitForLoadState()
      expect(await page.locator('input[name="username"]').count()).toBe(0)
      expect(await page.content()).toMatch(/no signature found on message/i)
      await context.close()
    } finally {
      await ian.api("updateConnection", initech.id, initechConnectionId, { signRequests: true })
    }
  }, 60_000)
})
