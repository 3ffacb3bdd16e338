/**
 * Review: the sign-in page's SSO section, the address page (`GET sso`) and the management page
 * (`sso/manage`, `sso/manage/act`): what they show to whom, what they escape, and their forms'
 * CSRF and tenant checks. Each test passes when the attack fails.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { keyPair, type KeyPair } from "../saml/fixtures.js"
import { origin } from "../world.js"
import { samlConnection, twoOrgs, type Browser } from "./helpers.js"

let key: KeyPair
beforeAll(async () => {
  key = await keyPair("idp")
})

async function world() {
  const t = await twoOrgs()
  const acmeSaml = await samlConnection(t.ada, t.acme.id, key, { name: "Acme Secret Okta <b>x</b>" }, "acme")
  return { ...t, acmeSaml }
}

const form = (browser: Browser, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  browser.send("sso/manage/act", { body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded", origin, ...headers } })

describe("the sign-in page's SSO section", () => {
  it("names no organization or connection, and carries only a same-origin callbackUrl, escaped", async () => {
    const { w } = await world()
    const visitor = new w.Browser()
    for (const callbackUrl of ['"><script>alert(1)</script>', "https://evil.example/x", "javascript:alert(1)", `${origin}/ok"onmouseover="alert(1)`]) {
      const page = await (await visitor.send("signin", { query: { callbackUrl } })).text()
      expect(page).toContain('id="sso-section-email"')
      expect(page).not.toContain("<script>alert(1)")
      expect(page).not.toContain("Acme")
      expect(page).not.toContain("Secret Okta")
      expect(page).not.toContain('"onmouseover="')
      const hidden = /<form[^>]*class="sso"[\s\S]*?name="callbackUrl" value="([^"]*)"/.exec(page)?.[1]
      expect(hidden, callbackUrl).toBeDefined()
      expect(new URL(hidden!.replace(/&amp;/g, "&")).origin, callbackUrl).toBe(origin)
    }
  })

  it("the address page escapes what it echoes and its start never leaves the origin for callbackUrl", async () => {
    const { w, acme } = await world()
    const visitor = new w.Browser()
    const page = await (await visitor.send("sso", { query: { callbackUrl: '"><img src=x onerror=alert(1)>', error: "<b>x</b>" } })).text()
    expect(page).not.toContain("<img src=x")
    expect(page).not.toContain("<b>x</b>")
    const started = await visitor.send("sso/start", { json: { csrfToken: await visitor.csrf(), organization: acme.slug, email: '"><script>alert(1)</script>@acme.test' } })
    expect(await started.text()).not.toContain("<script>alert(1)")
  })
})

describe("the management page", () => {
  it("shows another organization's connections to no one but its admins (by id in the query)", async () => {
    const { w, gil, acme, acmeSaml } = await world()
    const cy = await w.user("cy@example.com")
    for (const who of [gil, cy]) {
      const answer = await who.send("sso/manage", { query: { organizationId: acme.id } })
      const text = await answer.text()
      expect(answer.status).toBe(404)
      expect(text).not.toContain(acmeSaml.id)
      expect(text).not.toContain("Secret Okta")
    }
    const stranger = new w.Browser()
    const signedOut = await stranger.send("sso/manage", { query: { organizationId: acme.id } })
    expect(new URL(signedOut.headers.get("location")!).pathname).toBe("/auth/signin")
  })

  it("escapes a connection's name on its own admins' page", async () => {
    const { ada, acme } = await world()
    const text = await (await ada.send("sso/manage", { query: { organizationId: acme.id } })).text()
    expect(text).toContain("Secret Okta &lt;b&gt;")
    expect(text).not.toContain("<b>x</b>")
  })

  it("acts on nothing of another organization: its connection id with the attacker's organization or with the victim's", async () => {
    const { gil, acme, globex, ada, acmeSaml } = await world()
    for (const action of ["disable", "delete", "enable"]) {
      for (const organizationId of [globex.id, acme.id]) {
        const answer = await form(gil, { csrfToken: await gil.csrf(), action, organizationId, connectionId: acmeSaml.id })
        expect(new URL(answer.headers.get("location")!).searchParams.get("error"), `${action} ${organizationId}`).toBe("NotFound")
      }
    }
    expect(await ada.api("getConnection", acme.id, acmeSaml.id)).toMatchObject({ enabled: true })
    // And creating a connection in Acme from Globex's owner.
    const created = await form(gil, { csrfToken: await gil.csrf(), action: "create-saml", organizationId: acme.id, name: "evil", metadata: "<x/>" })
    expect(new URL(created.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
    expect(await ada.api("listConnections", acme.id)).toHaveLength(1)
  })

  it("refuses a cross-site form, a form without the token and a token of another browser (CSRF)", async () => {
    const { w, ada, acme, acmeSaml } = await world()
    const token = await ada.csrf()
    const fields = { action: "delete", organizationId: acme.id, connectionId: acmeSaml.id }
    const crossSite = await form(ada, { csrfToken: token, ...fields }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" })
    expect(crossSite.status).toBe(403)
    const noToken = await form(ada, fields)
    expect(noToken.headers.get("location") ?? "").not.toContain("done=delete")
    const attacker = new w.Browser()
    const foreign = await form(ada, { csrfToken: await attacker.csrf(), ...fields })
    expect(foreign.headers.get("location") ?? "").not.toContain("done=delete")
    expect(await ada.api("getConnection", acme.id, acmeSaml.id)).toMatchObject({ id: acmeSaml.id })
  })

  it("sends the browser back to its own page whatever organizationId or action says (no open redirect)", async () => {
    const { ada } = await world()
    for (const organizationId of ["//evil.example", "https://evil.example", "x&done=delete", "../../x"]) {
      const answer = await form(ada, { csrfToken: await ada.csrf(), action: "nope", organizationId })
      const to = new URL(answer.headers.get("location")!)
      expect(to.origin).toBe(origin)
      expect(to.pathname).toBe("/auth/sso/manage")
      expect(to.searchParams.get("done")).toBeNull()
    }
  })

  it("refuses metadata with an XML entity (XXE) or an external DTD", async () => {
    const { ada, acme } = await world()
    const xxe = `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&x;"/>`
    const answer = await ada.post("sso/connections/create", { organizationId: acme.id, protocol: "saml", name: "x", metadata: xxe })
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).not.toContain("root:")
  })
})
