/**
 * Home-realm discovery: the page that asks for the work address (`GET <basePath>/sso`), and where
 * it posts (`POST <basePath>/sso/start`): the organization that proved the address's domain, its
 * first enabled connection, and the browser on its way to that identity provider, with the
 * address as `login_hint`. The app may start by organization instead (`organization=<slug>`),
 * for a "Sign in with your company" button.
 *
 * Only whether a domain or organization has single sign-on shows; never whether an address has
 * an account.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml, type Store } from "@sesame/core"
import { organizationModel } from "@sesame/organizations"
import { connectionFrom, providerPrefix, type Connection } from "./connections.js"
import { emailDomain, organizationOfDomain } from "./domains.js"
import { connectionModel } from "./models.js"
import type { ServiceProviderKey } from "./options.js"
import { startSaml } from "./saml-flow.js"
import { storeOf } from "./stored.js"

/** The first enabled connection of `organizationId` (the oldest), or null. */
async function connectionOf(store: Store, organizationId: string): Promise<Connection | null> {
  const rows = await store.findMany(connectionModel, { where: { organizationId, enabled: true }, orderBy: [{ field: "createdAt", direction: "asc" }], limit: 1 })
  return rows[0] ? connectionFrom(rows[0]) : null
}

/** The connection for an address, by its domain's organization. */
export async function connectionForEmail(store: Store, email: string): Promise<Connection | null> {
  const domain = emailDomain(email)
  const organizationId = domain && (await organizationOfDomain(store, domain))
  return organizationId ? connectionOf(store, organizationId) : null
}

/** The connection for an organization, by its slug. */
export async function connectionForSlug(store: Store, slug: string): Promise<Connection | null> {
  if (!/^[a-z0-9-]{1,48}$/.test(slug)) return null
  const row = await store.findOne(organizationModel, { slug })
  return row ? connectionOf(store, String(row.id)) : null
}

const field = (request: ModuleRequest, name: string): string => {
  const value = request.method === "GET" ? request.query[name] : request.body[name]
  return typeof value === "string" ? value.trim() : ""
}

/** What the page says for each of its error codes (`?error=` too: the SAML endpoint sends the browser back with one). */
const errorTexts = { NoConnection: "sso.no-connection", InvalidInput: "sso.invalid-email", SamlRefused: "sso.saml-refused", SamlUnsolicited: "sso.saml-refused" } as const
type PageError = keyof typeof errorTexts

/** The page: the address field, and what went wrong last time. */
async function page(request: ModuleRequest, options: { email?: string; error?: PageError; status?: number } = {}): Promise<ModuleResponse> {
  const csrf = await request.csrfToken()
  const callbackUrl = field(request, "callbackUrl")
  const queried = request.method === "GET" && Object.hasOwn(errorTexts, request.query.error ?? "") ? (request.query.error as PageError) : undefined
  const code = options.error ?? queried
  const error = code && html`<p class="alert" role="alert" id="sso-error">${request.text(errorTexts[code])}</p>`
  const body = html`<h1>${request.text("sso.title")}</h1>
${error ?? ""}<p class="lead">${request.text("sso.lead")}</p>
<form action="${request.authUrl}/sso/start" method="POST"><input type="hidden" name="csrfToken" value="${csrf}">${callbackUrl ? html`<input type="hidden" name="callbackUrl" value="${callbackUrl}">` : ""}
<label for="sso-email">${request.text("sso.email")}</label><input id="sso-email" type="email" name="email" required autocomplete="email" value="${options.email ?? ""}"${error ? html` aria-describedby="sso-error" aria-invalid="true"` : ""} autofocus>
<button class="primary">${request.text("sso.continue")}</button></form>
<p class="links"><a href="${request.authUrl}/signin${callbackUrl ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ""}">${request.text("sso.other-ways")}</a></p>`
  return { status: options.status ?? 200, page: { title: request.text("sso.title"), body } }
}

export function startRoutes(serviceProvider: ServiceProviderKey | null): Record<string, ModuleRoute> {
  return {
    "GET sso": { run: (request) => page(request) },
    "POST sso/start": {
      rateLimit: "sign-in",
      async run(request) {
        const store = storeOf(request)
        const slug = field(request, "organization")
        const email = field(request, "email")
        if (!slug && !emailDomain(email)) return page(request, { email, error: "InvalidInput", status: 400 })
        const connection = slug ? await connectionForSlug(store, slug) : await connectionForEmail(store, email)
        if (!connection) return page(request, { email, error: "NoConnection", status: 404 })
        if (connection.protocol === "saml") return startSaml(request, connection, serviceProvider)
        return request.signInWith(`${providerPrefix}${connection.id}`, email ? { login_hint: email } : {})
      },
    },
  }
}

/**
 * The module's part of the built-in sign-in page, once any organization has a connection: the work
 * address first, posted to `sso/start` (the other ways to sign in follow).
 */
export async function signInSection(request: ModuleRequest): Promise<SafeHtml | undefined> {
  if (!request.store || (await request.store.count(connectionModel, { enabled: true })) === 0) return undefined
  const [csrf, callbackUrl] = await Promise.all([request.csrfToken(), request.callbackUrl()])
  return html`<form action="${request.authUrl}/sso/start" method="POST" class="sso"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="callbackUrl" value="${callbackUrl}">
<label for="sso-section-email">${request.text("sso.email")}</label><input id="sso-section-email" type="email" name="email" required autocomplete="email">
<button>${request.text("sso.section.submit")}</button></form>`
}
