/**
 * The account page's HTML: one page, a section for each part of the account, each with its own
 * forms. Plain forms like every built-in page, each posting its CSRF token to `account/<action>`,
 * which sends the browser back to the section with `?notice=` or `?error=` (and `in=`, the
 * section): those pick a text from a fixed list, never echoed. Adding a passkey is the one part
 * that needs JavaScript (the passkey script the sign-in page uses); without it the page says so.
 *
 * @module
 */
import type { AccountInfo } from "../account/management.js"
import type { InternalResponse } from "../http/response.js"
import { html, type SafeHtml } from "../pages/html.js"
import { intlLocale, type Translator } from "../pages/i18n.js"
import type { MessageKey } from "../pages/messages.js"
import { page } from "../pages/layout.js"
import type { SessionInfo } from "../session/management.js"
import type { FieldType } from "../store/model.js"
import type { Theme } from "../types.js"
import type { PasskeyInfo } from "../webauthn/types.js"
import type { SectionName } from "./options.js"

/** What the page adds to the shared stylesheet (constant rules). */
const accountCss =
  "nav ul{display:flex;flex-wrap:wrap;gap:6px 16px;margin:0 0 8px;padding:0;list-style:none}" +
  "section{padding:4px 0 8px}" +
  ".check{display:flex;gap:10px;align-items:flex-start;margin:0 0 16px}" +
  ".check input{flex:none;width:18px;height:18px;margin:3px 0 0;padding:0}" +
  ".check label{margin:0;font-weight:400}" +
  ".actions input{width:auto;margin:0}" +
  ".passkey-status{margin:12px 0 0;color:var(--muted);font-size:.875rem}.passkey-status:empty{display:none}" +
  "button.danger{color:var(--error-text);border-color:var(--error-border)}"

/** A field of the app's that users may set, as the profile form shows it. */
export interface ProfileField {
  name: string
  type: FieldType
  /** The stored value as form text ("" when unset). */
  value: string
}

export type SessionsView = { mode: "database"; list: SessionInfo[] } | { mode: "revocation" } | { mode: "none" }

/** Everything the page shows; a section left out is off. */
export interface AccountPageParams {
  csrfToken: string
  theme: Readonly<Required<Theme>>
  /** `<origin><basePath>`: where the forms post. */
  authUrl: string
  /** Who is signed in, as the lead says it. */
  who: string
  /** Whether the sign-in is recent (weakening changes go through the step-up first otherwise). */
  recent: boolean
  /** The step-up, back to this page. */
  stepUpUrl: string
  backUrl: string
  signOutUrl: string
  /** `?notice=` / `?error=` and the section they belong to, as the query had them. */
  notice: string | undefined
  error: string | undefined
  in: string | undefined
  profile?: { name: string; image: string; fields: ProfileField[] }
  email?: { current: string | null }
  password?: { has: boolean }
  passkeys?: { list: PasskeyInfo[]; provider: string; basePath: string; script: string; callbackUrl: string }
  twoFactor?: { method: "totp" | "email" | null; recoveryCodesLeft: number; setupUrl: string }
  linkedAccounts?: { accounts: AccountInfo[]; linkable: { id: string; name: string }[]; callbackUrl: string }
  sessions?: SessionsView
  plugins?: SafeHtml[]
  delete?: true
}

/** Every notice the page knows, and the section it shows in. */
const notices: Readonly<Record<string, MessageKey>> = {
  profile: "account.notice.profile",
  "email-sent": "account.notice.email-sent",
  "email-changed": "account.notice.email-changed",
  "password-changed": "account.notice.password-changed",
  "password-set": "account.notice.password-set",
  "passkey-added": "account.notice.passkey-added",
  "passkey-renamed": "account.notice.passkey-renamed",
  "passkey-removed": "account.notice.passkey-removed",
  unlinked: "account.notice.unlinked",
  "session-revoked": "account.notice.session-revoked",
  "sessions-revoked": "account.notice.sessions-revoked",
}

