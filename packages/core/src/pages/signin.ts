/**
 * The sign-in page: one section per provider, in the configured order. Every form posts the CSRF
 * token and the callback URL; none needs JavaScript but the passkey form, which stays hidden until
 * its script shows it (see `webauthn/section.ts`).
 *
 * The core's kinds (`oauth`, `oidc`, `credentials`) are rendered here; a kind a capability brings
 * declares its part (`SignInPart`, in its folder: `email/section.ts`, `password/section.ts`,
 * `webauthn/section.ts`). A kind without one is left off the page rather than shown as a button
 * that does nothing.
 *
 * @module
 */
import { providerKinds } from "../config/providers.js"
import type { CredentialsConfig } from "../credentials/types.js"
import type { InternalResponse } from "../http/response.js"
import type { OAuthConfig } from "../oauth/types.js"
import type { Provider } from "../types.js"
import { html, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n.js"
import { page } from "./layout.js"
import { credentialField, emailField, formAction, guardOf, hiddenFields, type AddressPart, type Section, type SectionContext, type SignInPageParams, type SignInPart } from "./section.js"
import { brandColours, isSafeImageSource } from "./theme.js"

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

function credentialsSection(provider: CredentialsConfig, { params, t, index }: SectionContext): Section {
  const fields = Object.entries(provider.credentials ?? {}).map(([name, field], i) => credentialField(name, field, `provider-${index}-field-${i}`))
  const guard = guardOf(params, "sign-in")
  return {
    button: false,
    markup: html`<form action="${formAction(params, "callback", provider)}" method="POST">
${hiddenFields(params)}
${fields}${guard.markup}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>`,
    ...(guard.widget ? { widget: guard.widget } : {}),
  }
}

/** The part of a kind a capability brings (`email`, `password`, `webauthn`). */
function partOf(provider: Provider): SignInPart | undefined {
  return providerKinds().get(provider.type)?.signIn
}

/** A provider in the page's one address form, with its kind's part of it. */
interface Joined {
  provider: Provider
  part: AddressPart
}

/** The id of the shared address field. */
const sharedEmailId = "signin-email"

/**
 * The providers that ask for nothing but an address (and a password), the first of each kind, in
 * their kinds' order: asked for the address once when there are two or more.
 */
function addressProviders(providers: readonly Provider[]): Joined[] | null {
  const found = new Map<string, Joined>()
  for (const provider of providers) {
    const part = partOf(provider)?.address
    if (!part || found.has(provider.type) || (part.joins && !part.joins(provider as never))) continue
    found.set(provider.type, { provider, part })
  }
  return found.size >= 2 ? [...found.values()].sort((a, b) => a.part.rank - b.part.rank) : null
}

/**
 * One form for the address, with a button for each way to go on with it (the password with its
 * field, a sign-in link by email). A passkey's section, shown by its script, uses the same field
 * (and offers passkeys in its autofill). So a page with several of these asks for the address once.
 */
function addressSection(joined: readonly Joined[], context: SectionContext): Section {
  const { params, t } = context
  // Where the form goes when Enter is pressed: the first kind that posts it.
  const first = joined.find((j) => j.part.action) ?? joined[0]!
  const action = first.part.action ? first.part.action(first.provider as never, params) : formAction(params, "callback", first.provider)
  const autocomplete = ["username", ...joined.flatMap((j) => (j.part.autocomplete ? [j.part.autocomplete] : []))].join(" ")
  const controls = joined.filter((j) => j.part.controls).map((j, i) => j.part.controls!(j.provider as never, context, i === 0))
  const after = joined.flatMap((j) => (j.part.after ? [j.part.after(j.provider as never, context)] : []))
  // One widget for the form, whichever of its flows the guard protects (its token goes with every button).
  const guard = guardOf(params, joined.map((j) => partOf(j.provider)?.guarded).find((form) => form !== undefined && params.widgets?.[form]))
  return {
    button: false,
    markup: html`<form action="${action}" method="POST">
${hiddenFields(params)}
${emailField(sharedEmailId, autocomplete, params, t)}${guard.markup}
${controls.map((control, i) => (i === 0 ? control : html`
${control}`))}
</form>
${after}`,
    ...(guard.widget ? { widget: guard.widget } : {}),
  }
}

function renderSection(provider: Provider, context: SectionContext): Section | undefined {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return oauthSection(provider, context)
    case "credentials":
      return credentialsSection(provider, context)
    default:
      return partOf(provider)?.section(provider as never, context)
  }
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
  if (provider.type === "credentials") return Object.values(provider.credentials ?? {}).some((field) => field.type === "password")
  return !!partOf(provider)?.asksForPassword
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
  const joined = (provider: Provider) => address?.find((j) => j.provider === provider)
  // The providers whose forms ask for a password (the address form does when the password provider is in it).
  const passwordForms = params.providers.filter(asksForPassword)
  const title = (section: Section, provider: Provider, index: number) =>
    passwordForms.length > 1 && passwordForms.includes(provider) ? titled(section, provider, index) : section
  let addressShown = false
  const sections = params.providers
    .flatMap((provider, index): Section[] => {
      const shared = joined(provider)
      if (!address || !shared) {
        const section = renderSection(provider, { params, t, index })
        return section ? [title(section, provider, index)] : []
      }
      const context = { params, t, index, sharedEmail: sharedEmailId }
      // The address form stands where the first of its providers is; a passkey's own (script-only) section follows it.
      const out: Section[] = []
      if (!addressShown) {
        // Titled by the provider whose password it asks for, when the page has other password forms.
        const asker = address.find((j) => asksForPassword(j.provider))
        out.push(asker ? title(addressSection(address, context), asker.provider, index) : addressSection(address, context))
      }
      addressShown = true
      if (shared.part.beside) out.push(shared.part.beside(provider as never, context))
      return out
    })
  sections.unshift(...(params.pluginSections ?? []).map((markup): Section => ({ markup, button: false })))
  const body = html`<h1>${t.t("signin.heading")}</h1>
${params.error ? html`<div class="alert" role="alert">${signInErrorMessage(params.error, t)}</div>` : ""}
${noticeOf(params.notice, t)}
${sections.length > 0 ? layoutSections(sections, t) : html`<p class="lead">${t.t("signin.none")}</p>`}`
  // A guard's widget shown in any form: its scripts and origins for the page (the same for every form).
  const widget = sections.find((s) => s.widget)?.widget
  return page({
    lang: t.lang,
    title: t.t("signin.heading"),
    theme: params.theme,
    body,
    pageCss: [...new Set(sections.map((s) => s.css ?? ""))].join(""),
    scripts: [...new Set([...sections.flatMap((s) => (s.script ? [s.script] : [])), ...(widget?.scripts ?? [])])],
    ...(widget ? { sources: widget.sources } : {}),
  })
}
