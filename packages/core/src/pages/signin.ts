/**
 * The sign-in page: one section per provider, in the configured order. Every form posts the CSRF
 * token and the callback URL; none needs JavaScript but the passkey form, which stays hidden until
 * its script shows it (see `webauthn/section.ts`).
 *
 * Each provider kind has a section renderer in `renderers`; a kind without one is left off the
 * page rather than shown as a button that does nothing.
 *
 * @module
 */
import type { CredentialsConfig } from "../credentials/types.js"
import type { EmailConfig } from "../email/types.js"
import type { InternalResponse } from "../http/response.js"
import type { OAuthConfig } from "../oauth/types.js"
import type { PasswordConfig } from "../password/types.js"
import type { WebAuthnConfig } from "../webauthn/types.js"
import type { Provider, ProviderType } from "../types.js"
import { passkeySection } from "../webauthn/section.js"
import { html, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"
import { credentialField, formAction, hiddenFields, type Section, type SectionContext, type SignInPageParams } from "./section.js"
import { brandColours, isSafeImageSource } from "./theme.js"

type SectionRenderer<P extends Provider> = (provider: P, context: SectionContext) => Section

/** The section renderer of each provider kind. */
type Renderers = { [K in ProviderType]?: SectionRenderer<Extract<Provider, { type: K }>> }

function oauthSection(provider: OAuthConfig, { params, t, index }: SectionContext): Section {
  const style = provider.style
  const logo = isSafeImageSource(style?.logo) ? style.logo : undefined
  const colours = brandColours(style?.brandColor ?? style?.bg, style?.text)
  const className = `provider-${index}`
  return {
    button: true,
    css: colours ? `.${className}{background:${colours.background};border-color:${colours.background};color:${colours.text}}` : undefined,
    markup: html`<form action="${formAction(params, "signin", provider)}" method="POST">
${hiddenFields(params)}
<button type="submit" class="${className}">${logo ? html`<img src="${logo}" alt="" width="20" height="20">` : ""}<span>${t.t("signin.with", { provider: provider.name })}</span></button>
</form>`,
  }
}

/** The labelled address field of a form, prefilled from `?email=`. */
function emailField(id: string, autocomplete: string, params: SignInPageParams, t: Translator): SafeHtml {
  return html`<label for="${id}">${t.t("signin.email.label")}</label>
<input id="${id}" name="email" type="email" autocomplete="${autocomplete}" required placeholder="${t.t("signin.email.placeholder")}" value="${params.email ?? ""}">`
}

function emailSection(provider: EmailConfig, { params, t, index }: SectionContext): Section {
  const id = `provider-${index}-email`
  return {
    button: false,
    markup: html`<form action="${formAction(params, "signin", provider)}" method="POST">
${hiddenFields(params)}
${emailField(id, "email", params, t)}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>`,
  }
}

function credentialsSection(provider: CredentialsConfig, { params, t, index }: SectionContext): Section {
  const fields = Object.entries(provider.credentials ?? {}).map(([name, field], i) => credentialField(name, field, `provider-${index}-field-${i}`))
  return {
    button: false,
    markup: html`<form action="${formAction(params, "callback", provider)}" method="POST">
${hiddenFields(params)}
${fields}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>`,
  }
}

/** The ways to a forgotten password and (when offered) to sign-up, under a password form. */
function passwordLinks(provider: PasswordConfig, { params, t }: SectionContext): SafeHtml {
  const query = new URLSearchParams({ callbackUrl: params.callbackUrl }).toString()
  return html`<p class="links"><a href="${params.authUrl}/forgot-password?${query}">${t.t("signin.password.forgot")}</a>${
    provider.signUp === false ? "" : html`<br><a href="${params.authUrl}/signup?${query}">${t.t("signin.password.signup")}</a>`
  }</p>`
}

/** Address and password. */
function passwordSection(provider: PasswordConfig, context: SectionContext): Section {
  const { params, t, index } = context
  const id = `provider-${index}`
  return {
    button: false,
    markup: html`<form action="${formAction(params, "callback", provider)}" method="POST">
${hiddenFields(params)}
${emailField(`${id}-email`, "username", params, t)}
<label for="${id}-password">${t.t("signin.password.label")}</label>
<input id="${id}-password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>
${passwordLinks(provider, context)}`,
  }
}

/** The providers that ask for nothing but an address (and a password): asked once when there are two or more (so at least a password or an email provider). */
interface AddressProviders {
  password?: PasswordConfig
  email?: EmailConfig
  passkey?: WebAuthnConfig
}

/** The id of the shared address field. */
const sharedEmailId = "signin-email"

function addressProviders(providers: readonly Provider[]): AddressProviders | null {
  const found: AddressProviders = {}
  for (const provider of providers) {
    if (provider.type === "password") found.password ??= provider
    else if (provider.type === "email") found.email ??= provider
    // A passkey form with fields of its own (`formFields`) keeps them.
    else if (provider.type === "webauthn" && (!provider.formFields || Object.keys(provider.formFields).join() === "email")) found.passkey ??= provider
  }
  return Object.keys(found).length >= 2 ? found : null
}

/**
 * One form for the address, with a button for each way to go on with it: the password (with its
 * field), a sign-in link by email. The passkey section, shown by its script, uses the same field
 * (and offers passkeys in its autofill). So a page with several of these asks for the address once.
 */
function addressSection({ password, email, passkey }: AddressProviders, context: SectionContext): Section {
  const { params, t } = context
  // Two of the three, so at least one of these: where the form goes when Enter is pressed.
  const action = password ? formAction(params, "callback", password) : formAction(params, "signin", email!)
  return {
    button: false,
    markup: html`<form action="${action}" method="POST">
${hiddenFields(params)}
${emailField(sharedEmailId, passkey ? "username webauthn" : "username", params, t)}
${
  password
    ? html`<label for="signin-password">${t.t("signin.password.label")}</label>
<input id="signin-password" name="password" type="password" autocomplete="current-password">
<button type="submit" class="primary" formaction="${formAction(params, "callback", password)}">${t.t("signin.with", { provider: password.name })}</button>`
    : ""
}
${email ? html`<button type="submit"${password ? "" : html` class="primary"`} formaction="${formAction(params, "signin", email)}">${t.t("signin.with", { provider: email.name })}</button>` : ""}
</form>
${password ? passwordLinks(password, context) : ""}`,
  }
}

const renderers: Renderers = {
  oauth: oauthSection,
  oidc: oauthSection,
  email: emailSection,
  credentials: credentialsSection,
  webauthn: passkeySection,
  password: passwordSection,
}

function renderSection(provider: Provider, context: SectionContext): Section | undefined {
  // The mapped type pairs each kind with its renderer; TypeScript cannot follow that through a
  // lookup by `provider.type`, hence the widening to the common signature.
  const render = renderers[provider.type] as SectionRenderer<Provider> | undefined
  return render?.(provider, context)
}

/** The message for an `?error=` code; unknown codes get the default (a code is never echoed). */
export function signInErrorMessage(code: string, t: Translator): string {
  const key = `signin.error.${code}`
  return t.t(t.has(key) ? key : "signin.error.Default")
}

/** The box for a `?notice=` code (what just happened, such as a password reset); nothing for an unknown code. */
function noticeOf(code: string | undefined, t: Translator): SafeHtml | "" {
  const key = `signin.notice.${code}`
  return code && t.has(key) ? html`<div class="notice" role="status">${t.t(key)}</div>` : ""
}

/**
 * Runs of buttons grouped together; a divider between everything else. A script-only section is
 * wrapped, hidden, together with the divider before it, or the one after it when no shown section
 * precedes it, so that the page reads the same with the section hidden or shown.
 */
function layoutSections(sections: readonly Section[], t: Translator): SafeHtml[] {
  const groups: { markup: SafeHtml; scriptOnly: boolean }[] = []
  for (let i = 0; i < sections.length; ) {
    let end = i + 1
    if (sections[i]!.button) while (end < sections.length && sections[end]!.button) end++
    const group = sections.slice(i, end).map((s) => s.markup)
    groups.push({ markup: sections[i]!.button ? html`<div class="buttons">${group}</div>` : group[0]!, scriptOnly: !!sections[i]!.scriptOnly })
    i = end
  }
  const divider = html`<p class="divider">${t.t("signin.or")}</p>`
  const out: SafeHtml[] = []
  let shownBefore = false
  groups.forEach((group, i) => {
    if (!group.scriptOnly) {
      out.push(shownBefore ? html`${divider}${group.markup}` : group.markup)
      shownBefore = true
      return
    }
    const next = groups[i + 1]
    const after = !shownBefore && next !== undefined && !next.scriptOnly
    out.push(html`<div data-sesame-passkey-section hidden>${i > 0 ? divider : ""}${group.markup}${after ? divider : ""}</div>`)
  })
  return out
}

/** Whether `provider`'s form asks for a password: the password provider's, a credentials form with a password field. */
function asksForPassword(provider: Provider): boolean {
  if (provider.type === "password") return true
  return provider.type === "credentials" && Object.values(provider.credentials ?? {}).some((field) => field.type === "password")
}

/**
 * `section` under a heading naming its provider, as a region named by it. For a page with two or
 * more forms that ask for a password (Credentials beside Password, say), which would otherwise
 * look alike but for their buttons' last word.
 */
function titled(section: Section, provider: Provider, index: number): Section {
  const id = `provider-${index}-title`
  const markup = html`<section class="titled" aria-labelledby="${id}"><h2 id="${id}">${provider.name}</h2>
${section.markup}</section>`
  return { ...section, markup }
}

export function signInPage(params: SignInPageParams, t: Translator): InternalResponse {
  const address = addressProviders(params.providers)
  const shared = (provider: Provider) => !!address && (provider === address.password || provider === address.email || provider === address.passkey)
  // The providers whose forms ask for a password (the address form does when the password provider is in it).
  const passwordForms = params.providers.filter(asksForPassword)
  const title = (section: Section, provider: Provider, index: number) =>
    passwordForms.length > 1 && passwordForms.includes(provider) ? titled(section, provider, index) : section
  let addressShown = false
  const sections = params.providers
    .flatMap((provider, index): Section[] => {
      if (!address || !shared(provider)) {
        const section = renderSection(provider, { params, t, index })
        return section ? [title(section, provider, index)] : []
      }
      const context = { params, t, index, sharedEmail: sharedEmailId }
      // The address form stands where the first of its providers is; a passkey's own (script-only) section follows it.
      const out: Section[] = []
      if (!addressShown) out.push(address.password ? title(addressSection(address, context), address.password, index) : addressSection(address, context))
      addressShown = true
      if (provider === address.passkey) out.push(passkeySection(provider, context))
      return out
    })
  const body = html`<h1>${t.t("signin.heading")}</h1>
${params.error ? html`<div class="alert" role="alert">${signInErrorMessage(params.error, t)}</div>` : ""}
${noticeOf(params.notice, t)}
${sections.length > 0 ? layoutSections(sections, t) : html`<p class="lead">${t.t("signin.none")}</p>`}`
  return page({
    lang: t.lang,
    title: t.t("signin.heading"),
    theme: params.theme,
    body,
    pageCss: [...new Set(sections.map((s) => s.css ?? ""))].join(""),
    scripts: [...new Set(sections.flatMap((s) => (s.script ? [s.script] : [])))],
  })
}
