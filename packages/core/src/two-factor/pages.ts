/**
 * The two-factor pages: the challenge after the first factor (a code, or a recovery code), the
 * settings page (turning it on with a QR code, or managing it once on), the recovery codes shown
 * once, and "confirm it's you" before a sensitive action.
 *
 * Plain forms like every built-in page (no script), each posting its CSRF token. Code fields say
 * `autocomplete="one-time-code"` so that browsers and password managers offer the code they hold
 * or have read from a message. An `?error=` or `?notice=` value is never echoed: it picks a text
 * from a fixed list, or the default one. The layout already sends `Cache-Control: no-store`, which
 * these pages need (a challenge is one person's sign-in; a setup page holds the new secret); the
 * recovery codes page sets it again itself, so that no change to the layout can let a cache keep
 * the codes.
 *
 * @module
 */
import { noStore, type InternalResponse } from "../http/response.js"
import type { Theme } from "../types.js"
import { html, type SafeHtml } from "../pages/html.js"
import { intlLocale, type Translator } from "../pages/i18n.js"
import type { MessageKey } from "../pages/messages.js"
import { page } from "../pages/layout.js"
import { qrSvg } from "./qr.js"

/**
 * What these pages add to the shared stylesheet (constant rules: nothing from a request): a
 * checkbox beside its label (the shared rules make every input a full-width block), section
 * headings, the QR code, and monospace codes.
 */
const twoFactorCss =
  "h2{margin:28px 0 8px;font-size:1.125rem;line-height:1.3}" +
  ".check{display:flex;gap:10px;align-items:flex-start;margin:0 0 16px}" +
  ".check input{flex:none;width:18px;height:18px;margin:3px 0 0;padding:0}" +
  ".check label{margin:0;font-weight:400}" +
  ".qr{display:block;max-width:100%;margin:0 auto 16px}" +
  ".secret{text-align:center;overflow-wrap:anywhere;text-wrap:balance}" +
  ".open{margin:0 0 20px;text-align:center}" +
  "code,.codes,textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"Liberation Mono\",monospace}" +
  ".secret code{font-size:1.0625rem;word-spacing:.25em;user-select:all}" +
  ".codes{display:grid;grid-template-columns:repeat(2,1fr);gap:6px 16px;margin:0 0 20px;padding:0;list-style:none;font-size:1.0625rem;text-align:center}" +
  "textarea{display:block;width:100%;margin:0 0 16px;padding:10px 12px;font-size:.9375rem;color:var(--text);background:var(--card);border:1px solid var(--field-border);border-radius:8px;resize:vertical}"

/** "in 5 minutes", in the page's language: the wait before another attempt, rounded up. */
function waitText(seconds: number, lang: string): string {
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    seconds < 60 ? [Math.max(1, Math.ceil(seconds)), "second"] : seconds < 3600 ? [Math.ceil(seconds / 60), "minute"] : [Math.ceil(seconds / 3600), "hour"]
  return new Intl.RelativeTimeFormat(intlLocale(lang), { numeric: "always" }).format(value, unit)
}

/** The error reasons each page knows; any other value shows the default message. */
const challengeErrors: ReadonlySet<string> = new Set(["InvalidCode", "TooManyAttempts", "SendFailed", "CodeExpired"])
const setupErrors: ReadonlySet<string> = new Set(["InvalidCode", "TooManyAttempts", "SendFailed", "SetupExpired"])
const reauthErrors: ReadonlySet<string> = new Set(["InvalidCode", "TooManyAttempts"])

/** The alert for an `?error=` reason: a known one's text (with the wait, when known), else the default. */
function alert(error: string | undefined, known: ReadonlySet<string>, t: Translator, retryAfter?: number): SafeHtml | "" {
  if (!error) return ""
  let text: string
  if (!known.has(error)) text = t.t("twofactor.error.Default")
  else if (error === "TooManyAttempts" && retryAfter !== undefined && Number.isFinite(retryAfter) && retryAfter > 0) {
    text = t.t("twofactor.error.TooManyAttempts.wait", { when: waitText(retryAfter, t.lang) })
  } else {
    const key = `twofactor.error.${error}`
    text = t.t(t.has(key) ? key : "twofactor.error.Default")
  }
  return html`<div class="alert" role="alert">${text}</div>`
}

/** The fields every form here posts: the CSRF token, and the callback URL where there is one. */
function hidden(csrfToken: string, callbackUrl?: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}">${callbackUrl ? html`\n<input type="hidden" name="callbackUrl" value="${callbackUrl}">` : ""}`
}