/** Every error the page knows by its own text; the password policy's have the password provider's. */
const errors: Readonly<Record<string, MessageKey>> = {
  NotFound: "account.error.NotFound",
  LastSignInMethod: "account.error.LastSignInMethod",
  Acting: "account.error.Acting",
  InvalidField: "account.error.InvalidField",
  InvalidImage: "account.error.InvalidImage",
  InvalidEmail: "account.error.InvalidEmail",
  SameEmail: "account.error.SameEmail",
  SendFailed: "account.error.SendFailed",
  WrongPassword: "account.error.WrongPassword",
  TooManyAttempts: "account.error.TooManyAttempts",
  TooManyRequests: "account.error.TooManyAttempts",
  InvalidName: "account.error.InvalidName",
  ConfirmDelete: "account.error.ConfirmDelete",
  "too-short": "password.error.too-short",
  "too-long": "password.error.too-long",
  "matches-context": "password.error.matches-context",
  breached: "password.error.breached",
}

/** The headings of the sections (the plugins' section has none of its own: each plugin's part brings its heading). */
const headings: Readonly<Record<Exclude<SectionName, "plugins">, MessageKey>> = {
  profile: "account.profile.heading",
  email: "account.email.heading",
  password: "account.password.heading",
  passkeys: "account.passkeys.heading",
  twoFactor: "account.twofactor.heading",
  linkedAccounts: "account.accounts.heading",
  sessions: "account.sessions.heading",
  delete: "account.delete.heading",
}

function dateText(date: Date, t: Translator): string {
  // The server knows no visitor's time zone; UTC is the same on every server.
  return new Intl.DateTimeFormat(intlLocale(t.lang), { dateStyle: "medium", timeZone: "UTC" }).format(date)
}

/** The notice or error of the query, shown in `section` when it belongs there. */
function message(params: AccountPageParams, section: SectionName, t: Translator): SafeHtml | "" {
  if (params.in !== section) return ""
  if (params.error !== undefined) {
    const key = Object.hasOwn(errors, params.error) ? errors[params.error]! : "account.error.Default"
    return html`<div class="alert" role="alert">${t.t(key)}</div>`
  }
  if (params.notice !== undefined && Object.hasOwn(notices, params.notice)) return html`<div class="notice" role="status">${t.t(notices[params.notice]!)}</div>`
  return ""
}

/** A form posting to `account/<action>` with the CSRF token. */
function form(params: AccountPageParams, action: string, body: SafeHtml, className?: string): SafeHtml {
  return html`<form action="${params.authUrl}/account/${action}" method="POST"${className ? html` class="${className}"` : ""}>
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
${body}
</form>`
}

/** The hint that a change will ask to confirm it's you first, when the sign-in is not recent. */
function staleHint(params: AccountPageParams, t: Translator): SafeHtml | "" {
  return params.recent ? "" : html`<p class="hint">${t.t("account.stale")}</p>`
}

function fieldInput(field: ProfileField, id: string, t: Translator): SafeHtml {
  const common = html`id="${id}" name="${field.name}"`
  switch (field.type) {
    case "boolean":
      return html`<select ${common}>
<option value=""${field.value === "" ? html` selected` : ""}>${t.t("account.profile.unset")}</option>
<option value="true"${field.value === "true" ? html` selected` : ""}>${t.t("account.profile.yes")}</option>
<option value="false"${field.value === "false" ? html` selected` : ""}>${t.t("account.profile.no")}</option>
</select>`
    case "integer":
      return html`<input ${common} type="text" inputmode="numeric" pattern="-?[0-9]*" value="${field.value}">`
    case "json":
    case "text":
      return html`<textarea ${common} rows="3">${field.value}</textarea>`
    default:
      return html`<input ${common} type="text" value="${field.value}">`
  }
}

