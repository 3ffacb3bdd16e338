/**
 * The "check your email" page shown after an email sign-in link was requested. It names the site
 * the link is for (its host), not the address: the URL carries no email address, so that none
 * ends up in browser history or server logs.
 *
 * When the provider sends one-time codes and the browser holds the binding of one (the emailCode
 * cookie), the page also asks for the code: one field, numeric, that browsers and phones fill from
 * the email (`autocomplete="one-time-code"`). A wrong code comes back with `?error=`, shown as a
 * fixed message: the value in the URL is never echoed, nor the code typed.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html, type SafeHtml } from "../pages/html.js"
import type { Translator } from "../pages/i18n.js"
import { page } from "../pages/layout.js"

/** The form that takes a one-time code. */
export interface CodeFormParams {
  /** Where it posts: `callback/:provider`. */
  action: string
  csrfToken: string
  callbackUrl: string
  /** The email had the link beside the code. */
  withLink: boolean
  /** The `?error=` reason, as received. */
  error: string | undefined
  /** Where to ask for a new code. */
  signInUrl: string
}

export interface VerifyRequestPageParams {
  origin: string
  theme: Readonly<Required<Theme>>
  /** The form for a one-time code, when one was sent to this browser. */
  code?: CodeFormParams
}

/** A larger, spaced-out field for six digits. */
const codeCss = "#verify-code{font-size:1.5rem;letter-spacing:.3em;text-align:center;font-variant-numeric:tabular-nums}"

function codeAlert(error: string | undefined, t: Translator): SafeHtml | "" {
  if (!error) return ""
  const key = `verify.code.error.${error}`
  return html`<div class="alert" role="alert">${t.t(t.has(key) ? key : "verify.code.error.Default")}</div>`
}

function codeForm(form: CodeFormParams, host: string, origin: string, t: Translator): SafeHtml {
  return html`${codeAlert(form.error, t)}
<p class="lead">${t.t(form.withLink ? "verify.code.bodyWithLink" : "verify.code.body")}</p>
<form action="${form.action}" method="POST">
<input type="hidden" name="csrfToken" value="${form.csrfToken}">
<input type="hidden" name="callbackUrl" value="${form.callbackUrl}">
<label for="verify-code">${t.t("verify.code.label")}</label>
<input id="verify-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" minlength="6" maxlength="7" required${
    form.error ? html` aria-invalid="true"` : ""
  }>
<button type="submit" class="primary">${t.t("verify.code.button")}</button>
</form>
<p class="links"><a href="${form.signInUrl}">${t.t("verify.code.again")}</a></p>
<p class="links"><a href="${origin}">${t.t("verify.host", { host })}</a></p>`
}

export function verifyRequestPage(params: VerifyRequestPageParams, t: Translator): InternalResponse {
  const host = new URL(params.origin).host
  const content = params.code
    ? codeForm(params.code, host, params.origin, t)
    : html`<p class="lead">${t.t("verify.body")}</p>
<p class="links"><a href="${params.origin}">${t.t("verify.host", { host })}</a></p>`
  const body = html`<h1>${t.t("verify.heading")}</h1>
${content}`
  return page({ lang: t.lang, title: t.t("verify.heading"), theme: params.theme, body, ...(params.code ? { pageCss: codeCss } : {}) })
}
