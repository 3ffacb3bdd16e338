/**
 * Helpers for the review's attack tests: two organizations (Acme proves acme.test, Globex proves
 * globex.test), SAML connections trusting a test IdP key (fixtures.ts), a SAML sign-in started in
 * a browser (the AuthnRequest's ID and RelayState read from the redirect), and posts to the ACS as
 * the IdP's cross-site form sends them (only the SameSite=None cookie rides along).
 */
import { inflateRawSync } from "node:zlib"
import type { ConnectionInfo } from "@sesame/sso"
import { serviceProviderOf } from "../../src/saml-settings.js"
import type { SamlConnectionSettings } from "../../src/saml/service-provider.js"
import { signedResponse, type KeyPair, type ResponseOptions } from "../saml/fixtures.js"
import { origin, proveDomain, ssoWorld, type World } from "../world.js"

export type Browser = InstanceType<World["Browser"]>

type Person = Awaited<ReturnType<World["user"]>>
type Org = { id: string; slug: string }

/** `setup` runs on the world before its first request (which resolves and caches its configuration): to turn debug logs on, say. */
export async function twoOrgs(options?: Parameters<typeof ssoWorld>[0], setup?: (w: World) => void): Promise<{ w: World; ada: Person; gil: Person; acme: Org; globex: Org }> {
  const w = ssoWorld(options)
  setup?.(w)
  const ada = await w.user("ada@example.com")
  const gil = await w.user("gil@example.com")
  const acme = await w.organization(ada, "Acme")
  const globex = await w.organization(gil, "Globex")
  await proveDomain(w, acme.id, "acme.test")
  await proveDomain(w, globex.id, "globex.test")
  return { w, ada, gil, acme, globex }
}

/** A SAML connection of `organizationId` trusting `key`, made by `admin`. */
export async function samlConnection(admin: Browser, organizationId: string, key: KeyPair, extra: Record<string, unknown> = {}, tag = organizationId): Promise<ConnectionInfo> {
  return admin.api("createConnection", organizationId, {
    protocol: "saml",
    name: `SAML ${tag}`,
    idpEntityId: `https://idp-${tag}.example/metadata`,
    ssoUrl: `https://idp-${tag}.example/sso`,
    certificates: [key.certificate],
    ...extra,
  })
}

/** What the connection's IdP must put in a response for it to be accepted (audience, recipient, issuer). */
export function settingsOf(info: ConnectionInfo): SamlConnectionSettings {
  const sp = serviceProviderOf(`${origin}/auth`, info.id)
  return { idpEntityId: info.saml!.idpEntityId, ssoUrl: info.saml!.ssoUrl, certificates: [], spEntityId: sp.spEntityId, acsUrl: sp.acsUrl }
}

/** A SAML sign-in started in `browser` (`fields`: email or organization, callbackUrl): the AuthnRequest's ID and the RelayState. */
export async function startSaml(browser: Browser, fields: Record<string, string>): Promise<{ requestId: string; relayState: string; location: URL }> {
  const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), ...fields } })
  if (started.status !== 302) throw new Error(`sso/start answered ${started.status}`)
  const location = new URL(started.headers.get("location")!)
  const xml = inflateRawSync(Buffer.from(location.searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
  return { requestId: /\sID="([^"]+)"/.exec(xml)![1]!, relayState: location.searchParams.get("RelayState")!, location }
}

/** The browser's cookies a cross-site POST carries: the SameSite=None ones (the module's `saml` cookie), not the Lax session. */
export function crossSiteCookies(browser: Browser): string {
  return [...browser.jar.cookies].filter(([name]) => name.includes("sso.saml")).map(([k, v]) => `${k}=${v}`).join("; ")
}

/** Posts `fields` to the ACS of `connectionId` as the IdP's auto-submitted form does, from `browser` (its cross-site cookies only). */
export async function postAcs(browser: Browser, connectionId: string, fields: Record<string, string>, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return browser.send("sso/saml/acs", {
    query: { connection: connectionId },
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://idp.example", "sec-fetch-site": "cross-site", cookie: crossSiteCookies(browser), ...extraHeaders },
  })
}

/** A response signed by `key` for connection `info`, answering `inResponseTo`. */
export function responseFor(info: ConnectionInfo, key: KeyPair, options: ResponseOptions): string {
  return signedResponse(settingsOf(info), key, options)
}

/** Where an answer sends the browser, and the error it names. */
export function outcome(answer: Response): { status: number; path: string | null; error: string | null; location: string | null } {
  const location = answer.headers.get("location")
  const url = location ? new URL(location) : null
  return { status: answer.status, path: url?.pathname ?? null, error: url?.searchParams.get("error") ?? null, location }
}

export function sessionSet(answer: Response): boolean {
  return answer.headers.getSetCookie().some((c) => c.includes("session-token=") && !/max-age=0/i.test(c))
}

export async function membersOf(admin: Browser, organizationId: string): Promise<{ email: string; roles: string[]; userId: string }[]> {
  const members = (await admin.get("organization/members", { organizationId })).body as { userId: string; user: { email: string }; roles: string[] }[]
  return members.map((m) => ({ email: m.user.email, roles: m.roles, userId: m.userId })).sort((a, b) => a.email.localeCompare(b.email))
}
