/**
 * docs/features/sso.md and the package README: their examples, run as written. The page's
 * configuration and its two functions on the memory adapter: Acme proves acme.test, its owner
 * connects a SAML IdP from its metadata (a key made here, as an IdP's) and an OpenID Connect one,
 * and Grace signs in through the SAML connection, started by the page's own form, answered by a
 * response signed here: a member of Acme; then the IdP provisions her over SCIM with the
 * connection's token. Beside them, what the page says is refused.
 */
import { execFileSync } from "node:child_process"
import { createVerify } from "node:crypto"
import { inflateRawSync } from "node:zlib"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Auth, callModuleApi, type AuthConfig } from "@sesame/core"
import { readmeExample } from "@sesame/testing"
import { beforeAll, describe, expect, it } from "vitest"
import { CookieJar, makeWorld, origin } from "../../organizations/test/world.js"
import { connection as samlSettings, keyPair, signedResponse, type KeyPair } from "./saml/fixtures.js"
import { proveDomain } from "./world.js"

const root = join(import.meta.dirname, "..", "..", "..")
const scratch = join(import.meta.dirname, ".scratch")
const page = join(root, "docs", "features", "sso.md")

/** Writes the example to a file of its own and imports it. */
async function load(file: string, name: string, savedAs = `${name}.ts`): Promise<any> {
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, savedAs)
  writeFileSync(path, readmeExample(file, name))
  return import(path)
}

/** The fenced block of language `lang` after the marker `name` (readmeExample reads ts only). */
function block(file: string, name: string, lang: string): string {
  const text = readFileSync(file, "utf8")
  const at = text.indexOf(`<!-- example: ${name} `)
  if (at === -1) throw new Error(`no example "${name}" in ${file}`)
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(text.slice(at))
  if (!match) throw new Error(`example "${name}" has no ${lang} block`)
  return match[1]!
}

/** An IdP's SAML metadata, as Okta or Entra ID gives it: entity ID, both sign-in bindings, one signing certificate. */
function idpMetadata(entityId: string, ssoUrl: string, key: KeyPair | null): string {
  const certificate = key
    ? `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${key.certificate.replace(/-----[A-Z ]+-----/g, "").trim()}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
    : ""
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${certificate}
<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}"/>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
</md:IDPSSODescriptor></md:EntityDescriptor>`
}

/** The key paths of a JSON value, with each leaf's type: what the page's answer and the real one must share. */
function shape(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [`${path}[]`] : shape(value[0], `${path}[]`)
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, v]) => shape(v, `${path}.${key}`)).sort()
  return [`${path}: ${typeof value}`]
}

