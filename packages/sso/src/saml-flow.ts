/**
 * SAML sign-in through a connection: the AuthnRequest (HTTP-Redirect), the assertion consumer
 * service where the IdP posts its answer (`POST <basePath>/sso/saml/acs?connection=<id>`, from
 * the IdP's site, so exempt from the same-origin check as an OIDC `form_post` callback is), and
 * the service provider's metadata (`GET <basePath>/sso/saml/metadata?connection=<id>`).
 *
 * A response is bound to the browser that asked for it: the AuthnRequest's ID is stored with the
 * hash of a secret kept in that browser's cookie, and found again by the RelayState; the response
 * must answer that ID (InResponseTo), from that browser, once. A response pushed into another
 * browser (login CSRF), swapped between browsers, or replayed is refused. IdP-initiated responses
 * (which answer no request, so nothing ties them to a browser) are refused unless the connection
 * allows them.
 *
 * With the app's service provider key (`SsoOptions.serviceProvider`), a connection that says
 * `signRequests` signs its AuthnRequests with it (HTTP-Redirect binding: `SigAlg` and `Signature`,
 * rsa-sha256), an EncryptedAssertion is decrypted with it, and the metadata carries its certificate.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import { StoreConflict, type ModuleRequest, type ModuleResponse, type ModuleRoute, type Store } from "@sesame/core"
import { connectionFrom, providerPrefix, type Connection } from "./connections.js"
import { emailDomain, verifiedDomains } from "./domains.js"
import { connectionModel, samlAssertionModel, samlRequestModel } from "./models.js"
import type { ServiceProviderKey } from "./options.js"
import { effectiveSignRequests, serviceProviderOf, type SamlSettings } from "./saml-settings.js"
import { SamlError } from "./saml/errors.js"
import { serviceProviderMetadata } from "./saml/metadata.js"
import { authnRequest, verifyResponse, type SamlAssertion, type SamlConnectionSettings } from "./saml/service-provider.js"
import { isId, storeOf } from "./stored.js"

/** How long a sign-in may take at the IdP. */
const requestLifetime = 10 * 60
const cookieName = "saml"
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

export type SamlConnection = Connection & { protocol: "saml" }

/** What the SAML layer needs for `connection`: its settings, and the app's key to sign (when it says so) and decrypt with. */
function settingsOf(request: Pick<ModuleRequest, "authUrl">, connection: SamlConnection, serviceProvider: ServiceProviderKey | null): SamlConnectionSettings {
  const { spEntityId, acsUrl } = serviceProviderOf(request.authUrl, connection.id)
  const settings = connection.settings as SamlSettings
  const { idpEntityId, ssoUrl, certificates, allowIdpInitiated } = settings
  return {
    idpEntityId,
    ssoUrl,
    certificates,
    allowIdpInitiated,
    spEntityId,
    acsUrl,
    ...(serviceProvider && effectiveSignRequests(settings, true) ? { signRequests: serviceProvider } : {}),
    ...(serviceProvider ? { decryption: serviceProvider } : {}),
  }
}

/** The SAML connection the query names (`connection`), enabled; null when there is none. */
async function connectionOf(request: ModuleRequest): Promise<SamlConnection | null> {
  const id = request.query.connection
  if (!isId(id)) return null
  const row = await storeOf(request).findOne(connectionModel, { id })
  const connection = row && connectionFrom(row)
  return connection && connection.enabled && connection.protocol === "saml" ? (connection as SamlConnection) : null
}

/** Sends the browser to the connection's IdP with an AuthnRequest bound to it (signed when the connection says so). */
export async function startSaml(request: ModuleRequest, connection: SamlConnection, serviceProvider: ServiceProviderKey | null): Promise<ModuleResponse> {
  const secret = randomBytes(32).toString("base64url")
  const relayState = randomBytes(24).toString("base64url")
  if (!serviceProvider && (connection.settings as SamlSettings).signRequests === true) {
    request.logger.debug("sso: this connection signs its AuthnRequests, but the app has no `serviceProvider` key: sent unsigned", { connection: connection.id })
  }
  const { url, requestId } = await authnRequest(settingsOf(request, connection, serviceProvider), relayState)
  await storeOf(request).create(samlRequestModel, {
    // Found again by the RelayState; the response must still answer `requestId` (checked below).
    id: sha256(relayState),
    connectionId: `${connection.id} ${requestId}`,
    browser: sha256(secret),
    callbackUrl: await request.callbackUrl(),
    expires: new Date(Date.now() + requestLifetime * 1000),
  })
  request.setCookie(cookieName, secret, { maxAge: requestLifetime, crossSite: true })
  return request.redirectToIdentityProvider(url)
}

/** The pending request the RelayState names, if this browser holds its cookie; it is used up either way. */
async function pendingOf(request: ModuleRequest, connection: SamlConnection): Promise<{ requestId: string; callbackUrl: string } | null> {
  const relayState = request.body.RelayState
  if (typeof relayState !== "string" || relayState.length === 0 || relayState.length > 80) return null
  const store = storeOf(request)
  const id = sha256(relayState)
  const row = await store.findOne(samlRequestModel, { id })
  if (!row) return null
  // Used once, whatever follows: a second post of the same response finds nothing.
  if ((await store.delete(samlRequestModel, { id })) === 0) return null
  const [connectionId, requestId] = String(row.connectionId).split(" ")
  const secret = request.cookie(cookieName)
  if (connectionId !== connection.id || !requestId || !secret || sha256(secret) !== row.browser) return null
  return { requestId, callbackUrl: String(row.callbackUrl) }
}

