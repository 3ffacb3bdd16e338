/**
 * The document around every built-in page, and its response headers.
 *
 * @module
 */
import type { InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html, unsafeHtml, type SafeHtml } from "./html.js"
import { css } from "./styles.js"

/** Headers of every page: never cached (forms carry a CSRF token), never framed. */
const pageHeaders: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "private, no-cache, no-store",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
}

/** A CSS colour we can put in a style attribute without escaping its context. */
const cssColour = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|(rgb|hsl)a?\([\d\s.,%/]+\))$/i

export function themeStyle(theme: Readonly<Required<Theme>>): string {
  const vars: string[] = []
  if (theme.brandColor && cssColour.test(theme.brandColor)) vars.push(`--brand:${theme.brandColor}`)
  if (theme.buttonText && cssColour.test(theme.buttonText)) vars.push(`--brand-text:${theme.buttonText}`)
  return vars.join(";")
}

export interface LayoutOptions {
  lang: string
  title: string
  theme: Readonly<Required<Theme>>
  body: SafeHtml
  status?: number
}

export function page({ lang, title, theme, body, status = 200 }: LayoutOptions): InternalResponse {
  const document = html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${unsafeHtml(css)}</style>
</head>
<body class="${theme.colorScheme}" style="${themeStyle(theme)}">
<main>
${theme.logo ? html`<img class="logo" src="${theme.logo}" alt="">` : ""}
<div class="card">
${body}
</div>
</main>
</body>
</html>`
  return { status, headers: { ...pageHeaders }, body: document.value }
}
