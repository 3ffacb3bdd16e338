/**
 * The "check your email" page shown after an email sign-in link was requested.
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
<p>${t.t("verify.body")}</p>
<p class="links"><a href="${params.origin}">${t.t("verify.host", { host })}</a></p>`
  return page({ lang: t.lang, title: t.t("verify.title"), theme: params.theme, body })
}