interface CodeFieldOptions {
  autofocus?: boolean
  invalid?: boolean
}

/**
 * A labelled field for a one-time code. Numeric keyboard on phones; spaces allowed because apps
 * show codes as "123 456" and people type what they see.
 */
function codeField(id: string, label: string, { autofocus = false, invalid = false }: CodeFieldOptions = {}): SafeHtml {
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required${autofocus ? html` autofocus` : ""}${
    invalid ? html` aria-invalid="true"` : ""
  }>`
}

/** "Don't ask again on this device for 30 days". */
function rememberField(seconds: number, t: Translator): SafeHtml {
  // The largest whole unit that fits: "30 days", "12 hours", "45 minutes".
  const [unit, size] = seconds >= 86_400 ? (["day", 86_400] as const) : seconds >= 3600 ? (["hour", 3600] as const) : (["minute", 60] as const)
  const duration = new Intl.NumberFormat(intlLocale(t.lang), { style: "unit", unit, unitDisplay: "long" }).format(Math.max(1, Math.floor(seconds / size)))
  return html`<p class="check"><input id="twofactor-remember" name="remember" type="checkbox" value="1"><label for="twofactor-remember">${t.t("twofactor.remember", { duration })}</label></p>`
}

function twoFactorPage(title: string, theme: Readonly<Required<Theme>>, body: SafeHtml, t: Translator): InternalResponse {
  return page({ lang: t.lang, title, theme, body, pageCss: twoFactorCss })
}

export interface ChallengePageParams {
  /** Where the code form posts (POST two-factor). */
  action: string
  csrfToken: string
  /** The user's second factor: an app's code, or a code sent by email. */
  method: "totp" | "email"
  /** Which form: the code (default) or a recovery code. */
  mode: "code" | "recovery"
  /** Links that switch the form: the code form, and the recovery-code form ("use another method"). */
  codeUrl: string
  recoveryUrl: string
  /** Email method: where "Send me a new code" posts (POST two-factor/email). */
  resendAction?: string
  /** Email method: a code was just sent (a status message, role="status"). */
  sent: boolean
  /** When remembering the device is offered: for how many seconds (checkbox name="remember" value="1"). */
  rememberFor?: number
  /** `?error=`: "InvalidCode", "TooManyAttempts" (with retryAfter seconds when known), "SendFailed", "CodeExpired"; unknown values show a default message, never the value. */
  error: string | undefined
  retryAfter?: number
  /** "Cancel" / "sign in another way": the sign-in page. */
  signInUrl: string
  theme: Readonly<Required<Theme>>
}

/**
 * The second step of a sign-in: the code from an authenticator app or an email, or a recovery
 * code. The email address a code went to is not shown: whoever reached this page has passed the
 * first factor only.
 */
export function challengePage(params: ChallengePageParams, t: Translator): InternalResponse {
  const { method, mode } = params
  const invalid = params.error === "InvalidCode"
  const remember = params.rememberFor !== undefined && params.rememberFor > 0 ? rememberField(params.rememberFor, t) : ""
  const form =
    mode === "recovery"
      ? html`<p class="lead">${t.t("twofactor.recovery.lead")}</p>
<form action="${params.action}" method="POST">
${hidden(params.csrfToken)}
<label for="twofactor-recovery-code">${t.t("twofactor.recovery.label")}</label>
<input id="twofactor-recovery-code" name="recoveryCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required autofocus aria-describedby="twofactor-recovery-hint"${
          invalid ? html` aria-invalid="true"` : ""
        }>
<p class="hint" id="twofactor-recovery-hint">${t.t("twofactor.recovery.hint")}</p>
${remember}
<button type="submit" class="primary">${t.t("twofactor.button")}</button>
</form>`
      : html`<p class="lead">${t.t(method === "email" ? "twofactor.email.lead" : "twofactor.totp.lead")}</p>
<form action="${params.action}" method="POST">
${hidden(params.csrfToken)}
${codeField("twofactor-code", t.t("twofactor.code.label"), { autofocus: true, invalid })}
${remember}
<button type="submit" class="primary">${t.t("twofactor.button")}</button>
</form>
${
  method === "email" && params.resendAction
    ? html`<form action="${params.resendAction}" method="POST">
${hidden(params.csrfToken)}
<button type="submit">${t.t("twofactor.email.resend")}</button>
</form>`
    : ""
}`
  const switchLink =
    mode === "recovery"
      ? html`<a href="${params.codeUrl}">${t.t(method === "email" ? "twofactor.email.link" : "twofactor.totp.link")}</a>`
      : html`<a href="${params.recoveryUrl}">${t.t("twofactor.recovery.link")}</a>`
  const sent = method === "email" && mode === "code" && params.sent
  const body = html`<h1>${t.t("twofactor.heading")}</h1>
