/**
 * The module's endpoints and its part of the account page.
 *
 * Who calls them is the cookie session's user and no one else: `request.user()` reads the session
 * cookie (the core's bearer sessions are for its own `session`, `token` and `signout` endpoints
 * only), and nothing here reads an API key. A key sent as `Authorization` to these endpoints is
 * ignored, so a leaked key can never mint, rotate or revoke keys. Every POST keeps the core's
 * same-origin and CSRF checks (no route says `csrf: false`).
 *
 * The built-in forms post urlencoded fields and get pages back; a script that posts JSON (with the
 * CSRF token) gets `{ result }`, or `{ error, message }` with the refusal's status.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml } from "@sesame/core"
import { ApiKeyError } from "./errors.js"
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey, type ApiKeyInfo, type CreateApiKeyInput, type Deps } from "./keys.js"

const wantsJson = (request: ModuleRequest) => (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")

const when = (request: ModuleRequest, date: Date) => `${new Intl.DateTimeFormat(request.lang, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`

/** The lifetimes the form offers, in days: those within the maximum, and the default. */
function lifetimes(deps: Deps): number[] {
  const max = deps.options.expiresIn.max
  const days = [7, 30, 90, 365].filter((d) => d * 86_400 <= max)
  const fallback = Math.round(deps.options.expiresIn.default / 86_400)
  return [...new Set([...days, ...(fallback >= 1 ? [fallback] : [])])].sort((a, b) => a - b)
}

/** What a create's fields say: JSON as given, or the form's (`scope.<name>` boxes, `expiresInDays`). */
function createInput(deps: Deps, request: ModuleRequest): CreateApiKeyInput {
  const body = request.body
  if (wantsJson(request)) return body as unknown as CreateApiKeyInput
  const scopes = Object.keys(body)
    .filter((field) => field.startsWith("scope.") && body[field] !== undefined && body[field] !== "")
    .map((field) => field.slice("scope.".length))
  const days = typeof body.expiresInDays === "string" && /^[0-9]{1,5}$/.test(body.expiresInDays) ? Number(body.expiresInDays) : undefined
  const expiresIn = days === undefined ? undefined : days * 86_400 > deps.options.expiresIn.max ? -1 : days * 86_400
  return {
    name: body.name as string,
    scopes,
    ...(expiresIn !== undefined ? { expiresIn } : {}),
    ...(typeof body.organizationId === "string" && body.organizationId !== "" ? { organizationId: body.organizationId } : {}),
  }
}

/**
 * Where a form's answer leads back to: the page that posted it when it says so (`returnTo`, one of
 * the app's own pages under the base path: an organization's page), else the account page. Never
 * another origin or path, which would make the endpoints an open redirect.
 */
function returnOf(request: ModuleRequest): string {
  const account = `${request.authUrl}/account`
  const asked = request.method === "POST" ? request.body.returnTo : undefined
  if (typeof asked !== "string" || !URL.canParse(asked)) return account
  const target = new URL(asked)
  const base = new URL(request.authUrl)
  return target.origin === base.origin && target.pathname.startsWith(`${base.pathname}/`) && !target.pathname.includes("//") ? target.href : account
}

function shownPage(request: ModuleRequest, key: string, previousStopsAt?: Date): ModuleResponse {
  const title = request.text("api-keys.shown.title")
  return {
    page: {
      title,
      body: html`<h1>${title}</h1>
<p class="notice">${request.text("api-keys.shown.lead")}</p>
<p><code id="api-key">${key}</code></p>
${previousStopsAt ? html`<p class="hint">${request.text("api-keys.shown.rotated", { date: when(request, previousStopsAt) })}</p>` : html``}
${backLink(request)}`,
    },
  }
}

function backLink(request: ModuleRequest): SafeHtml {
  const back = returnOf(request)
  return html`<p class="links"><a href="${back}">${request.text(back === `${request.authUrl}/account` ? "api-keys.back" : "api-keys.back-to-page")}</a></p>`
}

