/**
 * The sign-in page: a form per provider, each carrying the CSRF token and the callback URL.
 *
 * @module
 */
import type { CredentialsConfig } from "../credentials/types.js"
import type { EmailConfig } from "../email/types.js"
import type { InternalResponse } from "../http/response.js"
import type { OAuthConfig } from "../oauth/types.js"
import type { Provider, Theme } from "../types.js"
import { html, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"

export interface SignInPageParams {
  providers: readonly Provider[]
  authUrl: string
  csrfToken: string
  callbackUrl: string
  error: string | undefined
  email: string | undefined
  theme: Readonly<Required<Theme>>
}

const safeLogo = /^(data:image\/|https:\/\/|\/)/

function hidden(csrfToken: string, callbackUrl: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}"><input type="hidden" name="callbackUrl" value="${callbackUrl}">`
}

function oauthForm(p: OAuthConfig, params: SignInPageParams, t: Translator): SafeHtml {
  const logo = p.style?.logo && safeLogo.test(p.style.logo) ? p.style.logo : undefined
  return html`<form class="provider" action="${params.authUrl}/signin/${encodeURIComponent(p.id)}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
<button type="submit">${logo ? html`<img src="${logo}" alt="">` : ""}<span>${t.t("signin.with", { provider: p.name })}</span></button>
</form>`
}

function emailForm(p: EmailConfig, params: SignInPageParams, t: Translator): SafeHtml {
  const fieldId = `input-email-for-${p.id}-provider`
  return html`<form class="provider" action="${params.authUrl}/signin/${encodeURIComponent(p.id)}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
<label for="${fieldId}">${t.t("signin.email.label")}</label>
<input id="${fieldId}" type="email" name="email" autocomplete="email" required placeholder="${t.t("signin.email.placeholder")}" value="${params.email ?? ""}">
<button class="primary" type="submit">${t.t("signin.with", { provider: p.name })}</button>
</form>`
}

function credentialsForm(p: CredentialsConfig, params: SignInPageParams, t: Translator): SafeHtml {
  const fields = Object.entries(p.credentials ?? {}).map(([name, field]) => {
    const fieldId = `input-${name}-for-${p.id}-provider`
    return html`<label for="${fieldId}">${field.label ?? name}</label>
<input id="${fieldId}" name="${name}" type="${field.type ?? "text"}" placeholder="${field.placeholder ?? ""}"${
      field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ""
    }${field.required ? html` required` : ""}${field.value !== undefined ? html` value="${field.value}"` : ""}>`
  })
  return html`<form class="provider" action="${params.authUrl}/callback/${encodeURIComponent(p.id)}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
${fields}
<button class="primary" type="submit">${t.t("signin.with", { provider: p.name })}</button>
</form>`
}

function section(p: Provider, params: SignInPageParams, t: Translator): SafeHtml | null {
  switch (p.type) {
    case "oauth":
    case "oidc":
      return oauthForm(p, params, t)
    case "email":
      return emailForm(p, params, t)
    case "credentials":
      return credentialsForm(p, params, t)
    default:
      return null
  }
}

/** The message for an `?error=` code, or the default. */
export function signInErrorMessage(code: string, t: Translator): string {
  const key = `signin.error.${code}`
  return t.t(t.has(key) ? key : "signin.error.Default")
}

export function signInPage(params: SignInPageParams, t: Translator): InternalResponse {
  const sections = params.providers.map((p) => section(p, params, t)).filter((s): s is SafeHtml => s !== null)
  const body = html`<h1>${t.t("signin.heading")}</h1>
${params.error ? html`<div class="error" role="alert">${signInErrorMessage(params.error, t)}</div>` : ""}
${sections.map((s, i) => (i === 0 ? s : html`<div class="divider">${t.t("signin.or")}</div>${s}`))}`
  return page({ lang: t.lang, title: t.t("signin.title"), theme: params.theme, body })
}
