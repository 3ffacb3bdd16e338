/**
 * The built-in page where an organization's admins manage its connections
 * (`GET <basePath>/sso/manage?organizationId=…`): each connection with what to enter at the IdP
 * (the redirect URI; the SAML entity ID, ACS URL and metadata), forms to add an OpenID Connect
 * or a SAML connection (its metadata XML pasted), to turn one off or on, and to delete it. When the
 * app has a service provider key, a SAML connection's requests may be signed ("Sign requests", on
 * the form that adds one and on each); without one, the page says they go unsigned.
 *
 * Plain HTML forms in the built-in pages' document (no script, the strict CSP, five languages).
 * Every form posts to `POST <basePath>/sso/manage/act` with an `action`, which runs the server
 * function of that name (so the same checks: only those who may update the organization, and
 * `NotFound` for anyone else) and sends the browser back with `done=<action>` or
 * `error=<SsoError code>`, said in words on the page.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml } from "@sesame/core"
import type { connectionApi, ConnectionInfo } from "./connections.js"
import { SsoError, ssoErrorStatus } from "./errors.js"
import { certificateInfo } from "./saml-settings.js"

type Api = ReturnType<typeof connectionApi>

const field = (request: ModuleRequest, name: string): string => (typeof request.body[name] === "string" ? (request.body[name] as string) : "")

/** What the forms post: each action and the server function it runs. */
const actions: Record<string, (api: Api, request: ModuleRequest, organizationId: string) => Promise<unknown>> = {
  "create-oidc": (api, r, org) =>
    api.createConnection(r, org, { protocol: "oidc", name: field(r, "name"), issuer: field(r, "issuer"), clientId: field(r, "clientId"), clientSecret: field(r, "clientSecret") }),
  // Unchecked, the box sends nothing: the connection then signs when the IdP's metadata asks it to.
  "create-saml": (api, r, org) =>
    api.createConnection(r, org, { protocol: "saml", name: field(r, "name"), metadata: field(r, "metadata"), ...(field(r, "signRequests") === "true" ? { signRequests: true } : {}) }),
  // The box as it is when saved: unchecked is off.
  "sign-requests": (api, r, org) => api.updateConnection(r, org, field(r, "connectionId"), { signRequests: field(r, "signRequests") === "true" }),
  enable: (api, r, org) => api.updateConnection(r, org, field(r, "connectionId"), { enabled: true }),
  disable: (api, r, org) => api.updateConnection(r, org, field(r, "connectionId"), { enabled: false }),
  delete: (api, r, org) => api.deleteConnection(r, org, field(r, "connectionId")),
}

const pageUrl = (request: ModuleRequest, organizationId: string, outcome: Record<string, string> = {}) =>
  `${request.authUrl}/sso/manage?${new URLSearchParams({ organizationId, ...outcome })}`

function outcome(request: ModuleRequest): SafeHtml | "" {
  const { done, error } = request.query
  if (error !== undefined && Object.hasOwn(ssoErrorStatus, error)) return html`<div class="alert" role="alert">${request.text(`sso.manage.error.${error}`)}</div>`
  if (done !== undefined && Object.hasOwn(actions, done)) return html`<div class="notice" role="status">${request.text(`sso.manage.done.${done}`)}</div>`
  return ""
}

/** A form posting `action` for `organizationId` (and `connectionId`) with the CSRF token. */
function actionForm(request: ModuleRequest, csrf: string, organizationId: string, action: string, content: SafeHtml, connectionId?: string): SafeHtml {
  return html`<form action="${request.authUrl}/sso/manage/act" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="action" value="${action}"><input type="hidden" name="organizationId" value="${organizationId}">${connectionId ? html`<input type="hidden" name="connectionId" value="${connectionId}">` : ""}${content}</form>`
}

/** What to enter at the IdP for `connection` (the `index`th on the page), as a definition list. */
function registration(request: ModuleRequest, connection: ConnectionInfo, index: number): SafeHtml {
  const row = (label: string, value: string) => html`<dt>${label}</dt><dd><code>${value}</code></dd>`
  if (connection.oidc) return html`<dl>${row(request.text("sso.manage.redirect-uri"), connection.oidc.redirectUri)}${row(request.text("sso.manage.issuer"), connection.oidc.issuer)}</dl>`
  const saml = connection.saml!
  const sp = saml.spCertificate
  return html`<dl>${row(request.text("sso.manage.entity-id"), saml.spEntityId)}${row(request.text("sso.manage.acs-url"), saml.acsUrl)}${row(request.text("sso.manage.idp-entity-id"), saml.idpEntityId)}${saml.certificates.map((c) => row(request.text("sso.manage.certificate"), c.fingerprint))}${sp ? row(request.text("sso.manage.sp-certificate"), certificateInfo(sp).fingerprint) : ""}</dl>
<p><a href="${saml.metadataUrl}">${request.text("sso.manage.metadata", { name: connection.name })}</a></p>${
    // The certificate as a file's content too: Okta and Entra ID take it as an upload, not from the
    // metadata. A read-only text area: the pages' styles fit it to the card, and it copies whole.
    sp
      ? html`<details><summary id="sp-certificate-${index}-label">${request.text("sso.manage.sp-certificate-pem")}</summary><textarea id="sp-certificate-${index}" readonly rows="8" aria-labelledby="sp-certificate-${index}-label">${sp}</textarea></details>`
      : ""
  }`
}

/** The "Sign requests" box: checked or not, with the id `id`, described by the element `describedBy`. */
function signRequestsBox(request: ModuleRequest, id: string, checked: boolean, describedBy?: string): SafeHtml {
  return html`<div class="choices"><label for="${id}"><input type="checkbox" id="${id}" name="signRequests" value="true"${checked ? html` checked` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}>${request.text("sso.manage.sign-requests")}</label></div>`
}

