/**
 * The SSO tests' world: the organizations tests' world (Sesame on the memory adapter, browsers
 * that sign in with credentials) with the SSO module beside the organizations module, domains
 * proven by writing what a successful verification writes (the DNS proof itself is the
 * organizations module's, tested there), and the dev IdP as an organization's identity provider.
 */
import { startDevIdp, type DevIdp, type DevIdpAccount } from "@sesame/dev-idp"
import { domainModel } from "@sesame/organizations"
import { sso, type ConnectionInfo, type SsoOptions } from "@sesame/sso"
import { freePort } from "@sesame/testing"
import { expect } from "vitest"
import { atProvider } from "../../core/test/oauth/harness.js"
import { makeWorld, origin } from "../../organizations/test/world.js"

export { origin }

export const clientSecret = "acme-sso-client-secret-0123456789abcdef"

/** A world with the SSO module; `sso` options besides `organizations`. */
export type World = ReturnType<typeof makeWorld>

export function ssoWorld(options: Omit<SsoOptions, "organizations"> = { allowPrivateNetworks: true }, world: Omit<NonNullable<Parameters<typeof makeWorld>[0]>, "plugins"> = {}): World {
  return makeWorld({ ...world, plugins: (orgs) => [sso({ organizations: orgs, ...options })] })
}

/** Marks `domain` proven by `organizationId`, as `verifyDomain` does once DNS answers. */
export async function proveDomain(w: World, organizationId: string, domain: string): Promise<void> {
  const now = new Date()
  await w.adapter.store!.create(domainModel, {
    id: crypto.randomUUID(),
    organizationId,
    domain,
    verificationToken: crypto.randomUUID(),
    verifiedAt: now,
    verifiedDomain: domain,
    autoJoin: false,
    joinRoles: ["member"],
    createdAt: now,
  })
}

/** The dev IdP's people: their ids are their addresses, which the IdP selects by `login_hint`. */
export const people: DevIdpAccount[] = [
  { id: "grace@acme.test", email: "grace@acme.test", name: "Grace Hopper" },
  { id: "dan@globex.test", email: "dan@globex.test", name: "Dan (not Acme's)" },
  { id: "linus@acme.test", email: "linus@acme.test", name: "Linus", email_verified: false },
]

/**
 * An OIDC connection of `organizationId`, made through the server function by `admin`, and the dev
 * IdP serving it (started on the issuer the connection names, with the redirect URI it reports).
 */
export async function oidcConnection(
  admin: { api(name: string, ...args: unknown[]): Promise<any> },
  organizationId: string,
  extra: Record<string, unknown> = {},
  /** The app's origin when it is served elsewhere than the world's (a browser test's server). */
  appOrigin?: string,
): Promise<{ connection: ConnectionInfo; idp: DevIdp }> {
  const port = await freePort()
  const connection = (await admin.api("createConnection", organizationId, {
    protocol: "oidc",
    name: "Acme IdP",
    issuer: `http://127.0.0.1:${port}`,
    clientId: "acme-app",
    clientSecret,
    ...extra,
  })) as ConnectionInfo
  const idp = await startDevIdp({ port, clients: [{ client_id: "acme-app", client_secret: clientSecret, redirect_uris: [appOrigin ? `${appOrigin}/auth/callback/${connection.providerId}` : connection.oidc!.redirectUri] }], accounts: people })
  return { connection, idp }
}

/** The IdP's answer to the authorization request `started` sent the browser to: the URL it sends the browser back to (under the app's `/auth/`). */
export async function idpAnswer(started: Response): Promise<string> {
  expect(started.status, "the start sends the browser to the IdP").toBe(302)
  const location = started.headers.get("location")!
  const answer = await atProvider(location, `${origin}/auth/callback/`)
  if (answer.kind !== "redirect") throw new Error("the dev IdP answered with a form; these tests use the query response mode")
  return answer.url.slice(`${origin}/auth/`.length)
}

/** What a browser ends with after the identity provider: the app's answer at the callback. */
export async function throughIdp(browser: InstanceType<World["Browser"]>, started: Response): Promise<Response> {
  return browser.send(await idpAnswer(started))
}
