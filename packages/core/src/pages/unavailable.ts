/**
 * The page a browser gets while the storage cannot be reached (`StorageUnavailable`): `503` with
 * `Retry-After`, "try again in a moment", and a link that tries again. Shown in place of what was
 * asked for (never a redirect, so that reloading tries the same thing), by the core's endpoints
 * and by the integrations' guards, whose protected page it stands for.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"

export interface UnavailablePageParams {
  /**
   * Where "Try again" goes: the page itself for a `GET`; for a form that was posted, the page the
   * form was on (the sign-in page), since following a link cannot post it again.
   */
  retryUrl: string
  /** Seconds: the `Retry-After` header. */
  retryAfter: number
  theme: Readonly<Required<Theme>>
}

export function unavailablePage(params: UnavailablePageParams, t: Translator): InternalResponse {
  const heading = t.t("error.heading.Unavailable")
  const body = html`<h1>${heading}</h1>
<p class="lead">${t.t("error.Unavailable")}</p>
<p class="links"><a href="${params.retryUrl}">${t.t("error.retry")}</a></p>`
  const answer = page({ lang: t.lang, title: heading, theme: params.theme, body, status: 503 })
  return { ...answer, headers: { ...answer.headers, "Retry-After": String(params.retryAfter) } }
}
