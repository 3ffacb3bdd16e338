/**
 * Review: the connections as core providers (`signin/sso-<id>`, `callback/sso-<id>`), the start
 * endpoint and the dev IdP as an organization's OpenID Connect IdP. Each test passes when the
 * attack fails.
 */
import { startDevIdp, type DevIdp, type DevIdpAccount } from "@sesame/dev-idp"
import { freePort } from "@sesame/testing"
import { afterEach, describe, expect, it } from "vitest"
import { clientSecret, idpAnswer, oidcConnection, origin, throughIdp } from "../world.js"
import { membersOf, samlConnection, twoOrgs, type Browser } from "./helpers.js"
import { keyPair } from "../saml/fixtures.js"
import { vouchesFor } from "../../src/providers.js"

let idps: DevIdp[] = []
afterEach(async () => {
  await Promise.all(idps.map((idp) => idp.close()))
  idps = []
})

async function withOidc() {
  const t = await twoOrgs()
  const { connection, idp } = await oidcConnection(t.ada, t.acme.id)
  idps.push(idp)
  return { ...t, connection, idp }
}

async function start(browser: Browser, fields: Record<string, string>): Promise<Response> {
  return browser.send("sso/start", { json: { csrfToken: await browser.csrf(), ...fields } })
}

const external = (answer: Response) => {
  const location = answer.headers.get("location")
  return location !== null && new URL(location).origin !== origin
}

describe("module providers at the core's signin and callback", () => {
  it("serve no SAML connection, no unknown id, and no id with traversal or encoded characters", async () => {
    const { w, ada, acme, connection } = await withOidc()
    const saml = await samlConnection(ada, acme.id, await keyPair("k"), {}, "acme")
    const browser = new w.Browser()
    const token = await browser.csrf()
    const ids = [
      `sso-${saml.id}`,
      "sso-",
      "sso",
      `sso-${connection.id}%2F..%2F..%2Fsession`,
      `sso-..%2F${connection.id}`,
      `sso-%2e%2e`,
      `sso-${connection.id}%00`,
      `sso-${connection.id}%20`,
      `sso-${connection.id.toUpperCase()}`,
      `sso-${connection.id}.`,
      `SSO-${connection.id}`,
      `sso--${connection.id}`,
      `sso-${"a".repeat(65)}`,
    ]
    for (const id of ids) {
      const signin = await browser.send(`signin/${id}`, { json: { csrfToken: token } })
      expect(external(signin), `signin/${id}`).toBe(false)
      const callback = await browser.send(`callback/${id}`, { query: { code: "x", state: "y" } })
      expect(callback.status, `callback/${id}`).not.toBe(200)
      expect(external(callback), `callback/${id}`).toBe(false)
      expect(await browser.session(), id).toBeNull()
    }
  })

  it("GET signin/sso-<id> starts nothing (a link cannot start a sign-in in a victim's browser)", async () => {
    const { w, connection } = await withOidc()
    const victim = await w.user("victim@example.com")
    const answer = await victim.send(`signin/${connection.providerId}`)
    expect(external(answer)).toBe(false)
  })

  it("a cross-site form cannot start a sign-in (login CSRF, linking the attacker's IdP account to a signed-in victim)", async () => {
    const { w, acme, connection } = await withOidc()
    const victim = await w.user("victim@example.com")
    const form = (fields: Record<string, string>) => ({
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    })
    const token = await victim.csrf()
    for (const [path, fields] of [
      ["sso/start", { organization: acme.slug }],
      ["sso/start", { organization: acme.slug, csrfToken: token }],
      [`signin/${connection.providerId}`, { csrfToken: token }],
    ] as const) {
      const answer = await victim.send(path, form(fields))
      expect(external(answer), path).toBe(false)
    }
    // And without an origin but with no token either.
    const noToken = await victim.send("sso/start", { body: new URLSearchParams({ organization: acme.slug }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } })
    expect(external(noToken)).toBe(false)
  })

  it("a code for Acme's connection delivered to another connection's callback is refused (state bound to its provider)", async () => {
    const { w, ada, gil, acme, globex, connection } = await withOidc()
    void ada
    void acme
    const other = await oidcConnection(gil, globex.id)
    idps.push(other.idp)
    const browser = new w.Browser()
    const started = await start(browser, { email: "grace@acme.test" })
    const back = await idpAnswer(started)
    const moved = back.replace(`callback/${connection.providerId}`, `callback/${other.connection.providerId}`)
    const answer = await browser.send(moved)
    expect(await browser.session()).toBeNull()
    expect(new URL(answer.headers.get("location") ?? `${origin}/`).searchParams.get("error") ?? String(answer.status)).toBeTruthy()
    expect((await membersOf(gil, globex.id)).map((m) => m.email)).toEqual(["gil@example.com"])
  })

  it("never sends the browser off the origin after the callback, whatever callbackUrl the start was given", async () => {
    const { w } = await withOidc()
    for (const callbackUrl of ["https://evil.example/", "//evil.example", "javascript:alert(1)", `${origin}@evil.example`, "/\\evil.example"]) {
      const browser = new w.Browser()
      const back = await throughIdp(browser, await start(browser, { email: "grace@acme.test", callbackUrl }))
      expect(new URL(back.headers.get("location")!).origin, callbackUrl).toBe(origin)
      expect((await browser.session()).user.email).toBe("grace@acme.test")
    }
  })
})