describe("docs/features/sso.md", () => {
  let example: any
  let config: AuthConfig
  let w: ReturnType<typeof makeWorld>
  let ada: Awaited<ReturnType<typeof w.user>>
  let acme: { id: string; slug: string }
  let key: KeyPair
  const idp = { entityId: "http://www.okta.com/exk8q2w4e6r8t0y2u4i6", ssoUrl: "https://acme.okta.com/app/acme_app_1/exk8q2w4e6r8t0y2u4i6/sso/saml" }
  const as = (jar: CookieJar) => new Request(`${origin}/app`, { headers: { cookie: jar.header() } })

  /** A request to the example's configuration, with `jar`'s cookies (kept). */
  async function send(jar: CookieJar, path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: jar.header(), ...init.headers }
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      headers.origin ??= origin
    }
    const response = await Auth(new Request(`${origin}/auth/${path}`, { method: init.form ? "POST" : "GET", headers, body: init.form ? new URLSearchParams(init.form).toString() : null }), config)
    jar.apply(response)
    return response
  }
  const csrf = async (jar: CookieJar) => ((await (await send(jar, "csrf")).json()) as { csrfToken: string }).csrfToken

  beforeAll(async () => {
    example = await load(page, "sso", "sso-example.ts")
    // The example's configuration as it is, with what a deployment gives it (its secret, its host)
    // and a way for the tests' users to sign in: the world's, on the example's own adapter.
    // The example's functions call its own configuration object, so that is the one completed.
    w = makeWorld({ adapter: example.config.adapter })
    config = Object.assign(example.config as AuthConfig, { secret: w.config.secret, trustHost: true, providers: w.config.providers, logger: w.config.logger })
    ada = await w.user("ada@example.com")
    acme = (await callModuleApi(as(ada.jar), config, "createOrganization", { name: "Acme" })) as { id: string; slug: string }
    await proveDomain(w, acme.id, "acme.test")
    key = await keyPair("acme")
  })

  it("connects a SAML IdP from its metadata, and answers what to enter at the IdP", async () => {
    const answer = await example.connectSaml(as(ada.jar), acme.id, idpMetadata(idp.entityId, idp.ssoUrl, key))
    const [made] = (await callModuleApi(as(ada.jar), config, "listConnections", acme.id)) as { id: string }[]
    expect(answer).toEqual({
      acsUrl: `${origin}/auth/sso/saml/acs?connection=${made!.id}`,
      entityId: `${origin}/auth/sso/saml/metadata?connection=${made!.id}`,
    })
    // Refused, said in the answer: metadata without a signing certificate, a DOCTYPE (XXE), someone who may not manage Acme.
    expect(await example.connectSaml(as(ada.jar), acme.id, idpMetadata(idp.entityId, idp.ssoUrl, null))).toMatchObject({ refused: "InvalidInput", message: expect.stringMatching(/signing certificate/) })
    const xxe = `<!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]>${idpMetadata(idp.entityId, idp.ssoUrl, key).replace(/^<\?xml[^>]*>/, "")}`
    expect(await example.connectSaml(as(ada.jar), acme.id, xxe)).toMatchObject({ refused: "InvalidInput", message: expect.stringMatching(/DOCTYPE/) })
    const eve = await w.user("eve@example.com")
    expect(await example.connectSaml(as(eve.jar), acme.id, idpMetadata(idp.entityId, idp.ssoUrl, key))).toMatchObject({ refused: "NotFound" })
    expect(await example.connectSaml(new Request(`${origin}/app`), acme.id, idpMetadata(idp.entityId, idp.ssoUrl, key))).toMatchObject({ refused: "NotSignedIn" })
    expect(await callModuleApi(as(ada.jar), config, "listConnections", acme.id)).toHaveLength(1)
  })

  it("answers GET sso/connections/one as the page shows it", async () => {
    const [made] = (await callModuleApi(as(ada.jar), config, "listConnections", acme.id)) as { id: string }[]
    const response = await send(ada.jar, `sso/connections/one?organizationId=${acme.id}&connectionId=${made!.id}`)
    expect(response.status).toBe(200)
    const real = await response.json()
    const shown = JSON.parse(block(page, "connection-info", "json"))
    expect(shape(real)).toEqual(shape(shown))
    const { id, organizationId, providerId, saml, createdAt, updatedAt, ...rest } = shown
    expect(real).toMatchObject({ ...rest, id: made!.id, organizationId: acme.id, providerId: `sso-${made!.id}` })
    expect(real.saml).toMatchObject({ idpEntityId: saml.idpEntityId, ssoUrl: saml.ssoUrl, allowIdpInitiated: saml.allowIdpInitiated })
    for (const field of ["spEntityId", "acsUrl", "metadataUrl"] as const) {
      expect(real.saml[field]).toBe(saml[field].replace("https://app.example.com", origin).replace(id, made!.id))
    }
    expect(real.saml.certificates).toEqual([{ fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/), subject: "CN=acme", notAfter: expect.any(String) }])
  })

  it("signs Grace in through the SAML connection from the page's form, and makes her a member of Acme; the same response again is refused", async () => {
    const [made] = (await callModuleApi(as(ada.jar), config, "listConnections", acme.id)) as { id: string }[]
    const grace = new CookieJar()
    const forms = block(page, "start-forms", "html").split("</form>").filter((form) => form.includes("<form"))
    expect(forms).toHaveLength(2)
    const fields = (form: string) => Object.fromEntries([...form.matchAll(/<input[^>]*\bname="([^"]+)"(?:[^>]*\bvalue="([^"]*)")?/g)].map(([, name, value]) => [name!, value ?? ""]))
    const action = (form: string) => /action="\/auth\/([^"]+)"/.exec(form)![1]!
    const byEmail = forms[0]!
    expect(fields(byEmail)).toEqual({ csrfToken: "(from GET /auth/csrf)", callbackUrl: "/dashboard", email: "" })
    const started = await send(grace, action(byEmail), { form: { ...fields(byEmail), csrfToken: await csrf(grace), email: "grace@acme.test" } })
    expect(started.status).toBe(302)
    const to = new URL(started.headers.get("location")!)
    expect(`${to.origin}${to.pathname}`).toBe(idp.ssoUrl)
    const requestXml = inflateRawSync(Buffer.from(to.searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
    expect(requestXml).toContain('Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"')
    const requestId = /\bID="([^"]+)"/.exec(requestXml)![1]!

    const sp = { spEntityId: `${origin}/auth/sso/saml/metadata?connection=${made!.id}`, acsUrl: `${origin}/auth/sso/saml/acs?connection=${made!.id}` }
    const settings = samlSettings([key.certificate], { idpEntityId: idp.entityId, ssoUrl: idp.ssoUrl, ...sp })
    const response = signedResponse(settings, key, { inResponseTo: requestId, nameId: "grace@acme.test", attributes: { email: ["grace@acme.test"], givenName: ["Grace"], sn: ["Hopper"] } })
    const form = { SAMLResponse: response, RelayState: to.searchParams.get("RelayState")! }
    const back = await send(grace, `sso/saml/acs?connection=${made!.id}`, { form, headers: { origin: "https://acme.okta.com" } })
    expect(back.status).toBe(302)
    expect(back.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await (await send(grace, "session")).json()).user).toMatchObject({ email: "grace@acme.test", name: "Grace Hopper" })
    const members = (await callModuleApi(as(ada.jar), config, "listMembers", acme.id)) as { user: { email: string }; roles: string[] }[]
    expect(members.find((m) => m.user.email === "grace@acme.test")?.roles).toEqual(["member"])

    for (const jar of [grace, new CookieJar()]) {
      const again = await send(jar, `sso/saml/acs?connection=${made!.id}`, { form, headers: { origin: "https://acme.okta.com" } })
      expect(new URL(again.headers.get("location")!).pathname).toBe("/auth/sso")
      expect(new URL(again.headers.get("location")!).searchParams.get("error")).toMatch(/^Saml/)
    }

    // The page's second form: by the organization's slug.
    const bySlug = forms[1]!
    expect(fields(bySlug)).toEqual({ csrfToken: "(from GET /auth/csrf)", organization: "acme" })
    expect(acme.slug).toBe("acme")
    const visitor = new CookieJar()
    const bySlugStarted = await send(visitor, action(bySlug), { form: { ...fields(bySlug), csrfToken: await csrf(visitor) } })
    expect(bySlugStarted.status).toBe(302)
    expect(bySlugStarted.headers.get("location")!.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true)
    // No connection for another domain: the page again, 404, and no redirect.
    const nowhere = await send(visitor, action(byEmail), { form: { csrfToken: await csrf(visitor), email: "dan@globex.test" } })
    expect(nowhere.status).toBe(404)
    expect(nowhere.headers.get("location")).toBeNull()
  })

  it("connects an OpenID Connect IdP: its redirect URI, no secret in any answer, no issuer on a private network", async () => {
    const secret = "acme-entra-client-secret-0123456789"
    // An address literal on the public internet (a documentation range): no DNS is asked, nothing is fetched.
    const redirectUri = await example.connectOidc(as(ada.jar), acme.id, { issuer: "https://203.0.113.10/acme/v2.0", clientId: "acme-app", clientSecret: secret })
    const listed = (await callModuleApi(as(ada.jar), config, "listConnections", acme.id)) as { id: string; protocol: string; oidc?: unknown }[]
    const oidc = listed.find((c) => c.protocol === "oidc")!
    expect(redirectUri).toBe(`${origin}/auth/callback/sso-${oidc.id}`)
    expect(oidc.oidc).toEqual({ issuer: "https://203.0.113.10/acme/v2.0", clientId: "acme-app", hasClientSecret: true, redirectUri })
    const endpoint = await send(ada.jar, `sso/connections?organizationId=${acme.id}`)
    expect(endpoint.status).toBe(200)
    expect(await endpoint.text()).not.toContain(secret)
    for (const issuer of ["http://127.0.0.1:8080", "https://10.0.0.7", "https://169.254.169.254/latest", "https://[::1]"]) {
      await expect(example.connectOidc(as(ada.jar), acme.id, { issuer, clientId: "x", clientSecret: "y" }), issuer).rejects.toMatchObject({ code: "InvalidInput" })
    }
    // Roles: only the organization's own, never owner.
    for (const roles of [["auditor"], ["owner"]]) {
      const input = { protocol: "oidc", name: "Roles", issuer: "https://203.0.113.10", clientId: "x", clientSecret: "y", roles }
      await expect(callModuleApi(as(ada.jar), config, "createConnection", acme.id, input), roles[0]).rejects.toMatchObject({ code: "InvalidInput" })
    }
  })

  it("provisions through SCIM with the connection's token: Grace linked by her proven address, nothing without the token", async () => {
    const [made] = (await callModuleApi(as(ada.jar), config, "listConnections", acme.id)) as { id: string }[]
    const { token, url } = (await callModuleApi(as(ada.jar), config, "createScimToken", acme.id, made!.id)) as { token: string; url: string }
    expect(token).toMatch(/^sesame_scim_/)
    expect(url).toBe(`${origin}/auth/sso/scim/v2`)
    const scim = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
      Auth(
        new Request(`${url}/${path}`, {
          method: init.method ?? "GET",
          headers: { "content-type": "application/scim+json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
          body: init.body === undefined ? null : JSON.stringify(init.body),
        }),
        config,
      )
    expect((await scim("ServiceProviderConfig")).status).toBe(401)
    expect((await scim("ServiceProviderConfig", { token })).status).toBe(200)
    const user = (email: string) => ({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: email, emails: [{ value: email, type: "work", primary: true }], active: true })
    expect((await scim("Users", { method: "POST", token, body: user("dan@globex.test") })).status).toBe(400)
    const grace = await scim("Users", { method: "POST", token, body: user("grace@acme.test") })
    expect(grace.status).toBe(201)
    expect(await grace.json()).toMatchObject({ userName: "grace@acme.test", active: true })
    await callModuleApi(as(ada.jar), config, "revokeScimToken", acme.id, made!.id)
    expect((await scim("Users", { token })).status).toBe(401)
  })

  it("names every endpoint, service and server function of the module", () => {
    const text = readFileSync(page, "utf8")
    const module = (example.config.plugins as { id: string; routes: Record<string, unknown>; services?: Record<string, unknown>; api: Record<string, unknown> }[]).find((p) => p.id === "sso")!
    const rows = [...text.matchAll(/^\| `(GET|POST) ([^`]+)` \| `(\w+)` \|/gm)].map(([, method, path, fn]) => ({ route: `${method} ${path}`, fn: fn! }))
    for (const route of Object.keys(module.routes)) {
      const [method, path] = route.split(" ")
      expect(rows.some((r) => r.route === route) || text.includes(`\`${method} <basePath>/${path}`), route).toBe(true)
    }
    for (const prefix of Object.keys(module.services ?? {})) expect(text, prefix).toContain(`\`<basePath>/${prefix}\``)
    expect(Object.keys(module.api).filter((fn) => !rows.some((r) => r.fn === fn) && !text.includes(`\`${fn}(`))).toEqual([])
  })
})

