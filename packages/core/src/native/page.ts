/**
 * The native-app confirmation page: a signed-in user confirms that the app which opened the page
 * may receive their sign-in, with one POST form (the CSRF token and the authorization request's
 * parameters) and a way out. No code is made without this press of a button: a page of another
 * site, or a program on the device, that opens the authorization URL gets nothing by itself.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "../pages/html.js"
import type { Translator } from "../pages/i18n.js"
import { page } from "../pages/layout.js"

export interface NativeAppPageParams {
  /** Where the form posts: `<basePath>/native/authorize`. */
  action: string
  csrfToken: string
  /** The signed-in user, as shown: their email address or name. */
  account: string
  /** The app's redirect URI, where it receives the sign-in. */
  target: string
  /** The authorization request's parameters, posted back as they came. */
  fields: Readonly<Record<string, string>>
  /** Where "Cancel" leads: the redirect URI with `error=access_denied`. */
  cancelUrl: string
  theme: Readonly<Required<Theme>>
}

export function nativeAppPage(params: NativeAppPageParams, t: Translator): InternalResponse {
  const hidden = Object.entries(params.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  const body = html`<h1>${t.t("native.heading")}</h1>
<p class="lead">${t.t("native.confirm", { account: params.account })}</p>
<p>${t.t("native.target", { target: params.target })}</p>
<form action="${params.action}" method="POST">
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
${hidden}
<button type="submit" class="primary">${t.t("native.button")}</button>
</form>
<p class="links"><a href="${params.cancelUrl}">${t.t("native.cancel")}</a></p>`
  return page({ lang: t.lang, title: t.t("native.heading"), theme: params.theme, body })
}