function profileSection(params: AccountPageParams, t: Translator): SafeHtml {
  const profile = params.profile!
  return form(
    params,
    "profile",
    html`<label for="account-name">${t.t("account.profile.name")}</label>
<input id="account-name" name="name" type="text" autocomplete="name" maxlength="200" value="${profile.name}">
<label for="account-image">${t.t("account.profile.image")}</label>
<input id="account-image" name="image" type="url" inputmode="url" maxlength="2048" aria-describedby="account-image-hint" value="${profile.image}">
<p class="hint" id="account-image-hint">${t.t("account.profile.image.hint")}</p>
${profile.fields.map((field, i) => html`<label for="account-field-${i}">${field.name}</label>\n${fieldInput(field, `account-field-${i}`, t)}\n`)}<button type="submit" class="primary">${t.t("account.profile.save")}</button>`,
  )
}

function emailSection(params: AccountPageParams, t: Translator): SafeHtml {
  const { current } = params.email!
  return html`<p>${current ? t.t("account.email.current", { email: current }) : t.t("account.email.none")}</p>
${form(
  params,
  "email",
  html`<label for="account-email">${t.t("account.email.label")}</label>
<input id="account-email" name="email" type="email" autocomplete="email" required maxlength="320" aria-describedby="account-email-hint">
<p class="hint" id="account-email-hint">${t.t("account.email.hint")}</p>
${staleHint(params, t)}<button type="submit">${t.t("account.email.button")}</button>`,
)}`
}

function passwordSection(params: AccountPageParams, t: Translator): SafeHtml {
  if (params.password!.has) {
    return form(
      params,
      "password",
      html`<input type="text" name="username" autocomplete="username" value="${params.email?.current ?? ""}" hidden>
<label for="account-password-current">${t.t("account.password.current")}</label>
<input id="account-password-current" name="currentPassword" type="password" autocomplete="current-password" required>
<label for="account-password-new">${t.t("account.password.new")}</label>
<input id="account-password-new" name="newPassword" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">${t.t("account.password.change")}</button>`,
    )
  }
  return html`<p>${t.t("account.password.set.lead")}</p>
${form(
  params,
  "password",
  html`<input type="text" name="username" autocomplete="username" value="${params.email?.current ?? ""}" hidden>
<label for="account-password-new">${t.t("account.password.new")}</label>
<input id="account-password-new" name="newPassword" type="password" autocomplete="new-password" required minlength="8">
${staleHint(params, t)}<button type="submit">${t.t("account.password.set")}</button>`,
)}`
}

function passkeysSection(params: AccountPageParams, t: Translator): SafeHtml {
  const passkeys = params.passkeys!
  const rows = passkeys.list.map((passkey, i) => {
    const name = passkey.name ?? t.t("account.passkeys.unnamed")
    return html`<li><div class="what"><span>${name}</span>${passkey.createdAt ? html`<small>${t.t("account.passkeys.added", { date: dateText(passkey.createdAt, t) })}</small>` : ""}</div>
<div class="actions">${form(
      params,
      "passkey-rename",
      html`<input type="hidden" name="id" value="${passkey.id}">
<input id="account-passkey-${i}" name="name" type="text" required maxlength="64" value="${passkey.name ?? ""}" aria-label="${t.t("account.passkeys.name", { name })}">
<button type="submit" class="small">${t.t("account.passkeys.rename")}</button>`,
    )}${form(params, "passkey-remove", html`<input type="hidden" name="id" value="${passkey.id}"><button type="submit" class="small danger">${t.t("account.passkeys.remove", { name })}</button>`)}</div></li>`
  })
  const add = params.recent
    ? html`<div data-sesame-passkey-section hidden>
<form action="${params.authUrl}/account" method="GET" data-sesame-passkey="${passkeys.provider}" data-auth-url="${passkeys.basePath}" data-passkey-action="register" data-status-working="${t.t("account.passkeys.working")}" data-status-failed="${t.t("account.passkeys.failed")}">
<input type="hidden" name="callbackUrl" value="${passkeys.callbackUrl}">
<button type="submit" class="primary">${t.t("account.passkeys.add")}</button>
<p class="passkey-status" data-passkey-status role="status" aria-live="polite"></p>
</form>
</div>
<noscript><p class="hint">${t.t("account.passkeys.nojs")}</p></noscript>`
    : html`<p><a href="${params.stepUpUrl}">${t.t("account.passkeys.confirm")}</a></p>`
  return html`${passkeys.list.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p>${t.t("account.passkeys.none")}</p>`}