${alert(params.error, challengeErrors, t, params.retryAfter)}
${sent ? html`<div class="notice" role="status">${t.t("twofactor.email.sent")}</div>` : ""}
${form}
<p class="links">${switchLink}<br><a href="${params.signInUrl}">${t.t("twofactor.cancel")}</a></p>`
  return twoFactorPage(t.t("twofactor.heading"), params.theme, body, t)
}

export interface SetupPageParams {
  csrfToken: string
  theme: Readonly<Required<Theme>>
  /** `?error=`: "InvalidCode", "TooManyAttempts", "SendFailed", "SetupExpired"; anything else shows the default message. */
  error: string | undefined
  /** `?notice=`: "disabled" | "enabled" (a status message); unknown values show nothing. */
  notice: string | undefined
  /** Where "Done"/"Back" leads. */
  backUrl: string
  state:
    | {
        kind: "new"
        /** POST two-factor/setup, fields: code (+ method=totp hidden). */
        action: string
        /** The secret as text, grouped in fours for reading ("ABCD EFGH …"), for typing into an app; in a <code> with an id, and a label. */
        secret: string
        /** The otpauth:// URI: the QR code draws it; also offered as a link ("Open in an authenticator app on this device"). */
        uri: string
        /** When codes by email are offered instead: a form posting method=email to the same action (no code field). */
        emailOffered: boolean
      }
    | {
        kind: "enabled"
        method: "totp" | "email"
        /** Shown with Intl.DateTimeFormat in the page language. */
        enabledAt: Date
        recoveryCodesLeft: number
        /** POST two-factor/recovery-codes: new codes. */
        regenerateAction: string
        /** POST two-factor/disable. */
        disableAction: string
        /** TOTP: both forms ask for a current code (field name="code", one-time-code); email: no field (a recent sign-in is required instead). */
        codeNeeded: boolean
      }
}

/** The notices the settings page knows; anything else shows nothing. */
const setupNotices: Readonly<Record<string, MessageKey>> = { enabled: "twofactor.notice.enabled", disabled: "twofactor.notice.disabled" }

/** The secret in groups of four, whatever spacing it came with. */
function grouped(secret: string): string {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ")
}

/** Only an `otpauth:` URI becomes a link: the page never links to a scheme it did not mean. */
const otpauthUri = /^otpauth:\/\//i

type NewSetup = Extract<SetupPageParams["state"], { kind: "new" }>
type EnabledSetup = Extract<SetupPageParams["state"], { kind: "enabled" }>

function newSetupBody(state: NewSetup, params: SetupPageParams, t: Translator): SafeHtml {
  return html`<p class="lead">${t.t("twofactor.setup.lead")}</p>
${qrSvg(state.uri, t.t("twofactor.setup.qr"))}
<p id="twofactor-secret-label">${t.t("twofactor.setup.key")}</p>
<p class="secret"><code id="twofactor-secret">${grouped(state.secret)}</code></p>
${otpauthUri.test(state.uri) ? html`<p class="open"><a href="${state.uri}">${t.t("twofactor.setup.open")}</a></p>` : ""}
<form action="${state.action}" method="POST">
${hidden(params.csrfToken)}
<input type="hidden" name="method" value="totp">
${codeField("twofactor-setup-code", t.t("twofactor.setup.code"), { invalid: params.error === "InvalidCode" })}
<button type="submit" class="primary">${t.t("twofactor.setup.button")}</button>
</form>
${
  state.emailOffered
    ? html`<p class="divider">${t.t("signin.or")}</p>
<p>${t.t("twofactor.setup.email.lead")}</p>
<form action="${state.action}" method="POST">
${hidden(params.csrfToken)}
<input type="hidden" name="method" value="email">
<button type="submit">${t.t("twofactor.setup.email.button")}</button>
</form>`
    : ""
}
<p class="links"><a href="${params.backUrl}">${t.t("twofactor.back")}</a></p>`
}

function enabledBody(state: EnabledSetup, params: SetupPageParams, t: Translator): SafeHtml {
  // The server knows no visitor's time zone; a date in UTC is at most a day off, and the same on every server.
  const date = new Intl.DateTimeFormat(intlLocale(t.lang), { dateStyle: "long", timeZone: "UTC" }).format(state.enabledAt)
  const field = (id: string) => (state.codeNeeded ? codeField(id, t.t("twofactor.manage.code")) : "")
  return html`<p class="lead">${t.t(state.method === "email" ? "twofactor.status.email" : "twofactor.status.totp", { date })}</p>
