/**
 * The module's storage on a real adapter: connections written and read, an OpenID Connect sign-in
 * through the dev IdP provisioning a member, and a SAML response through the ACS (signed here, as
 * an IdP signs it) used once, then refused when posted again or from another browser: every
 * model's writes, reads, deletions and unique checks, through `Auth()` as the memory tests do.
 * No adapter has code for the module.
 */
import { inflateRawSync } from "node:zlib"
import { modelsOf } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import { connectionModel, samlAssertionModel, samlRequestModel, sso } from "@sesame/sso"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeWorld, origin } from "../../organizations/test/world.js"
import { serviceProviderOf } from "../src/saml-settings.js"
import { connection as samlSettings, keyPair, signedResponse } from "./saml/fixtures.js"
import { idpAnswer, oidcConnection, proveDomain } from "./world.js"

export function adapterTests(name: string, adapter: Adapter, migrate?: (models: ReturnType<typeof modelsOf>) => Promise<unknown>) {
  describe(`sso on ${name}`, () => {
    const w = makeWorld({ adapter, plugins: (orgs) => [sso({ organizations: orgs, allowPrivateNetworks: true })] })
    const unique = crypto.randomUUID().slice(0, 8)
    const domain = `acme-${unique}.test`
    let ada: Awaited<ReturnType<typeof w.user>>
    let acme: { id: string; slug: string }
    const closers: (() => Promise<void>)[] = []

    beforeAll(async () => {
      await migrate?.(modelsOf(w.config))
      ada = await w.user(`ada-${unique}@example.com`)
      acme = await w.organization(ada, `Acme ${unique}`)
      await proveDomain(w, acme.id, domain)
    })
    afterAll(async () => {
      for (const close of closers) await close()
    })

    it("stores connections: made, listed, changed and deleted, the secret never answered", async () => {
      const made = await ada.api("createConnection", acme.id, { protocol: "oidc", name: "Acme IdP", issuer: "http://127.0.0.1:9", clientId: "acme", clientSecret: "s3cret-value" })
      expect((await ada.api("listConnections", acme.id)).map((c: { id: string }) => c.id)).toEqual([made.id])
      const changed = await ada.api("updateConnection", acme.id, made.id, { enabled: false, roles: ["admin"] })
      expect(changed).toMatchObject({ enabled: false, roles: ["admin"], oidc: { hasClientSecret: true } })
      expect(JSON.stringify(changed)).not.toContain("s3cret-value")
      const row = await adapter.store!.findOne(connectionModel, { id: made.id })
      // Kept, sealed: a JWE in the row, not the secret.
      expect(row?.settings).toMatchObject({ issuer: "http://127.0.0.1:9", clientId: "acme" })
      expect(JSON.stringify(row)).not.toContain("s3cret-value")
      expect((row?.settings as { clientSecret: string }).clientSecret.split(".")).toHaveLength(5)
      await ada.api("deleteConnection", acme.id, made.id)
      expect(await ada.api("listConnections", acme.id)).toEqual([])
    })

    it("signs a person in through an OpenID Connect connection and makes them a member", async () => {
      const { connection, idp } = await oidcConnection(ada, acme.id)
      closers.push(() => idp.close())
      const grace = new w.Browser()
      // The dev IdP signs in its first account, grace@acme.test, whose domain is not this one:
      // a new user, an unproven address, a member all the same (its IdP signed it in).
      const started = await grace.send("sso/start", { json: { csrfToken: await grace.csrf(), organization: acme.slug } })
      await grace.send(await idpAnswer(started))
      expect((await grace.session()).user).toMatchObject({ email: "grace@acme.test" })
      const members = (await ada.get("organization/members", { organizationId: acme.id })).body as { user: { email: string } }[]
      expect(members.map((m) => m.user.email)).toContain("grace@acme.test")
      await ada.api("deleteConnection", acme.id, connection.id)
    })

    it("takes a SAML response once, from the browser that asked for it", async () => {
      const key = await keyPair(`idp-${unique}`)
      const made = await ada.api("createConnection", acme.id, { protocol: "saml", name: "Acme SAML", idpEntityId: `https://idp.${domain}`, ssoUrl: `https://idp.${domain}/sso`, certificates: [key.certificate] })
      const sp = serviceProviderOf(`${origin}/auth`, made.id)
      const settings = samlSettings([key.certificate], { idpEntityId: `https://idp.${domain}`, spEntityId: sp.spEntityId, acsUrl: sp.acsUrl })

      const browser = new w.Browser()
      const email = `linus@${domain}`
      const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), email } })
      expect(started.status).toBe(302)
      const to = new URL(started.headers.get("location")!)
      const requestXml = inflateRawSync(Buffer.from(to.searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
      const requestId = /\bID="([^"]+)"/.exec(requestXml)![1]!
      expect(await adapter.store!.count(samlRequestModel, {})).toBeGreaterThan(0)

      const form = new URLSearchParams({ SAMLResponse: signedResponse(settings, key, { inResponseTo: requestId, nameId: email, attributes: { email: [email], displayName: ["Linus"] } }), RelayState: to.searchParams.get("RelayState")! }).toString()
      const post = (who: InstanceType<typeof w.Browser>) =>
        who.send(`sso/saml/acs?connection=${made.id}`, { body: form, headers: { "content-type": "application/x-www-form-urlencoded", origin: `https://idp.${domain}` } })
      const back = await post(browser)
      expect(back.status).toBe(302)
      expect(new URL(back.headers.get("location")!).pathname).toBe("/")
      expect((await browser.session()).user).toMatchObject({ email, name: "Linus" })
      expect(await adapter.store!.count(samlAssertionModel, {})).toBeGreaterThan(0)

      for (const who of [browser, new w.Browser()]) {
        const again = await post(who)
        expect(new URL(again.headers.get("location")!).searchParams.get("error")).toMatch(/^Saml/)
      }
    })
  })
}
