/**
 * The built-in sign-in emails (the link, a one-time code, or both): a subject, a plain-text part and
 * an HTML part, in the language the request's `Accept-Language` picks from the same catalogues as
 * the pages (with the app's `messages` overrides).
 *
 * The HTML is built for mail clients, not browsers: a table layout and inline styles (clients drop
 * `<style>` elements and ignore most CSS), no images and no script. Every value is escaped by the
 * `html` template; the brand colour is used only when it matches the theme's colour grammar, which
 * has no quotes or semicolons, so it cannot leave its `style` attribute. The link appears twice, as a
 * button and written out, for clients that show no buttons. A code is shown large, in a monospace
 * font, as one run of digits that a double click selects whole; the plain-text part has it on a
 * line of its own.
 *
 * @module
 */
import { html, type SafeHtml } from "../pages/html.js"
import type { Translator } from "../pages/i18n.js"
import { brandColours } from "../pages/theme.js"
import type { Theme } from "../types.js"
import type { VerificationEmail } from "./types.js"

export interface VerificationEmailParams {
  /** The sign-in link. */
  url: string
  /** The site's host, shown in the subject and heading. */
  host: string
  theme: Readonly<Required<Theme>>
}

/** The colours of the pages' light palette, so the email looks like the site's pages. */
const palette = {
  background: "#f3f4f6",
  card: "#ffffff",
  border: "#d3d7de",
  text: "#1a1d23",
  muted: "#4b5261",
  link: "#1d4ed8",
  brand: "#3b5bdb",
  brandText: "#ffffff",
}

const font = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Hiragino Sans',sans-serif"

/** What an email with one link says: its subject (also its heading), the text before the link, the button, the last line. */
export interface LinkEmailText {
  subject: string
  /** Before the link in the plain-text part, and above the button in the HTML part. */
  lead: string
  button: string
  notice: string
}

/** The document around every email: the card, the heading (the subject), `content`, and the notice as the last line. */
function emailDocument(subject: string, content: SafeHtml, notice: string, t: Translator): string {
  return html`<!doctype html>
<html lang="${t.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${subject}</title>
</head>
<body style="margin:0;padding:0;background:${palette.background}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${palette.background}">
<tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:480px;background:${palette.card};border:1px solid ${palette.border};border-radius:12px">
<tr><td style="padding:32px 28px;${font};font-size:16px;line-height:1.5;color:${palette.text}">
<h1 style="margin:0 0 24px;font-size:22px;line-height:1.3">${subject}</h1>
${content}
<p style="margin:0;font-size:14px;color:${palette.muted}">${notice}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`.value
}

/** The lead, the button and the link written out. */
function linkBlock(lead: string, button: string, { url, theme }: Pick<VerificationEmailParams, "url" | "theme">, t: Translator): SafeHtml {
  const brand = brandColours(theme.brandColor, theme.buttonText) ?? { background: palette.brand, text: palette.brandText }
  return html`<p style="margin:0 0 24px">${lead}</p>
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px"><tr>
<td style="border-radius:8px;background:${brand.background}"><a href="${url}" target="_blank" style="display:inline-block;padding:12px 28px;border:1px solid ${brand.background};border-radius:8px;${font};font-size:16px;font-weight:600;color:${brand.text};text-decoration:none">${button}</a></td>
</tr></table>
<p style="margin:0 0 8px;font-size:14px;color:${palette.muted}">${t.t("email.copy")}</p>
<p style="margin:0 0 24px;font-size:14px;word-break:break-all"><a href="${url}" style="color:${palette.link}">${url}</a></p>`
}

/** An email whose one action is `url`, in the pages' look; the sign-in email and the password provider's emails are made here. */
export function linkEmail(text: LinkEmailText, params: Pick<VerificationEmailParams, "url" | "theme">, t: Translator): VerificationEmail {
  const { subject, lead, button, notice } = text
  const plain = `${subject}\n\n${lead}\n${params.url}\n\n${notice}\n`
  return { subject, text: plain, html: emailDocument(subject, linkBlock(lead, button, params, t), notice, t) }
}

/** The sign-in email. */
export function verificationEmail({ url, host, theme }: VerificationEmailParams, t: Translator): VerificationEmail {
  const text = { subject: t.t("email.subject", { host }), lead: t.t("email.open"), button: t.t("email.button"), notice: t.t("email.notice") }
  return linkEmail(text, { url, theme }, t)
}

export interface CodeEmailParams {
  /** The six-digit code. */
  code: string
  /** How many minutes the code works. */
  minutes: number
  /** The site's host, shown in the subject and heading. */
  host: string
  /** The sign-in link, when the email carries one beside the code. */
  url?: string
  theme: Readonly<Required<Theme>>
}

/** The email with a one-time code: the code alone (`code: "only"`, a second factor), or the code and the sign-in link. */
export function codeEmail({ code, minutes, host, url, theme }: CodeEmailParams, t: Translator): VerificationEmail {
  const subject = t.t("codeEmail.subject", { host })
  const lead = t.t("codeEmail.lead")
  const notice = t.t(url === undefined ? "codeEmail.notice" : "codeEmail.noticeWithLink", { minutes: String(minutes) })
  const codeBlock = html`<p style="margin:0 0 16px">${lead}</p>
<p style="margin:0 0 24px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:6px;color:${palette.text}"><span style="user-select:all;-webkit-user-select:all">${code}</span></p>`
  const content = url === undefined ? codeBlock : html`${codeBlock}
${linkBlock(t.t("codeEmail.link"), t.t("email.button"), { url, theme }, t)}`
  const plain = url === undefined ? `${subject}\n\n${lead}\n\n${code}\n\n${notice}\n` : `${subject}\n\n${lead}\n\n${code}\n\n${t.t("codeEmail.link")}\n${url}\n\n${notice}\n`
  return { subject, text: plain, html: emailDocument(subject, content, notice, t) }
}