<h2>${t.t("twofactor.regenerate.heading")}</h2>
<p>${t.t("twofactor.status.recovery", { count: String(state.recoveryCodesLeft) })}</p>
<p class="hint">${t.t("twofactor.regenerate.body")}</p>
<form action="${state.regenerateAction}" method="POST">
${hidden(params.csrfToken)}
${field("twofactor-regenerate-code")}
<button type="submit">${t.t("twofactor.regenerate.button")}</button>
</form>
<h2>${t.t("twofactor.disable.heading")}</h2>
<form action="${state.disableAction}" method="POST">
${hidden(params.csrfToken)}
${field("twofactor-disable-code")}
<button type="submit">${t.t("twofactor.disable.button")}</button>
</form>
<p class="links"><a href="${params.backUrl}">${t.t("twofactor.done")}</a></p>`
}

/** The settings page: turning two-factor sign-in on (QR code, key, confirming code), or managing it once on. */
export function setupPage(params: SetupPageParams, t: Translator): InternalResponse {
  const { state } = params
  const heading = t.t(state.kind === "new" ? "twofactor.setup.heading" : "twofactor.heading")
  const noticeKey = params.notice !== undefined && Object.hasOwn(setupNotices, params.notice) ? setupNotices[params.notice] : undefined
  const body = html`<h1>${heading}</h1>
${alert(params.error, setupErrors, t)}
${noticeKey ? html`<div class="notice" role="status">${t.t(noticeKey)}</div>` : ""}
${state.kind === "new" ? newSetupBody(state, params, t) : enabledBody(state, params, t)}`
  return twoFactorPage(heading, params.theme, body, t)
}

export interface RecoveryCodesPageParams {
  /** Shown once: each in a list, monospace; and all of them in a <textarea readonly> for copying; tell the user to keep them safe, each works once. */
  codes: readonly string[]
  /** "I have saved them" link. */
  continueUrl: string
  theme: Readonly<Required<Theme>>
}

/** New recovery codes, shown this once: as a list to read, and in one box to copy. */
export function recoveryCodesPage(params: RecoveryCodesPageParams, t: Translator): InternalResponse {
  const heading = t.t("twofactor.codes.heading")
  const body = html`<h1>${heading}</h1>
<p class="lead">${t.t("twofactor.codes.lead")}</p>
<ul class="codes">${params.codes.map((code) => html`<li><code>${code}</code></li>`)}</ul>
<label for="twofactor-codes">${t.t("twofactor.codes.copy")}</label>
<textarea id="twofactor-codes" readonly rows="5" spellcheck="false">${params.codes.join("\n")}</textarea>
<p><strong>${t.t("twofactor.codes.once")}</strong></p>
<p class="links"><a href="${params.continueUrl}">${t.t("twofactor.codes.continue")}</a></p>`
  const response = twoFactorPage(heading, params.theme, body, t)
  return { ...response, headers: { ...response.headers, ...noStore } }
}

export interface ReauthenticatePageParams {
  /** POST reauthenticate with `code` (an authenticator app's code). */
  action: string
  csrfToken: string
  callbackUrl: string
  /** "InvalidCode" | "TooManyAttempts"; anything else shows the default message. */
  error: string | undefined
  /** "Sign in again instead": the sign-in page, with the callback URL. */
  signInUrl: string
  theme: Readonly<Required<Theme>>
}

/** "Confirm it's you": a fresh code before a sensitive action. */
export function reauthenticatePage(params: ReauthenticatePageParams, t: Translator): InternalResponse {
  const heading = t.t("reauth.heading")
  const body = html`<h1>${heading}</h1>
${alert(params.error, reauthErrors, t)}
<p class="lead">${t.t("reauth.lead")}</p>
<form action="${params.action}" method="POST">
${hidden(params.csrfToken, params.callbackUrl)}
${codeField("reauth-code", t.t("twofactor.code.label"), { autofocus: true, invalid: params.error === "InvalidCode" })}
<button type="submit" class="primary">${t.t("reauth.button")}</button>
</form>
<p class="links"><a href="${params.signInUrl}">${t.t("reauth.signin")}</a></p>`
  return twoFactorPage(heading, params.theme, body, t)
}