describe("vouchesFor (the OIDC connection's isEmailVerified)", () => {
  it("vouches only for an exact proven domain the IdP does not deny having checked", () => {
    const domains = ["acme.test"]
    expect(vouchesFor(domains, { email: "ann@acme.test" })).toBe(true)
    for (const profile of [
      { email: "ann@acme.test", email_verified: false },
      { email: "ann@acme.test", email_verified: "false" },
      { email: "ann@sub.acme.test" },
      { email: "ann@acme.test." },
      { email: "ann@acme.test.evil.example" },
      { email: "ann@acme.test@evil.example" },
      { email: "ann@ａｃｍｅ.test" },
      { email: ["ann@acme.test"] },
      { email: null },
      {},
    ]) {
      expect(vouchesFor(domains, profile as never), JSON.stringify(profile)).toBe(false)
    }
  })
})

describe("Acme's OIDC IdP asserting addresses it does not speak for", () => {
  const variants: DevIdpAccount[] = [
    { id: "upper", email: "DAN@GLOBEX.TEST", name: "x" },
    { id: "fullwidth-domain", email: "dan@ｇｌｏｂｅｘ.test", name: "x" },
    { id: "fullwidth-at", email: "dan＠globex.test", name: "x" },
    { id: "trailing-dot", email: "dan@globex.test.", name: "x" },
    { id: "double-at", email: "dan@globex.test@acme.test", name: "x" },
    { id: "space", email: "dan@globex.test ", name: "x" },
    { id: "unverified-at-acme", email: "ann@acme.test", name: "x", email_verified: false },
  ]
  it("links none of them to an existing user (Dan at Globex's domain; Ann at Acme's own, unverified by the IdP)", async () => {
    const t = await twoOrgs()
    const dan = await t.w.user("dan@globex.test")
    const ann = await t.w.user("ann@acme.test")
    const port = await freePort()
    const connection = await t.ada.api("createConnection", t.acme.id, { protocol: "oidc", name: "Acme", issuer: `http://127.0.0.1:${port}`, clientId: "acme-app", clientSecret })
    const idp = await startDevIdp({ port, clients: [{ client_id: "acme-app", client_secret: clientSecret, redirect_uris: [connection.oidc.redirectUri] }], accounts: variants })
    idps.push(idp)
    for (const account of variants) {
      const attacker = new t.w.Browser()
      await throughIdp(attacker, await start(attacker, { organization: t.acme.slug, email: "" }).then(async (r) => {
        const url = new URL(r.headers.get("location")!)
        url.searchParams.set("login_hint", account.id)
        return new Response(null, { status: 302, headers: { location: url.href } })
      }))
      const session = await attacker.session()
      const who = await t.w.adapter.getUserByAccount!({ provider: connection.providerId, providerAccountId: account.id })
      expect(who?.id, account.id).not.toBe(dan.id)
      expect(who?.id, account.id).not.toBe(ann.id)
      expect(session?.user?.email ?? null, account.id).not.toBe("dan@globex.test")
      expect(session?.user?.email ?? null, account.id).not.toBe("ann@acme.test")
      // The flow did run: the vouched odd address got a user of its own.
      if (account.id === "double-at") expect(session?.user?.email).toBe("dan@globex.test@acme.test")
    }
    expect((await dan.session()).user.email).toBe("dan@globex.test")
  })
})