${staleHint(params, t)}${add}`
}

function twoFactorSection(params: AccountPageParams, t: Translator): SafeHtml {
  const { method, recoveryCodesLeft, setupUrl } = params.twoFactor!
  if (!method) return html`<p>${t.t("account.twofactor.off")}</p>\n<p><a href="${setupUrl}">${t.t("account.twofactor.enable")}</a></p>`
  const status = t.t(method === "totp" ? "account.twofactor.totp" : "account.twofactor.email", { count: String(recoveryCodesLeft) })
  return html`<p>${status}</p>\n<p><a href="${setupUrl}">${t.t("account.twofactor.manage")}</a></p>`
}

function linkedAccountsSection(params: AccountPageParams, t: Translator): SafeHtml {
  const { accounts, linkable, callbackUrl } = params.linkedAccounts!
  const rows = accounts.map(
    (account) => html`<li><div class="what"><span>${account.providerName}</span></div>
<div class="actions">${form(
      params,
      "unlink",
      html`<input type="hidden" name="provider" value="${account.provider}"><input type="hidden" name="providerAccountId" value="${account.providerAccountId}"><button type="submit" class="small">${t.t("account.accounts.unlink", { provider: account.providerName })}</button>`,
    )}</div></li>`,
  )
  const links = linkable.map(
    (provider) => html`<form action="${params.authUrl}/signin/${encodeURIComponent(provider.id)}" method="POST">
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
<input type="hidden" name="callbackUrl" value="${callbackUrl}">
<button type="submit">${t.t("account.accounts.link", { provider: provider.name })}</button>
</form>`,
  )
  return html`${accounts.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p>${t.t("account.accounts.none")}</p>`}
${accounts.length > 0 ? staleHint(params, t) : ""}${links.length > 0 ? html`<div class="buttons">${links}</div>` : ""}`
}

function sessionsSection(params: AccountPageParams, t: Translator): SafeHtml {
  const view = params.sessions!
  const others = form(params, "sessions-revoke", html`<button type="submit">${t.t("account.sessions.others")}</button>`)
  if (view.mode === "none") return html`<p>${t.t("account.sessions.none")}</p>`
  if (view.mode === "revocation") return html`<p>${t.t("account.sessions.jwt")}</p>\n${others}`
  const rows = view.list.map(
    (session) => html`<li><div class="what"><span${session.current ? html` class="current"` : ""}>${session.current ? t.t("account.sessions.current") : (session.userAgent?.slice(0, 160) ?? t.t("account.sessions.unknown"))}</span>${
      session.createdAt ? html`<small>${t.t("account.sessions.started", { date: dateText(session.createdAt, t) })}</small>` : ""
    }</div>
${session.current ? "" : html`<div class="actions">${form(params, "session-revoke", html`<input type="hidden" name="id" value="${session.id}"><button type="submit" class="small">${t.t("account.sessions.revoke")}</button>`)}</div>`}</li>`,
  )
  return html`<ul class="rows">${rows}</ul>\n${view.list.length > 1 ? others : ""}`
}

function deleteSection(params: AccountPageParams, t: Translator): SafeHtml {
  return html`<p>${t.t("account.delete.lead")}</p>
${form(
  params,
  "delete",
  html`<p class="check"><input id="account-delete-confirm" name="confirm" type="checkbox" value="yes" required><label for="account-delete-confirm">${t.t("account.delete.confirm")}</label></p>
${staleHint(params, t)}<button type="submit" class="danger">${t.t("account.delete.button")}</button>`,
)}`
}

