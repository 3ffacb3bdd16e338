/**
 * The sign-out confirmation page: one POST form with the CSRF token, and a way back.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"

export interface SignOutPageParams {
  authUrl: string
  csrfToken: string
  /** Where the user goes after signing out, and where "stay signed in" leads (a validated http(s) URL). */
  callbackUrl: string
  theme: Readonly<Required<Theme>>
}

export function signOutPage(params: SignOutPageParams, t: Translator): InternalResponse {
  const body = html`<h1>${t.t("signout.heading")}</h1>
<p class="lead">${t.t("signout.confirm")}</p>
<form action="${params.authUrl}/signout" method="POST">
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
<input type="hidden" name="callbackUrl" value="${params.callbackUrl}">
<button type="submit" class="primary">${t.t("signout.button")}</button>
</form>
<p class="links"><a href="${params.callbackUrl}">${t.t("signout.cancel")}</a></p>`
  return page({ lang: t.lang, title: t.t("signout.heading"), theme: params.theme, body })
}
