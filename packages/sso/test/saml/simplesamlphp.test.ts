/**
 * End to end in Chromium against a real IdP (SimpleSAMLphp, see ../simplesamlphp.ts): a tiny
 * service provider built on service-provider.ts redirects to the IdP, the user signs in there,
 * and its ACS verifies the posted response. The AuthnRequest's ID travels in an HttpOnly
 * SameSite=Lax cookie, which reaches the ACS because the IdP is same-site (localhost).
 */
import type { Browser, Page } from "playwright-core"
import { launchBrowser, serve, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SamlError } from "../../src/saml/errors.js"
import { parseIdpMetadata } from "../../src/saml/metadata.js"
import { authnRequest, verifyResponse, type SamlConnectionSettings, type SamlReplayCache } from "../../src/saml/service-provider.js"
import { startSimpleSamlPhp, type SimpleSamlPhp } from "../simplesamlphp.js"

let browser: Browser
let idp: SimpleSamlPhp
let server: TestServer
let settings: SamlConnectionSettings
/** Another SP the IdP knows, with the same ACS: its assertions name another audience. */
let otherSpEntityId: string
/** What the ACS last received, to post again. */
let lastPost: { body: string; cookie: string } | undefined

const used = new Set<string>()
const replay: SamlReplayCache = {
  seen: async (id) => used.has(id) || (used.add(id), false),
}

const cookieName = "saml_request"
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The test SP: `/login` (`?as=other` to sign in as the other SP) and `/acs`. */
async function sp(request: Request): Promise<Response> {
  const url = new URL(request.url)
  if (request.method === "GET" && url.pathname === "/login") {
    const spEntityId = url.searchParams.get("as") === "other" ? otherSpEntityId : settings.spEntityId
    const { url: redirect, requestId } = await authnRequest({ ...settings, spEntityId }, "relay-1")
    return new Response(null, { status: 302, headers: { location: redirect, "set-cookie": `${cookieName}=${requestId}; Path=/; HttpOnly; SameSite=Lax` } })
  }
  if (request.method === "POST" && url.pathname === "/acs") {
    const body = await request.text()
    const cookie = request.headers.get("cookie") ?? ""
    lastPost = { body, cookie }
    const form = new URLSearchParams(body)
    const requestId = new RegExp(`(?:^|; )${cookieName}=([^;]+)`).exec(cookie)?.[1] ?? null
    const html = (content: string, status: number) => new Response(`<!doctype html><title>ACS</title>${content}`, { status, headers: { "content-type": "text/html; charset=utf-8" } })
    try {
      const assertion = await verifyResponse(settings, { SAMLResponse: form.get("SAMLResponse") ?? "", RelayState: form.get("RelayState") ?? "" }, { requestId }, replay)
      return html(`<pre id="assertion">${escapeHtml(JSON.stringify({ ...assertion, relayState: form.get("RelayState") }))}</pre>`, 200)
    } catch (error) {
      if (error instanceof SamlError) return html(`<p id="refused">${error.code}</p>`, 403)
      throw error
    }
  }
  return new Response("not found", { status: 404 })
}

beforeAll(async () => {
  server = await serve(sp)
  // The URLs say localhost, like the IdP's, so that both are one site for the browser.
  const origin = server.origin.replace("127.0.0.1", "localhost")
  const acsUrl = `${origin}/acs`
  otherSpEntityId = `${origin}/metadata/other`
  ;[idp, browser] = await Promise.all([
    startSimpleSamlPhp({
      sp: [
        { entityId: `${origin}/metadata`, acsUrl },
        { entityId: otherSpEntityId, acsUrl },
      ],
      users: [{ username: "ada@acme.test", password: "correct horse", attributes: { email: ["ada@acme.test"], givenName: ["Ada"], groups: ["staff", "admins"] } }],
    }),
    launchBrowser(),
  ])
  const metadata = parseIdpMetadata(idp.metadataXml)
  settings = { idpEntityId: metadata.entityId, ssoUrl: metadata.ssoUrl, certificates: metadata.certificates, spEntityId: `${origin}/metadata`, acsUrl }
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await idp?.stop()
})

/** Goes to the SP's `/login` in a fresh browser, signs in at the IdP; the page ends on the ACS. */
async function signIn(query = ""): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(`${settings.acsUrl.replace(/\/acs$/, "")}/login${query}`)
  expect(page.url().startsWith(idp.origin)).toBe(true)
  await page.fill('input[name="username"]', "ada@acme.test")
  await page.fill('input[name="password"]', "correct horse")
  await Promise.all([page.waitForURL(settings.acsUrl), page.click("#submit_button")])
  return page
}

describe("SAML sign-in at SimpleSAMLphp", () => {
  it("reads the IdP's metadata", () => {
    expect(settings.idpEntityId).toBe(idp.entityId)
    expect(settings.ssoUrl).toBe(idp.ssoUrl)
    expect(settings.certificates).toContain(idp.certificate)
  })

  it("signs in through the browser; the ACS verifies the assertion and shows it", async () => {
    const page = await signIn()
    const shown = JSON.parse(await page.locator("#assertion").innerText()) as Record<string, unknown>
    expect(shown).toMatchObject({
      issuer: idp.entityId,
      nameId: "ada@acme.test",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      attributes: { email: ["ada@acme.test"], givenName: ["Ada"], groups: ["staff", "admins"] },
      relayState: "relay-1",
    })
    expect(shown.sessionIndex).toEqual(expect.any(String))
    await page.context().close()
  })

  it("refuses the same SAMLResponse posted again (replay)", async () => {
    expect(lastPost).toBeDefined()
    const again = await fetch(`${server.origin}/acs`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: lastPost!.cookie },
      body: lastPost!.body,
    })
    expect(again.status).toBe(403)
    expect(await again.text()).toContain('<p id="refused">replay</p>')
  })

  it("refuses a response the IdP issued to another service provider (audience)", async () => {
    const page = await signIn("?as=other")
    expect(await page.locator("#refused").innerText()).toBe("audience")
    await page.context().close()
  })
})
