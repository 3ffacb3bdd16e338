/**
 * The built-in page where a developer manages the apps they registered
 * (`GET <basePath>/oauth/clients`), or an organization's admins the organization's
 * (`?organizationId=…`): each app with its client ID and redirect URIs, a form to register one,
 * and buttons to give one a new secret or delete it.
 *
 * Plain HTML forms in the built-in pages' document (no script, the strict CSP, five languages).
 * Every form posts to `POST <basePath>/oauth/clients/act` with an `action` and the CSRF token,
 * which runs the server function of that name (so the same checks, and `NotFound` for anyone who
 * may not manage the app); a new secret and a deletion are asked once more first (`confirm=yes`). A secret is only ever in the answer to the POST that made it, a page
 * shown once (`no-store`, as every module answer): never in a URL, where history, logs and
 * `Referer` would keep it. Other outcomes send the browser back to the list with `done=` or
 * `error=<code>`, said in words there.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml } from "@sesame/core"
import { OAuthClientError, oauthClientErrorStatus, type clientApi, type OAuthClientInfo } from "./clients.js"

type Api = ReturnType<typeof clientApi>

const field = (request: ModuleRequest, name: string): string => (typeof request.body[name] === "string" ? (request.body[name] as string) : "")

/** The organization the page is for, if any (an empty field is the user's own apps). */
const organizationOf = (value: string | undefined): string | undefined => (value ? value : undefined)

function pageUrl(request: ModuleRequest, organizationId: string | undefined, outcome: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(organizationId ? { organizationId } : {}), ...outcome }).toString()
  return `${request.authUrl}/oauth/clients${query ? `?${query}` : ""}`
}

/** What the add form holds: empty, or what was sent when it was refused. */
interface Draft {
  name: string
  redirectUris: string
  public: boolean
}

const emptyDraft: Draft = { name: "", redirectUris: "", public: false }

function outcome(request: ModuleRequest): SafeHtml | "" {
  const { done, error } = request.query
  if (error !== undefined && Object.hasOwn(oauthClientErrorStatus, error)) return html`<div class="alert" role="alert">${request.text(`oauth.clients.error.${error}`)}</div>`
  if (done === "delete") return html`<div class="notice" role="status">${request.text("oauth.clients.done.delete")}</div>`
  return ""
}

/** A form posting `action` for the page's organization (and `clientId`) with the CSRF token. */
function actionForm(request: ModuleRequest, csrf: string, organizationId: string | undefined, action: string, content: SafeHtml, clientId?: string): SafeHtml {
  return html`<form action="${request.authUrl}/oauth/clients/act" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="action" value="${action}">${organizationId ? html`<input type="hidden" name="organizationId" value="${organizationId}">` : ""}${clientId ? html`<input type="hidden" name="clientId" value="${clientId}">` : ""}${content}</form>`
}

function row(request: ModuleRequest, csrf: string, organizationId: string | undefined, c: OAuthClientInfo): SafeHtml {
  const uris = c.redirectUris.length > 0 ? html`<dt>${request.text("oauth.clients.redirect-uris")}</dt>${c.redirectUris.map((uri) => html`<dd><code>${uri}</code></dd>`)}` : ""
  const rotate = c.public ? "" : actionForm(request, csrf, organizationId, "rotate", html`<button class="small">${request.text("oauth.clients.rotate", { name: c.name })}</button>`, c.clientId)
  return html`<li><div class="what"><span>${c.name}</span><small>${request.text(c.public ? "oauth.clients.kind-public" : "oauth.clients.kind-confidential")}</small><dl><dt>${request.text("oauth.clients.client-id")}</dt><dd><code>${c.clientId}</code></dd>${uris}</dl></div>
<div class="actions">${rotate}${actionForm(request, csrf, organizationId, "delete", html`<button class="small">${request.text("oauth.clients.delete", { name: c.name })}</button>`, c.clientId)}</div></li>`
}