describe("docs/features/sso.md: signed requests and encrypted assertions", () => {
  it("makes the key pair with the page's openssl command, which the page's configuration takes: a connection signs its requests, its metadata carries the certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sesame-sp-key-"))
    try {
      execFileSync("sh", ["-c", block(page, "sp-key-pair", "sh")], { cwd: dir, stdio: "ignore" })
      const certificate = readFileSync(join(dir, "sp-cert.pem"), "utf8")
      process.env.SAML_SP_PRIVATE_KEY = readFileSync(join(dir, "sp-key.pem"), "utf8")
      process.env.SAML_SP_CERTIFICATE = certificate
      const example = await load(page, "sp-key", "sso-sp-key.ts")
      const w = makeWorld({ adapter: example.config.adapter })
      const config = Object.assign(example.config as AuthConfig, { secret: w.config.secret, trustHost: true, providers: w.config.providers, logger: w.config.logger })
      const ada = await w.user("ada@example.com")
      const as = new Request(`${origin}/app`, { headers: { cookie: ada.jar.header() } })
      const org = (await callModuleApi(as, config, "createOrganization", { name: "Acme" })) as { id: string; slug: string }
      const idpKey = await keyPair("acme")
      const made = (await callModuleApi(as, config, "createConnection", org.id, { protocol: "saml", name: "Acme", idpEntityId: "https://idp.acme.example", ssoUrl: "https://idp.acme.example/sso", certificates: [idpKey.certificate], signRequests: true })) as any
      expect(made.saml).toMatchObject({ signRequests: true, spCertificate: certificate })
      const metadata = await (await Auth(new Request(made.saml.metadataUrl), config)).text()
      const body = certificate.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")
      for (const use of ["signing", "encryption"]) expect(metadata.replace(/\s+/g, "")).toContain(`<KeyDescriptoruse="${use}"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate>`)
      expect(metadata).toContain('AuthnRequestsSigned="true"')
      // The sign-in it starts is signed with the key (SAML bindings 3.4.4.1: over the query as sent).
      const jar = new CookieJar()
      const started = await Auth(new Request(`${origin}/auth/csrf`), config)
      jar.apply(started)
      const token = ((await started.json()) as { csrfToken: string }).csrfToken
      const redirect = await Auth(
        new Request(`${origin}/auth/sso/start`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie: jar.header() }, body: new URLSearchParams({ csrfToken: token, organization: org.slug }).toString() }),
        config,
      )
      const query = new URL(redirect.headers.get("location")!).search.slice(1).split("&")
      const raw = (name: string) => query.find((pair) => pair.startsWith(`${name}=`))!
      const signature = Buffer.from(decodeURIComponent(raw("Signature").slice("Signature=".length)), "base64")
      expect(createVerify("RSA-SHA256").update([raw("SAMLRequest"), raw("RelayState"), raw("SigAlg")].join("&")).verify(certificate, signature)).toBe(true)
    } finally {
      delete process.env.SAML_SP_PRIVATE_KEY
      delete process.env.SAML_SP_CERTIFICATE
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("packages/sso/README.md", () => {
  it("its configuration resolves, with the module on: the page that asks for the work address, the connections for admins only", async () => {
    const readme = await load(join(root, "packages", "sso", "README.md"), "readme")
    const config: AuthConfig = { ...readme.config, secret: "sso-readme-secret-0123456789abcdefghij", trustHost: true }
    const sso = await Auth(new Request("http://localhost:3000/auth/sso"), config)
    expect(sso.status).toBe(200)
    expect(await sso.text()).toContain('name="email"')
    const list = await Auth(new Request("http://localhost:3000/auth/sso/connections?organizationId=acme"), config)
    expect(list.status).toBe(401)
    expect(await list.json()).toMatchObject({ error: "NotSignedIn" })
  })
})
