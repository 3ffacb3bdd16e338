/**
 * The page an email sign-in link opens. Mail security scanners and link previewers open every link
 * in a message, often before the person does; if opening the link signed in, they would use up the
 * single-use token and the person's click would fail. So opening the link only shows this page, and
 * its one button posts the token back: only that POST signs in.
 *
 * There is no script that submits the form by itself: the scanners that run JavaScript (sandboxes
 * that "detonate" links in a headless browser) would submit it too. The button has focus, so Enter
 * works as well as a click. The form carries a CSRF token minted for this page, so another site
 * cannot post a link of its own choosing and sign the visitor in to an account it controls.
 *
 * The page's URL holds the token: the layout already sends `Referrer-Policy: strict-origin` and
 * `Cache-Control: no-store`, so the URL is neither passed on (a request from the page names the
 * origin alone, to the app's own pages too) nor kept in a cache, while the form's post still
 * carries `Origin`.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "./html.js"
import type { Translator } from "./i18n.js"
import type { MessageKey } from "./messages.js"
import { page } from "./layout.js"

export interface ConfirmEmailPageParams {
  /** Where the form posts: the provider's callback URL. */
  action: string
  csrfToken: string
  token: string
  email: string
  callbackUrl: string
  /** Ask for the account's password too (the password provider's confirmation), with the error of a wrong one. */
  password?: { error: boolean }
  /** The site's origin, whose host the page names. */
  origin: string
  theme: Readonly<Required<Theme>>
}

/** The texts of a confirmation page: the sign-in link's (`confirm.*`) or another link's. */
export interface ConfirmTexts {
  heading: MessageKey
  /** Gets `{host}` and `{email}`. */
  body: MessageKey
  button: MessageKey
  /** Why the page is there, under the form; none when the body says it. */
  note: MessageKey | null
}

const signInLinkTexts: ConfirmTexts = { heading: "confirm.heading", body: "confirm.body", button: "confirm.button", note: "confirm.why" }

/**
 * The page an emailed link opens, whose one button posts the link back (see the module's
 * documentation): the sign-in link's, and the password provider's address confirmation.
 */
export function confirmEmailPage(params: ConfirmEmailPageParams, t: Translator, texts: ConfirmTexts = signInLinkTexts): InternalResponse {
  const host = new URL(params.origin).host
  const body = html`<h1>${t.t(texts.heading)}</h1>
${params.password?.error ? html`<div class="alert" role="alert">${t.t("password.error.wrong-password")}</div>` : ""}
<p class="lead">${t.t(texts.body, { host, email: params.email })}</p>
<form action="${params.action}" method="POST">
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
<input type="hidden" name="token" value="${params.token}">
<input type="hidden" name="email" value="${params.email}">
<input type="hidden" name="callbackUrl" value="${params.callbackUrl}">
${
  params.password
    ? html`<input type="email" name="username" autocomplete="username" value="${params.email}" hidden readonly tabindex="-1" aria-hidden="true">
<label for="confirm-password">${t.t("signin.password.label")}</label>
<input id="confirm-password" name="password" type="password" autocomplete="current-password" required autofocus${params.password.error ? html` aria-invalid="true"` : ""}>
<button type="submit" class="primary">${t.t(texts.button)}</button>`
    : html`<button type="submit" class="primary" autofocus>${t.t(texts.button)}</button>`
}
</form>
${texts.note ? html`<p class="note">${t.t(texts.note)}</p>` : ""}`
  return page({ lang: t.lang, title: t.t(texts.heading), theme: params.theme, body })
}