function refusedPage(request: ModuleRequest, error: ApiKeyError): ModuleResponse {
  const title = request.text("api-keys.refused.title")
  return {
    status: error.status,
    page: {
      title,
      body: html`<h1>${title}</h1>
<p class="alert" role="alert">${request.text(`api-keys.error.${error.code}`)}</p>
${backLink(request)}`,
    },
  }
}

/** Runs `action`; answers JSON to a JSON request, else `page(result)`; a refusal as either. */
function route<T>(action: (request: ModuleRequest) => Promise<T>, page: (request: ModuleRequest, result: T) => ModuleResponse): ModuleRoute {
  return {
    async run(request) {
      try {
        const result = await action(request)
        return wantsJson(request) || request.method === "GET" ? { body: { result } } : page(request, result)
      } catch (error) {
        if (!(error instanceof ApiKeyError)) throw error
        return wantsJson(request) || request.method === "GET" ? { status: error.status, body: { error: error.code, message: error.message } } : refusedPage(request, error)
      }
    },
  }
}

const field = (request: ModuleRequest, name: string): unknown => (request.method === "GET" ? request.query[name] : request.body[name])

export function apiKeyRoutes(deps: Deps): Record<string, ModuleRoute> {
  return {
    "GET api-keys/list": route(
      (request) => listApiKeys(deps, request, typeof request.query.organizationId === "string" ? { organizationId: request.query.organizationId } : {}),
      () => ({}),
    ),
    "POST api-keys/create": route(
      (request) => createApiKey(deps, request, createInput(deps, request)),
      (request, created) => shownPage(request, created.key),
    ),
    "POST api-keys/rotate": route(
      (request) => rotateApiKey(deps, request, field(request, "keyId") as string),
      (request, rotated) => shownPage(request, rotated.key, rotated.previousStopsAt),
    ),
    "POST api-keys/revoke": route(
      (request) => revokeApiKey(deps, request, field(request, "keyId") as string),
      (request) => ({ redirect: returnOf(request) }),
    ),
  }
}

/** A key of a list, with its rotate and revoke forms (which come back to `returnTo` when given). */
function keyRow(request: ModuleRequest, key: ApiKeyInfo, csrf: string, returnTo?: string): SafeHtml {
  const back = returnTo ? html`<input type="hidden" name="returnTo" value="${returnTo}">` : html``
  const action = `${request.authUrl}/api-keys`
  const facts = [
    key.scopes.length > 0 ? request.text("api-keys.scopes", { scopes: key.scopes.join(", ") }) : request.text("api-keys.no-scopes"),
    key.replacedBy ? request.text("api-keys.stops-on", { date: when(request, key.expiresAt) }) : request.text("api-keys.expires-on", { date: when(request, key.expiresAt) }),
    key.lastUsedAt ? request.text("api-keys.last-used", { date: when(request, key.lastUsedAt) }) : request.text("api-keys.never-used"),
  ].join(" · ")
  return html`<li><div class="what"><strong>${key.name}</strong> <code>${key.start}…</code><small>${facts}</small></div>
<div class="actions">${key.replacedBy ? html`` : html`<form method="POST" action="${action}/rotate"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="keyId" value="${key.id}">${back}<button>${request.text("api-keys.rotate")}</button></form>`}
<form method="POST" action="${action}/revoke"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="keyId" value="${key.id}">${back}<button>${request.text("api-keys.revoke")}</button></form></div></li>`
}

