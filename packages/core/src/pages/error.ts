/**
 * The error page. `Configuration` answers 500, `AccessDenied` and `Verification` 403, anything
 * else 200; unknown codes show the default message (a code from the URL is never echoed). Every
 * variant links to the sign-in page, the configured one when there is one.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"

export type ErrorPageCode = "Configuration" | "AccessDenied" | "Verification" | "Default"

const statusOf: Record<ErrorPageCode, number> = { Configuration: 500, AccessDenied: 403, Verification: 403, Default: 200 }

/** The page code for an `?error=` value. */
export function errorPageCode(error: string | undefined): ErrorPageCode {
  return error === "Configuration" || error === "AccessDenied" || error === "Verification" ? error : "Default"
}

export interface ErrorPageParams {
  error: string | undefined
  signInUrl: string
  theme: Readonly<Required<Theme>>
}

export function errorPage(params: ErrorPageParams, t: Translator): InternalResponse {
  const code = errorPageCode(params.error)
  const heading = t.t(`error.heading.${code}`)
  const body = html`<h1>${heading}</h1>
<p class="lead">${t.t(`error.${code}`)}</p>
<p class="links"><a href="${params.signInUrl}">${t.t("error.back")}</a></p>`
  return page({ lang: t.lang, title: heading, theme: params.theme, body, status: statusOf[code] })
}
