/**
 * The password provider's pages: sign-up, forgotten password, the form a reset link opens, and
 * the page an address-confirmation link opens. Plain forms like every built-in page (no script but
 * a captcha widget's, on the sign-up and forgotten-password forms when the captcha guards them),
 * each posting its CSRF token; after a request that sends an email, the same page says "check
 * your email" in words that do not depend on the address.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html, type SafeHtml } from "../pages/html.js"
import type { Translator } from "../pages/i18n.js"
import { page } from "../pages/layout.js"
import type { FormWidget } from "../pages/section.js"

/** The message for a password page's `?error=` reason; any other value shows the default message (a value from the URL is never echoed). */
function alert(error: string | undefined, t: Translator): SafeHtml | "" {
  if (!error) return ""
  const key = `password.error.${error}`
  return html`<div class="alert" role="alert">${t.t(t.has(key) ? key : "password.error.Default")}</div>`
}

/** The fields every form here posts: the CSRF token, and the callback URL where there is one. */
function hidden(csrfToken: string, callbackUrl?: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}">${callbackUrl ? html`\n<input type="hidden" name="callbackUrl" value="${callbackUrl}">` : ""}`
}

/** A new-password field with the policy's hint (its minimum length stated in the field, too). */
function newPasswordField(id: string, label: string, minLength: number, t: Translator, invalid: boolean): SafeHtml {
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="password" type="password" autocomplete="new-password" required minlength="${String(minLength)}" aria-describedby="${id}-hint"${invalid ? html` aria-invalid="true"` : ""}>
<p class="hint" id="${id}-hint">${t.t("password.hint", { min: String(minLength) })}</p>`
}

export interface FormPageParams {
  /** Where the form posts: `<page>/:provider`. */
  action: string
  csrfToken: string
  callbackUrl: string
  /** The `?error=` reason, as received. */
  error: string | undefined
  /** Prefills the address (after a refused password). */
  email: string | undefined
  /** Prefills the name on the sign-up form (after a refused password). */
  name?: string | undefined
  /** The request was made: show "check your email" instead of the form. */
  sent: boolean
  signInUrl: string
  theme: Readonly<Required<Theme>>
  /** The guard's widget in the form (the captcha), when it protects the page's flow. */
  widget?: FormWidget | undefined
}

/** The guard's widget in a form, and what the page loads and allows for it. */
function guarded(widget: FormWidget | undefined): { markup: SafeHtml | ""; layout: { scripts?: readonly string[]; sources?: FormWidget["sources"] } } {
  return widget ? { markup: html`\n${widget.markup}`, layout: { scripts: widget.scripts, sources: widget.sources } } : { markup: "", layout: {} }
}

function sentPage(heading: string, body: string, params: FormPageParams, t: Translator): InternalResponse {
  const content = html`<h1>${heading}</h1>
<p class="lead" role="status">${body}</p>
<p class="links"><a href="${params.signInUrl}">${t.t("password.back")}</a></p>`
  return page({ lang: t.lang, title: heading, theme: params.theme, body: content })
}

export function signUpPage(params: FormPageParams & { minLength: number }, t: Translator): InternalResponse {
  if (params.sent) return sentPage(t.t("verify.heading"), t.t("signup.sent.body"), params, t)
  const passwordInvalid = !!params.error && params.error !== "invalid-email"
  const guard = guarded(params.widget)
  const body = html`<h1>${t.t("signup.heading")}</h1>
${alert(params.error, t)}
<form action="${params.action}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
<label for="signup-name">${t.t("signup.name.label")}</label>
<input id="signup-name" name="name" type="text" autocomplete="name" maxlength="200" value="${params.name ?? ""}">
<label for="signup-email">${t.t("signin.email.label")}</label>
<input id="signup-email" name="email" type="email" autocomplete="email" required placeholder="${t.t("signin.email.placeholder")}" value="${params.email ?? ""}"${
    params.error === "invalid-email" ? html` aria-invalid="true"` : ""
  }>
${newPasswordField("signup-password", t.t("signin.password.label"), params.minLength, t, passwordInvalid)}${guard.markup}
<button type="submit" class="primary">${t.t("signup.button")}</button>
</form>
<p class="links"><a href="${params.signInUrl}">${t.t("signup.signin")}</a></p>`
  return page({ lang: t.lang, title: t.t("signup.heading"), theme: params.theme, body, ...guard.layout })
}

export function forgotPasswordPage(params: FormPageParams, t: Translator): InternalResponse {
  if (params.sent) return sentPage(t.t("verify.heading"), t.t("forgot.sent.body"), params, t)
  const guard = guarded(params.widget)
  const body = html`<h1>${t.t("forgot.heading")}</h1>
${alert(params.error, t)}
<p class="lead">${t.t("forgot.body")}</p>
<form action="${params.action}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
<label for="forgot-email">${t.t("signin.email.label")}</label>
<input id="forgot-email" name="email" type="email" autocomplete="email" required placeholder="${t.t("signin.email.placeholder")}" value="${params.email ?? ""}">${guard.markup}
<button type="submit" class="primary">${t.t("forgot.button")}</button>
</form>
<p class="links"><a href="${params.signInUrl}">${t.t("password.back")}</a></p>`
  return page({ lang: t.lang, title: t.t("forgot.heading"), theme: params.theme, body, ...guard.layout })
}

export interface ResetPageParams {
  action: string
  csrfToken: string
  /** Where to go once signed in with the new password: carried to the sign-in page. */
  callbackUrl: string
  token: string
  email: string
  error: string | undefined
  minLength: number
  signInUrl: string
  theme: Readonly<Required<Theme>>
}

/**
 * The form a reset link opens. Its URL holds the token: the layout's `Referrer-Policy: strict-origin`
 * (a request from the page names the origin alone, even to the app's own pages) and
 * `Cache-Control: no-store` keep it out of logs, scripts' `document.referrer` and caches. The address is in
 * a hidden `username` field too, so that password managers store the new password for it.
 */
export function resetPasswordPage(params: ResetPageParams, t: Translator): InternalResponse {
  const body = html`<h1>${t.t("reset.heading")}</h1>
${alert(params.error, t)}
<p class="lead">${t.t("reset.body", { email: params.email })}</p>
<form action="${params.action}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
<input type="hidden" name="token" value="${params.token}">
<input type="hidden" name="email" value="${params.email}">
<input type="email" name="username" autocomplete="username" value="${params.email}" hidden readonly tabindex="-1" aria-hidden="true">
${newPasswordField("reset-password", t.t("reset.label"), params.minLength, t, !!params.error)}
<button type="submit" class="primary">${t.t("reset.button")}</button>
</form>
<p class="note">${t.t("reset.notice")}</p>
<p class="links"><a href="${params.signInUrl}">${t.t("password.back")}</a></p>`
  return page({ lang: t.lang, title: t.t("reset.heading"), theme: params.theme, body })
}