/** What the row says of a connection: its protocol, on or off, its roles and, for SAML, whether its requests are signed. */
function summary(request: ModuleRequest, c: ConnectionInfo): SafeHtml {
  const signing = c.saml ? html` · ${request.text(c.saml.signRequests ? "sso.manage.requests-signed" : "sso.manage.requests-unsigned")}` : ""
  return html`${c.protocol === "saml" ? "SAML 2.0" : "OpenID Connect"} · ${request.text(c.enabled ? "sso.manage.on" : "sso.manage.off")} · ${request.text("sso.manage.roles", { roles: c.roles.join(", ") })}${signing}`
}

async function managePage(api: Api, request: ModuleRequest, hasKey: boolean): Promise<ModuleResponse> {
  const organizationId = request.query.organizationId ?? ""
  const [connections, csrf] = await Promise.all([api.listConnections(request, organizationId), request.csrfToken()])
  const signForm = (c: ConnectionInfo, index: number) =>
    c.saml && hasKey
      ? actionForm(request, csrf, organizationId, "sign-requests", html`${signRequestsBox(request, `sign-requests-${index}`, c.saml.signRequests)}<button class="small">${request.text("sso.manage.save-sign-requests", { name: c.name })}</button>`, c.id)
      : ""
  const items = connections.map(
    (c, index) => html`<li><div class="what"><span>${c.name}</span><small>${summary(request, c)}</small>${registration(request, c, index)}</div>
<div class="actions">${signForm(c, index)}${actionForm(request, csrf, organizationId, c.enabled ? "disable" : "enable", html`<button class="small">${request.text(c.enabled ? "sso.manage.disable" : "sso.manage.enable", { name: c.name })}</button>`, c.id)}${actionForm(request, csrf, organizationId, "delete", html`<button class="small">${request.text("sso.manage.delete", { name: c.name })}</button>`, c.id)}</div></li>`,
  )
  const body = html`<h1>${request.text("sso.manage.title")}</h1>${outcome(request)}
<p class="lead">${request.text("sso.manage.lead")}</p>
${connections.length > 0 ? html`<ul class="rows">${items}</ul>` : html`<p>${request.text("sso.manage.none")}</p>`}
<h2>${request.text("sso.manage.add-oidc")}</h2>
${actionForm(
  request,
  csrf,
  organizationId,
  "create-oidc",
  html`<label for="oidc-name">${request.text("sso.manage.name")}</label><input id="oidc-name" name="name" required maxlength="100" autocomplete="off">
<label for="oidc-issuer">${request.text("sso.manage.issuer")}</label><input id="oidc-issuer" name="issuer" type="url" required autocomplete="off">
<label for="oidc-client-id">${request.text("sso.manage.client-id")}</label><input id="oidc-client-id" name="clientId" required autocomplete="off">
<label for="oidc-client-secret">${request.text("sso.manage.client-secret")}</label><input id="oidc-client-secret" name="clientSecret" type="password" required autocomplete="off">
<button class="primary">${request.text("sso.manage.add-oidc")}</button>`,
)}
<h2>${request.text("sso.manage.add-saml")}</h2>
${actionForm(
  request,
  csrf,
  organizationId,
  "create-saml",
  html`<label for="saml-name">${request.text("sso.manage.name")}</label><input id="saml-name" name="name" required maxlength="100" autocomplete="off">
<label for="saml-metadata">${request.text("sso.manage.metadata-xml")}</label><textarea id="saml-metadata" name="metadata" required rows="6" aria-describedby="saml-metadata-hint"></textarea><p class="hint" id="saml-metadata-hint">${request.text("sso.manage.metadata-hint")}</p>
${hasKey ? html`${signRequestsBox(request, "saml-sign-requests", false, "saml-sign-requests-hint")}<p class="hint" id="saml-sign-requests-hint">${request.text("sso.manage.sign-requests-hint")}</p>` : html`<p class="hint">${request.text("sso.manage.no-key")}</p>`}
<button class="primary">${request.text("sso.manage.add-saml")}</button>`,
)}`
  return { page: { title: request.text("sso.manage.title"), width: "wide", body } }
}

/** The page for a signed-in admin; anyone else goes to the sign-in page, or reads why not. */
async function signedIn(request: ModuleRequest, page: () => Promise<ModuleResponse>): Promise<ModuleResponse> {
  if (!(await request.user())) return { redirect: `${request.authUrl}/signin?callbackUrl=${encodeURIComponent(request.url.href)}` }
  try {
    return await page()
  } catch (error) {
    if (!(error instanceof SsoError)) throw error
    return { status: error.status, page: { title: request.text("sso.manage.title"), body: html`<h1>${request.text("sso.manage.title")}</h1><div class="alert" role="alert">${request.text(`sso.manage.error.${error.code}`)}</div>` } }
  }
}

/** The page's routes; `hasKey`: the app has a service provider key, so SAML requests may be signed. */
export function pageRoutes(api: Api, hasKey: boolean): Record<string, ModuleRoute> {
  return {
    "GET sso/manage": { run: (request) => signedIn(request, () => managePage(api, request, hasKey)) },
    "POST sso/manage/act": {
      async run(request) {
        const organizationId = field(request, "organizationId")
        const action = field(request, "action")
        if (!Object.hasOwn(actions, action)) return { redirect: pageUrl(request, organizationId, { error: "InvalidInput" }) }
        try {
          await actions[action]!(api, request, organizationId)
          return { redirect: pageUrl(request, organizationId, { done: action }) }
        } catch (error) {
          if (!(error instanceof SsoError)) throw error
          return { redirect: pageUrl(request, organizationId, { error: error.code }) }
        }
      },
    },
  }
}