/** The form that makes a key: the user's, or `organizationId`'s (coming back to `returnTo`). */
function createForm(deps: Deps, request: ModuleRequest, csrf: string, idPrefix: string, organization?: { organizationId: string; returnTo: string }): SafeHtml {
  const defaultDays = Math.round(deps.options.expiresIn.default / 86_400)
  const scopes = [...deps.options.scopes]
  return html`<h3>${request.text("api-keys.create.heading")}</h3>
<form method="POST" action="${request.authUrl}/api-keys/create">
<input type="hidden" name="csrfToken" value="${csrf}">
${organization ? html`<input type="hidden" name="organizationId" value="${organization.organizationId}"><input type="hidden" name="returnTo" value="${organization.returnTo}">` : html``}
<label for="${idPrefix}-name">${request.text("api-keys.create.name")}</label> <input id="${idPrefix}-name" name="name" required maxlength="100">
${scopes.length > 0 ? html`<fieldset><legend>${request.text("api-keys.create.scopes")}</legend>${scopes.map((scope) => html`<label><input type="checkbox" name="scope.${scope}" value="on"> ${scope}</label>`)}</fieldset>` : html``}
<label for="${idPrefix}-expires">${request.text("api-keys.create.expires")}</label> <select id="${idPrefix}-expires" name="expiresInDays">${lifetimes(deps).map(
    (days) => html`<option value="${String(days)}"${days === defaultDays ? html` selected` : html``}>${request.text("api-keys.create.days", { count: String(days) })}</option>`,
  )}</select>
<button class="primary">${request.text("api-keys.create.submit")}</button>
</form>`
}

/** `SesameModule.accountSection`: the user's own keys, with a form to create one. */
export function accountSection(deps: Deps) {
  return async (request: ModuleRequest): Promise<SafeHtml | null> => {
    if (!(await request.user())) return null
    const keys = await listApiKeys(deps, request)
    const csrf = await request.csrfToken()
    return html`<h2 id="api-keys-heading">${request.text("api-keys.heading")}</h2>
<p class="hint">${request.text("api-keys.lead")}</p>
${keys.length > 0 ? html`<ul class="rows" aria-labelledby="api-keys-heading">${keys.map((key) => keyRow(request, key, csrf))}</ul>` : html`<p>${request.text("api-keys.none")}</p>`}
${createForm(deps, request, csrf, "api-key")}`
  }
}

/**
 * The module's part of an organization's page (the organizations module's place
 * `organization.manage`): the organization's keys and the form that makes one, for a member who may
 * manage them (`organizationPermission`, asked of the organizations module), nothing for another.
 */
export function organizationSection(deps: Deps) {
  return async (request: ModuleRequest, input: Readonly<Record<string, string>>): Promise<SafeHtml | null> => {
    const { organizationId, returnTo } = input
    if (!deps.options.organizations || typeof organizationId !== "string" || typeof returnTo !== "string" || !(await request.user())) return null
    if (!(await deps.options.organizations.hasPermission(request, organizationId))) return null
    const keys = await listApiKeys(deps, request, { organizationId })
    const csrf = await request.csrfToken()
    return html`<h2 id="organization-api-keys-heading">${request.text("api-keys.organization.heading")}</h2>
<p class="hint">${request.text("api-keys.organization.lead")}</p>
${keys.length > 0 ? html`<ul class="rows" aria-labelledby="organization-api-keys-heading">${keys.map((key) => keyRow(request, key, csrf, returnTo))}</ul>` : html`<p>${request.text("api-keys.organization.none")}</p>`}
${createForm(deps, request, csrf, "organization-api-key", { organizationId, returnTo })}`
  }
}

/** `SesameModule.aboutUser`: how many keys the user has, each with its name, start and last use; never a key or hash. */
export function aboutUser(deps: Deps) {
  return async (userId: string, request: ModuleRequest) => {
    const rows = await request.store!.findMany(deps.model, { where: { userId }, orderBy: [{ field: "createdAt", direction: "desc" }], limit: 100 })
    const items = rows.map((row) => {
      const last = row.lastUsedAt instanceof Date ? request.text("api-keys.last-used", { date: when(request, row.lastUsedAt) }) : request.text("api-keys.never-used")
      return `${String(row.name)} (${String(row.start)}…): ${last}`
    })
    return { title: `${request.text("api-keys.heading")}: ${request.text("api-keys.about.count", { count: String(rows.length) })}`, items }
  }
}