/** Records the assertion's ID until it expires anyway; true when it was recorded before. */
function replayCache(store: Store, connectionId: string) {
  return {
    async seen(assertionId: string, notOnOrAfter: Date): Promise<boolean> {
      try {
        await store.create(samlAssertionModel, { id: sha256(`${connectionId}\u0000${assertionId}`), expires: notOnOrAfter })
        return false
      } catch (error) {
        if (error instanceof StoreConflict) return true
        throw error
      }
    },
  }
}

const emailAttributes = ["email", "mail", "emailAddress", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"]
const nameAttributes = ["displayName", "name", "http://schemas.microsoft.com/identity/claims/displayname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name", "urn:oid:2.16.840.1.113730.3.1.241"]
const givenNameAttributes = ["givenName", "firstName", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "urn:oid:2.5.4.42"]
const surnameAttributes = ["sn", "surname", "lastName", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "urn:oid:2.5.4.4"]
const emailFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
const transientFormat = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient"

const first = (assertion: SamlAssertion, names: readonly string[]): string | undefined => {
  for (const name of names) {
    const value = assertion.attributes[name]?.find((v) => v.trim() !== "")
    if (value) return value.trim()
  }
  return undefined
}

/** Who the assertion is about: an address (the NameID when it is one, else the usual attributes), a name, and a stable id. */
export function personOf(assertion: SamlAssertion): { id: string | null; email: string | null; name: string | null } {
  const email = first(assertion, emailAttributes) ?? (assertion.nameIdFormat === emailFormat ? assertion.nameId : undefined) ?? null
  const given = first(assertion, givenNameAttributes)
  const surname = first(assertion, surnameAttributes)
  const name = first(assertion, nameAttributes) ?? ([given, surname].filter(Boolean).join(" ") || null)
  // A transient NameID changes at every sign-in: the address stands in as the account's id.
  const id = assertion.nameIdFormat === transientFormat ? (email ? email.toLowerCase() : null) : assertion.nameId
  return { id, email, name }
}

async function acs(request: ModuleRequest, serviceProvider: ServiceProviderKey | null): Promise<ModuleResponse> {
  const refused = (code: string) => ({ redirect: `${request.authUrl}/sso?error=${encodeURIComponent(code)}` })
  const connection = await connectionOf(request)
  if (!connection) return refused("NoConnection")
  const settings = settingsOf(request, connection, serviceProvider)
  const pending = await pendingOf(request, connection)
  request.setCookie(cookieName, "", { maxAge: 0, crossSite: true })
  if (!pending && !settings.allowIdpInitiated) {
    request.logger.debug("sso: a SAML response that answers no request of this browser was refused", { connection: connection.id })
    return refused("SamlUnsolicited")
  }
  let assertion: SamlAssertion
  try {
    const form = { SAMLResponse: String(request.body.SAMLResponse ?? "") }
    assertion = await verifyResponse(settings, form, { requestId: pending?.requestId ?? null }, replayCache(storeOf(request), connection.id))
  } catch (error) {
    if (!(error instanceof SamlError)) throw error
    request.logger.debug("sso: a SAML response was refused", { connection: connection.id, code: error.code })
    return refused("SamlRefused")
  }
  const person = personOf(assertion)
  if (!person.id) return refused("SamlRefused")
  const domains = await verifiedDomains(storeOf(request), connection.organizationId)
  const domain = emailDomain(person.email)
  return request.signIn({
    providerId: `${providerPrefix}${connection.id}`,
    providerName: connection.name,
    providerAccountId: person.id,
    user: { email: person.email, name: person.name },
    profile: { nameId: assertion.nameId, nameIdFormat: assertion.nameIdFormat, issuer: assertion.issuer, attributes: assertion.attributes },
    // The organization proved the domain, so its IdP speaks for addresses there, and nowhere else.
    emailVerified: domain !== null && domains.includes(domain),
    // An IdP-initiated response answers no request of this browser: never linked to whoever is signed in here.
    boundToBrowser: pending !== null,
    ...(pending ? { callbackUrl: pending.callbackUrl } : {}),
  })
}

export function samlRoutes(serviceProvider: ServiceProviderKey | null): Record<string, ModuleRoute> {
  return {
    "GET sso/saml/metadata": {
      async run(request): Promise<ModuleResponse> {
        const connection = await connectionOf(request)
        if (!connection) return { status: 404, body: "No such SAML connection.\n", headers: { "content-type": "text/plain; charset=utf-8" } }
        return { body: serviceProviderMetadata(settingsOf(request, connection, serviceProvider)), headers: { "content-type": "application/samlmetadata+xml; charset=utf-8", "cache-control": "public, max-age=300" } }
      },
    },
    "POST sso/saml/acs": { csrf: false, crossSite: true, rateLimit: "sign-in", run: (request) => acs(request, serviceProvider) },
  }
}
