/**
 * The "check your email" page shown after an email sign-in link was requested. It names the site
 * the link is for (its host), not the address: the URL carries no email address, so that none
 * ends up in browser history or server logs.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"

export interface VerifyRequestPageParams {
  origin: string
  theme: Readonly<Required<Theme>>
}

export function verifyRequestPage(params: VerifyRequestPageParams, t: Translator): InternalResponse {
  const host = new URL(params.origin).host
  const body = html`<h1>${t.t("verify.heading")}</h1>
<p class="lead">${t.t("verify.body")}</p>
<p class="links"><a href="${params.origin}">${t.t("verify.host", { host })}</a></p>`
  return page({ lang: t.lang, title: t.t("verify.heading"), theme: params.theme, body })
}
