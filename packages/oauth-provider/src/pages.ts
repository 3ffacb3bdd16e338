/**
 * The module's other pages: the error page every failure a browser sees ends on
 * (`GET <basePath>/oauth/error?error=…`), the device flow's pages (`GET <basePath>/oauth/user-code`:
 * enter the code shown on the device, confirm it is the one shown, done), and the user's list of
 * the apps they allowed, each revocable (`GET <basePath>/oauth/consents`). Plain HTML forms in
 * the built-in pages' document: no script, the strict CSP, five languages.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute } from "@sesame/core"
import { consentsOf, revokeConsent } from "./consent.js"
import type { ServerFor } from "./servers.js"

/** The errors the page says in words; any other is said as the generic one. */
const known = new Set(["access_denied", "invalid_request", "invalid_client", "invalid_redirect_uri", "invalid_scope", "invalid_target", "login_required", "consent_required", "unauthorized_client", "unsupported_response_type", "interaction_lost", "server_error"])

export function errorPage(request: ModuleRequest, error: string, status: number): ModuleResponse {
  const key = known.has(error) ? error : "generic"
  return {
    status,
    page: {
      title: request.text("oauth.error.title"),
      body: html`<h1>${request.text("oauth.error.title")}</h1><div class="alert" role="alert">${request.text(`oauth.error.${key}`)}</div><p class="hint">${request.text("oauth.error.code", { code: error.slice(0, 64) })}</p>`,
    },
  }
}

/** What the code page says for each of oidc-provider's re-render errors (and the page's own `NoCode`). */
const deviceErrors: Readonly<Record<string, string>> = {
  NoCode: "oauth.device.no-code",
  NoCodeError: "oauth.device.no-code",
  NotFoundError: "oauth.device.no-code",
  ExpiredError: "oauth.device.no-code",
  AlreadyUsedError: "oauth.device.no-code",
  AbortedError: "oauth.device.cancelled",
}

/** Upper case, without the separators people type: how oidc-provider keeps user codes. */
const normalized = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "")

async function userCodePage(request: ModuleRequest, serverFor: ServerFor): Promise<ModuleResponse> {
  const server = await serverFor(request)
  if (!server) return errorPage(request, "server_error", 500)
  const title = request.text("oauth.device.title")
  const { xsrf, user_code: userCode, code, error, done } = request.query
  if (done !== undefined) {
    return { page: { title, body: html`<h1>${title}</h1><div class="notice" role="status">${request.text("oauth.device.done")}</div>` } }
  }
  // Without oidc-provider's form token the page was not reached through it: start there.
  if (!xsrf) return { redirect: `${server.issuer}/device` }
  const action = `${server.issuer}/device`
  if (userCode !== undefined) {
    const deviceCode = await server.provider.DeviceCode.findByUserCode(normalized(userCode))
    const client = deviceCode?.clientId ? await server.provider.Client.find(deviceCode.clientId) : undefined
    if (!deviceCode || !client) return { redirect: `${request.authUrl}/oauth/user-code?${new URLSearchParams({ xsrf, error: "NoCode" })}` }
    const name = (client.clientName as string | undefined) ?? client.clientId
    const hidden = html`<input type="hidden" name="xsrf" value="${xsrf}"><input type="hidden" name="user_code" value="${userCode}">`
    return {
      page: {
        title,
        body: html`<h1>${title}</h1>
<p class="lead">${request.text("oauth.device.confirm-lead", { client: name })}</p>
<p class="code"><strong>${userCode}</strong></p>
<p class="hint">${request.text("oauth.device.confirm-hint")}</p>
<div class="buttons"><form action="${action}" method="POST">${hidden}<input type="hidden" name="confirm" value="yes"><button type="submit" class="primary">${request.text("oauth.device.confirm")}</button></form><form action="${action}" method="POST">${hidden}<input type="hidden" name="abort" value="yes"><button type="submit">${request.text("oauth.device.cancel")}</button></form></div>`,
      },
    }
  }
  const problem = error === undefined ? "" : html`<div class="alert" role="alert" id="user-code-error">${request.text(deviceErrors[error] ?? "oauth.device.failed")}</div>`
  return {
    page: {
      title,
      body: html`<h1>${title}</h1>
<p class="lead">${request.text("oauth.device.lead")}</p>${problem}
<form action="${action}" method="POST"><input type="hidden" name="xsrf" value="${xsrf}"><label for="user_code">${request.text("oauth.device.code")}</label><input id="user_code" name="user_code" type="text" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required value="${code ?? ""}"${error === undefined ? "" : html` aria-describedby="user-code-error" aria-invalid="true"`}><button type="submit" class="primary">${request.text("oauth.device.continue")}</button></form>`,
    },
  }
}

async function consentsPage(request: ModuleRequest, serverFor: ServerFor): Promise<ModuleResponse> {
  const server = await serverFor(request)
  if (!server) return errorPage(request, "server_error", 500)
  const userId = (await request.user())?.id
  if (!userId) return { redirect: `${request.authUrl}/signin?${new URLSearchParams({ callbackUrl: `${request.authUrl}/oauth/consents` })}` }
  const title = request.text("oauth.consents.title")
  const consents = await consentsOf(request.store!, server.provider, userId)
  const csrf = await request.csrfToken()
  const done = request.query.done === "revoke" ? html`<div class="notice" role="status">${request.text("oauth.consents.revoked")}</div>` : ""
  const list =
    consents.length === 0
      ? html`<p>${request.text("oauth.consents.none")}</p>`
      : html`<ul class="titled">${consents.map(
          (c) =>
            html`<li><strong>${c.clientName}</strong><p class="hint">${c.scopes.join(", ")}</p><form action="${request.authUrl}/oauth/consents/revoke" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="clientId" value="${c.clientId}"><button type="submit">${request.text("oauth.consents.revoke", { client: c.clientName })}</button></form></li>`,
        )}</ul>`
  return { page: { title, width: "wide", body: html`<h1>${title}</h1><p class="lead">${request.text("oauth.consents.lead")}</p>${done}${list}` } }
}

export function pageRoutes(serverFor: ServerFor): Record<string, ModuleRoute> {
  return {
    "GET oauth/error": { run: (request) => errorPage(request, typeof request.query.error === "string" ? request.query.error : "generic", 400) },
    "GET oauth/user-code": { run: (request) => userCodePage(request, serverFor) },
    "GET oauth/consents": { run: (request) => consentsPage(request, serverFor) },
    "POST oauth/consents/revoke": {
      async run(request) {
        const userId = (await request.user())?.id
        if (!userId) return { status: 401, body: { error: "Unauthorized" } }
        if (typeof request.body.clientId === "string") await revokeConsent(request.store!, userId, request.body.clientId)
        return { redirect: `${request.authUrl}/oauth/consents?done=revoke` }
      },
    },
  }
}
