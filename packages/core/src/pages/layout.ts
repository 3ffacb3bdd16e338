/**
 * The document around every built-in page, and its response headers.
 *
 * The pages are plain HTML forms: they work without JavaScript and contain no script, but for the
 * passkey form's. Their Content-Security-Policy allows nothing but the one `<style>` element (by a
 * nonce fresh for each response, so no injected style could use it), images from the app's own
 * origin or `data:`, and no framing. A page with a passkey form also allows its script, by the same
 * nonce (the script is served by Sesame from the page's origin), and requests to the page's origin
 * (`connect-src 'self'`), where the script fetches the ceremony's options and posts its result.
 *
 * A page with a captcha widget (`sources`) also allows the captcha provider's origins, as the provider
 * documents them, and loads its script by the same nonce; no other page names another site.
 *
 * `Referrer-Policy: strict-origin`: a request from a page names at most the app's origin, never a
 * path or query, to any site, the app's own included; so the URLs that hold a token (an email
 * link's confirmation page, a reset link's form) reach nobody through `Referer` or
 * `document.referrer`, not even a page of the app's that the "back to sign in" link opens (where
 * an analytics script would read it). And the forms' posts keep `Origin: <the app's origin>`:
 * `no-referrer`, which this replaced, makes Chromium send `Origin: null` on every form post,
 * which frameworks' own CSRF checks refuse (SvelteKit's, in production) and which left the core's
 * origin check (`http/origin-check.ts`) with `Sec-Fetch-Site` alone. `same-origin` would also keep
 * `Origin`, but sends the full URL, token and all, to the app's own pages.
 *
 * `form-action` is left out on purpose: Chrome applies it to every redirect that follows a form
 * submission, so `form-action 'self'` would block the sign-in button of an OAuth provider (the
 * POST to `signin/:provider` redirects to the provider) and any callback URL that the `redirect`
 * callback allows on another origin. The forms' targets are fixed by the page itself.
 *
 * @module
 */
import { randomToken } from "../crypto/encoding.js"
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html, unsafeHtml, type SafeHtml } from "./html.js"
import { css, schemeClass } from "./styles.js"
import { brandColours, isSafeImageSource } from "./theme.js"

export interface LayoutOptions {
  lang: string
  title: string
  theme: Readonly<Required<Theme>>
  body: SafeHtml
  status?: number
  /** Rules this page adds (provider button colours), built only from validated values. */
  pageCss?: string
  /** Same-origin scripts the page needs (paths), loaded with the nonce. */
  scripts?: readonly string[]
  /** Room for lists and tables (a plugin's page): the card is wider than for one form. */
  wide?: boolean
  /**
   * Another site's origins the page needs (a captcha widget's): its scripts, in `scripts` as
   * absolute URLs, are loaded with the nonce, and the policy allows these origins, nothing more.
   */
  sources?: CspSources
}

/** Origins a page allows beyond its own, by directive (each an origin or a path prefix on one). */
export interface CspSources {
  readonly script?: readonly string[]
  readonly frame?: readonly string[]
  readonly connect?: readonly string[]
  readonly style?: readonly string[]
}

/** The brand variables of the theme; nothing for a colour that is not a plain CSS colour. */
export function themeCss(theme: Readonly<Required<Theme>>): string {
  const brand = brandColours(theme.brandColor, theme.buttonText)
  return brand ? `:root{--brand:${brand.background};--brand-text:${brand.text}}` : ""
}

/**
 * The page's policy: its own nonce for its one style element and its scripts, requests to its own
 * origin for a page with scripts, and another site's origins only where the page names them
 * (`sources`, a captcha widget's).
 */
export function contentSecurityPolicy(nonce: string, scripts = false, sources: CspSources = {}): string {
  const add = (list: readonly string[] | undefined) => (list && list.length > 0 ? ` ${list.join(" ")}` : "")
  const connect = [...(scripts ? ["'self'"] : []), ...(sources.connect ?? [])]
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'${add(sources.style)}`,
    ...(scripts || (sources.script?.length ?? 0) > 0 ? [`script-src 'nonce-${nonce}'${add(sources.script)}`] : []),
    ...(connect.length > 0 ? [`connect-src ${connect.join(" ")}`] : []),
    ...(sources.frame && sources.frame.length > 0 ? [`frame-src ${sources.frame.join(" ")}`] : []),
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ")
}

const colorSchemeMeta = { auto: "light dark", light: "light", dark: "dark" } as const

/** Where a notice about the whole session goes on every built-in page (an acting session's banner): see {@link withNotice}. */
const noticeSlot = "<!--sesame:notice-->"

/**
 * A built-in page's response with `notice` in its slot, above the page's card; any other response
 * as it is. The one place besides {@link page} that knows the document.
 */
export function withNotice(response: InternalResponse, notice: SafeHtml): InternalResponse {
  if (!isBuiltInPage(response)) return response
  return { ...response, body: (response.body as string).replace(noticeSlot, notice.value) }
}

/** Whether `response` is a built-in page, which {@link withNotice} can add to. */
export function isBuiltInPage(response: InternalResponse): boolean {
  return typeof response.body === "string" && response.body.includes(noticeSlot)
}

export function page({ lang, title, theme, body, status = 200, pageCss = "", scripts = [], wide = false, sources }: LayoutOptions): InternalResponse {
  const nonce = randomToken(18)
  const logo = isSafeImageSource(theme.logo) ? theme.logo : undefined
  const document = html`<!doctype html>
<html lang="${lang}" class="${schemeClass(theme.colorScheme)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${colorSchemeMeta[theme.colorScheme] ?? colorSchemeMeta.auto}">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title}</title>
<style nonce="${nonce}">${unsafeHtml(css + themeCss(theme) + pageCss)}</style>
${scripts.map((src) => html`<script nonce="${nonce}" src="${src}" defer></script>\n`)}</head>
<body>
${unsafeHtml(noticeSlot)}
<main${wide ? html` class="wide"` : ""}>
${logo ? html`<img class="logo" src="${logo}" alt="">` : ""}
<div class="card">
${body}
</div>
</main>
</body>
</html>
`
  return {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": lang,
      // Forms carry a CSRF token and the page depends on the visitor: never cache it.
      "Cache-Control": "private, no-cache, no-store",
      "Content-Security-Policy": contentSecurityPolicy(nonce, sources ? scripts.some((src) => !src.startsWith("https://")) : scripts.length > 0, sources),
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "strict-origin",
    },
    body: document.value,
  }
}