/** The list and the add form; `refused`: the add form's input, sent back with why it was refused. */
async function clientsPage(api: Api, request: ModuleRequest, organizationId: string | undefined, refused?: { draft: Draft; message: string }): Promise<ModuleResponse> {
  const [clients, csrf] = await Promise.all([api.listOAuthClients(request, organizationId ? { organizationId } : {}), request.csrfToken()])
  const title = request.text(organizationId ? "oauth.clients.title-org" : "oauth.clients.title")
  const draft = refused?.draft ?? emptyDraft
  const problem = refused ? html`<div class="alert" role="alert" id="add-error">${refused.message}</div>` : ""
  // The refusal describes both fields: it may be about either.
  const describedBy = (hint: string) => (refused ? `add-error ${hint}` : hint)
  const body = html`<h1>${title}</h1>${outcome(request)}
<p class="lead">${request.text(organizationId ? "oauth.clients.lead-org" : "oauth.clients.lead")}</p>
${clients.length > 0 ? html`<ul class="rows">${clients.map((c) => row(request, csrf, organizationId, c))}</ul>` : html`<p>${request.text("oauth.clients.none")}</p>`}
<h2 id="add">${request.text("oauth.clients.add")}</h2>${problem}
${actionForm(
  request,
  csrf,
  organizationId,
  "create",
  html`<label for="client-name">${request.text("oauth.clients.name")}</label><input id="client-name" name="name" required maxlength="100" autocomplete="off" value="${draft.name}" aria-describedby="${describedBy("client-name-hint")}"><p class="hint" id="client-name-hint">${request.text("oauth.clients.name-hint")}</p>
<label for="client-redirect-uris">${request.text("oauth.clients.redirect-uris-field")}</label><textarea id="client-redirect-uris" name="redirectUris" required rows="3" spellcheck="false" autocomplete="off" aria-describedby="${describedBy("client-redirect-uris-hint")}">${draft.redirectUris}</textarea><p class="hint" id="client-redirect-uris-hint">${request.text("oauth.clients.redirect-uris-hint")}</p>
<div class="choices"><label for="client-public"><input type="checkbox" id="client-public" name="public" value="true" aria-describedby="client-public-hint"${draft.public ? html` checked` : ""}>${request.text("oauth.clients.public")}</label></div><p class="hint" id="client-public-hint">${request.text("oauth.clients.public-hint")}</p>
<button class="primary">${request.text("oauth.clients.add")}</button>`,
)}`
  return { status: refused ? 400 : 200, page: { title, width: "wide", body } }
}

/** The page that shows a secret, once: a new app's, or a new secret's. */
function secretPage(request: ModuleRequest, organizationId: string | undefined, title: string, clientId: string, clientSecret: string | undefined, note: string): ModuleResponse {
  const secret =
    clientSecret === undefined
      ? ""
      : html`<label for="client-secret">${request.text("oauth.clients.secret")}</label><input id="client-secret" readonly value="${clientSecret}" spellcheck="false" autocomplete="off" aria-describedby="secret-note">`
  return {
    page: {
      title,
      width: "wide",
      body: html`<h1>${title}</h1><div class="notice" role="status" id="secret-note">${note}</div>
<label for="client-id">${request.text("oauth.clients.client-id")}</label><input id="client-id" readonly value="${clientId}" spellcheck="false" autocomplete="off">${secret}
<p class="links"><a href="${pageUrl(request, organizationId)}">${request.text("oauth.clients.back")}</a></p>`,
    },
  }
}

/** A page for someone signed in; anyone else goes to the sign-in page first, or reads why not. */
async function signedIn(request: ModuleRequest, organizationId: string | undefined, page: () => Promise<ModuleResponse>): Promise<ModuleResponse> {
  if (!(await request.user())) return { redirect: `${request.authUrl}/signin?${new URLSearchParams({ callbackUrl: pageUrl(request, organizationId) })}` }
  try {
    return await page()
  } catch (error) {
    if (!(error instanceof OAuthClientError)) throw error
    // The list refuses only the organization (malformed, or no `organizations` option): for the
    // visitor, an organization that is not there.
    const code = error.code === "InvalidInput" ? "NotFound" : error.code
    const title = request.text(organizationId ? "oauth.clients.title-org" : "oauth.clients.title")
    return { status: oauthClientErrorStatus[code], page: { title, body: html`<h1>${title}</h1><div class="alert" role="alert">${request.text(`oauth.clients.error.${code}`)}</div>` } }
  }
}