const renderers: Readonly<Record<Exclude<SectionName, "plugins">, (params: AccountPageParams, t: Translator) => SafeHtml>> = {
  profile: profileSection,
  email: emailSection,
  password: passwordSection,
  passkeys: passkeysSection,
  twoFactor: twoFactorSection,
  linkedAccounts: linkedAccountsSection,
  sessions: sessionsSection,
  delete: deleteSection,
}

/** The account page, with each section `params` has, in the order of `order`. */
export function accountPage(params: AccountPageParams, order: readonly SectionName[], t: Translator): InternalResponse {
  const heading = t.t("account.heading")
  const shown = order.filter((name) => (name === "plugins" ? (params.plugins?.length ?? 0) > 0 : params[name] !== undefined))
  const sections = shown.map((name) =>
    name === "plugins"
      ? html`<section id="plugins">\n${params.plugins!}\n</section>`
      : html`<section id="${name}" aria-labelledby="${name}-heading">
<h2 id="${name}-heading">${t.t(headings[name])}</h2>
${message(params, name, t)}
${renderers[name](params, t)}
</section>`,
  )
  const nav = shown.filter((name): name is Exclude<SectionName, "plugins"> => name !== "plugins")
  const body = html`<h1>${heading}</h1>
<p class="lead">${t.t("account.signedInAs", { email: params.who })}</p>
${params.recent ? "" : html`<p class="notice">${t.t("account.stale")} <a href="${params.stepUpUrl}">${t.t("account.stale.link")}</a></p>`}
<nav aria-label="${t.t("account.nav")}"><ul>${nav.map((name) => html`<li><a href="#${name}">${t.t(headings[name])}</a></li>`)}</ul></nav>
${sections}
<p class="links"><a href="${params.backUrl}">${t.t("account.back")}</a> · <a href="${params.signOutUrl}">${t.t("account.signout")}</a></p>`
  const scripts = params.passkeys && params.recent ? [params.passkeys.script] : []
  return page({ lang: t.lang, title: heading, theme: params.theme, body, pageCss: accountCss, scripts, wide: true })
}

export interface ConfirmEmailPageParams {
  csrfToken: string
  theme: Readonly<Required<Theme>>
  /** POST account/email-confirm. */
  action: string
  link: { token: string; email: string; user: string }
  host: string
  /** An `EmailChangeFailure`, shown instead of the form. */
  error: string | undefined
  accountUrl: string
}

const confirmErrors: Readonly<Record<string, MessageKey>> = {
  InvalidLink: "account.confirm.error.InvalidLink",
  OtherUser: "account.confirm.error.OtherUser",
  EmailTaken: "account.confirm.error.EmailTaken",
}

/** The page an address-change link opens: one button confirms (so that a mail scanner changes nothing). */
export function confirmEmailPage(params: ConfirmEmailPageParams, t: Translator): InternalResponse {
  const heading = t.t("account.confirm.heading")
  const body =
    params.error !== undefined
      ? html`<h1>${heading}</h1>
<div class="alert" role="alert">${t.t(Object.hasOwn(confirmErrors, params.error) ? confirmErrors[params.error]! : "account.error.Default")}</div>
<p class="links"><a href="${params.accountUrl}">${t.t("account.heading")}</a></p>`
      : html`<h1>${heading}</h1>
<p class="lead">${t.t("account.confirm.body", { email: params.link.email, host: params.host })}</p>
<form action="${params.action}" method="POST">
<input type="hidden" name="csrfToken" value="${params.csrfToken}">
<input type="hidden" name="token" value="${params.link.token}">
<input type="hidden" name="email" value="${params.link.email}">
<input type="hidden" name="user" value="${params.link.user}">
<button type="submit" class="primary">${t.t("account.confirm.button")}</button>
</form>`
  return page({ lang: t.lang, title: heading, theme: params.theme, body, status: params.error !== undefined ? 400 : 200 })
}