/**
 * Asks before what breaks the app where it runs (a new secret: the old one stops working; a
 * deletion): one more form to submit, no script. Only for an app on the page's own list, so the
 * question reveals no more than the list does.
 */
async function confirmPage(api: Api, request: ModuleRequest, organizationId: string | undefined, action: "rotate" | "delete", clientId: string): Promise<ModuleResponse> {
  const [clients, csrf] = await Promise.all([api.listOAuthClients(request, organizationId ? { organizationId } : {}), request.csrfToken()])
  const found = clients.find((c) => c.clientId === clientId)
  if (!found) return { redirect: pageUrl(request, organizationId, { error: "NotFound" }) }
  if (action === "rotate" && found.public) return { redirect: pageUrl(request, organizationId, { error: "InvalidInput" }) }
  const title = request.text(`oauth.clients.confirm-${action}`, { name: found.name })
  const confirm = actionForm(request, csrf, organizationId, action, html`<input type="hidden" name="confirm" value="yes"><button type="submit" class="primary">${request.text(`oauth.clients.${action}`, { name: found.name })}</button>`, clientId)
  return {
    page: {
      title,
      body: html`<h1>${title}</h1><p class="lead">${request.text(`oauth.clients.confirm-${action}-lead`)}</p>${confirm}
<p class="links"><a href="${pageUrl(request, organizationId)}">${request.text("oauth.clients.cancel")}</a></p>`,
    },
  }
}

async function create(api: Api, request: ModuleRequest, organizationId: string | undefined): Promise<ModuleResponse> {
  const draft: Draft = { name: field(request, "name"), redirectUris: field(request, "redirectUris"), public: field(request, "public") === "true" }
  const redirectUris = draft.redirectUris.split(/\r?\n/).map((uri) => uri.trim()).filter(Boolean)
  let created
  try {
    created = await api.createOAuthClient(request, { name: draft.name, redirectUris, public: draft.public, ...(organizationId ? { organizationId } : {}) })
  } catch (error) {
    if (error instanceof OAuthClientError && error.code === "InvalidInput") return clientsPage(api, request, organizationId, { draft, message: request.text("oauth.clients.error.InvalidInput") })
    throw error
  }
  const title = request.text("oauth.clients.created", { name: draft.name.trim() })
  return secretPage(request, organizationId, title, created.clientId, created.clientSecret, request.text(created.clientSecret === undefined ? "oauth.clients.created-public" : "oauth.clients.secret-once"))
}

export function clientPageRoutes(api: Api): Record<string, ModuleRoute> {
  return {
    "GET oauth/clients": {
      run(request) {
        const organizationId = organizationOf(request.query.organizationId)
        return signedIn(request, organizationId, () => clientsPage(api, request, organizationId))
      },
    },
    "POST oauth/clients/act": {
      async run(request): Promise<ModuleResponse> {
        const organizationId = organizationOf(field(request, "organizationId"))
        const action = field(request, "action")
        const clientId = field(request, "clientId")
        const confirmed = field(request, "confirm") === "yes"
        if (!(await request.user())) return { redirect: pageUrl(request, organizationId) }
        try {
          if (action === "create") return await create(api, request, organizationId)
          if ((action === "rotate" || action === "delete") && !confirmed) return await confirmPage(api, request, organizationId, action, clientId)
          if (action === "rotate") {
            const rotated = await api.rotateOAuthClientSecret(request, clientId)
            return secretPage(request, organizationId, request.text("oauth.clients.rotated", { name: rotated.name }), rotated.clientId, rotated.clientSecret, request.text("oauth.clients.rotated-note"))
          }
          if (action === "delete") {
            await api.deleteOAuthClient(request, clientId)
            return { redirect: pageUrl(request, organizationId, { done: "delete" }) }
          }
          return { redirect: pageUrl(request, organizationId, { error: "InvalidInput" }) }
        } catch (error) {
          if (!(error instanceof OAuthClientError)) throw error
          return { redirect: pageUrl(request, organizationId, { error: error.code }) }
        }
      },
    },
  }
}
