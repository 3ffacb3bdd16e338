/**
 * What every section of the sign-in page is made of: the page's parameters, the contract between
 * the page and a section renderer, and the form parts that sections share (the hidden CSRF and
 * callback-URL fields, the form action, a labelled field). Apart from `signin.ts` so that a
 * provider kind that renders its own section elsewhere (the passkey form, `webauthn/section.ts`)
 * uses them without importing the page that lists it.
 *
 * @module
 */
import type { CredentialInput } from "../credentials/types.js"
import type { Provider, Theme } from "../types.js"
import { html, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n.js"
import type { CspSources } from "./layout.js"

/** The forms a guard (the captcha) may protect, by the flow they post to. */
export type GuardedForm = "sign-up" | "sign-in" | "forgot-password" | "email"

/** A guard's part of a form (a captcha widget), and what the page must load and allow for it. */
export interface FormWidget {
  markup: SafeHtml
  /** Scripts to load with the page's nonce: absolute URLs of another site, or paths on the app's. */
  scripts: readonly string[]
  /** The other site's origins the page's policy must allow. */
  sources: CspSources
}

/** What the sign-in page shows, and where its forms post. */
export interface SignInPageParams {
  providers: readonly Provider[]
  /** Origin plus base path: the forms post below it. */
  authUrl: string
  csrfToken: string
  callbackUrl: string
  /** The `?error=` code, as received. */
  error: string | undefined
  /** The `?notice=` code, as received (`PasswordReset`); unknown codes show nothing. */
  notice?: string | undefined
  /** Prefills the email fields. */
  email: string | undefined
  theme: Readonly<Required<Theme>>
  /** The plugins' parts of the page (`SesameModule.signInSection`), shown first. */
  pluginSections?: readonly SafeHtml[]
  /** The guard's part of each form it protects (the captcha); none when it is off. */
  widgets?: Readonly<Partial<Record<GuardedForm, FormWidget>>>
}

/** What a section renderer gets besides its provider. */
export interface SectionContext {
  params: SignInPageParams
  t: Translator
  /** The provider's position, for ids and class names that must be unique and need no escaping. */
  index: number
  /**
   * The id of the page's one address field, when the page asks for the address once for several
   * ways to sign in (`signin.ts`): a section that needs an address uses it instead of its own.
   */
  sharedEmail?: string
}

/** One provider's part of the page. */
export interface Section {
  markup: SafeHtml
  /** A bare button: shown in a group with the neighbouring buttons, without a divider between them. */
  button: boolean
  /** Extra CSS rules, made only of validated values. */
  css?: string
  /**
   * The section works only with its script: it is rendered hidden (with the divider that joins it
   * to its neighbours), and the script shows it.
   */
  scriptOnly?: boolean
  /** A same-origin script the section needs (a path), loaded under the page's CSP nonce. */
  script?: string
  /** The guard's widget the section's form shows (the page loads and allows what it needs). */
  widget?: FormWidget
}

/** The guard's widget for a form posting to `form`'s flow, as a section adds it; nothing when that flow is not guarded. */
export function guardOf(params: SignInPageParams, form: GuardedForm | undefined): { markup: SafeHtml | ""; widget?: FormWidget } {
  const widget = form ? params.widgets?.[form] : undefined
  return widget ? { markup: html`\n${widget.markup}`, widget } : { markup: "" }
}

/** The fields every form of the page posts: the CSRF token and the callback URL. */
export function hiddenFields({ csrfToken, callbackUrl }: SignInPageParams): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}">
<input type="hidden" name="callbackUrl" value="${callbackUrl}">`
}

/** The labelled address field of a form, prefilled from `?email=`. */
export function emailField(id: string, autocomplete: string, params: SignInPageParams, t: Translator): SafeHtml {
  return html`<label for="${id}">${t.t("signin.email.label")}</label>
<input id="${id}" name="email" type="email" autocomplete="${autocomplete}" required placeholder="${t.t("signin.email.placeholder")}" value="${params.email ?? ""}">`
}

/**
 * A provider kind's part of the sign-in page, declared by the capability that brings the kind
 * (`modules/feature.ts`'s `ProviderKind`). Its functions take a provider of their own kind.
 */
export interface SignInPart {
  /** Its section, when it stands alone. */
  section(provider: never, context: SectionContext): Section
  /** Its form asks for a password: with two or more such forms, each is titled with its provider's name. */
  asksForPassword?: boolean
  /** The flow its form posts to, when a guard (the captcha) may protect it. */
  guarded?: GuardedForm
  /**
   * How it joins the page's one address form, when two or more kinds that ask for nothing but an
   * address (and a password) are on the page.
   */
  address?: AddressPart
}

/** A kind's part of the one address form (`pages/signin.ts`): the first provider of each such kind joins. */
export interface AddressPart {
  /** Its place in the form: the lowest rank's controls come first, and its `action` is where Enter goes. */
  rank: number
  /** Whether this provider can join (a passkey form with fields of its own keeps them). Default: yes. */
  joins?(provider: never): boolean
  /** Where the form posts when this kind ranks first among those with an action. */
  action?(provider: never, params: SignInPageParams): string
  /** Its fields and button in the form, after the address; `primary` for the first button. */
  controls?(provider: never, context: SectionContext, primary: boolean): SafeHtml
  /** What follows the form (links). */
  after?(provider: never, context: SectionContext): SafeHtml
  /** A token its presence adds to the address field's `autocomplete` (`webauthn`). */
  autocomplete?: string
  /** Its own section beside the form, which uses the shared address field (`context.sharedEmail`). */
  beside?(provider: never, context: SectionContext): Section
}

/** Where a provider's form posts: its `signin` or `callback` endpoint. */
export function formAction(params: SignInPageParams, endpoint: "signin" | "callback", provider: Provider): string {
  return `${params.authUrl}/${endpoint}/${encodeURIComponent(provider.id)}`
}

/** Input types a credentials field may use; anything else is shown as text. */
const inputTypes: ReadonlySet<string> = new Set(["text", "password", "email", "tel", "number", "url", "search", "date", "time"])

/** A labelled input for a form field; `describedBy` names the id of a hint about it. */
export function credentialField(name: string, field: CredentialInput, id: string, describedBy?: string): SafeHtml {
  const type = field.type && inputTypes.has(field.type) ? field.type : "text"
  return html`<label for="${id}">${field.label ?? name}</label>
<input id="${id}" name="${name}" type="${type}"${field.placeholder ? html` placeholder="${field.placeholder}"` : ""}${
    field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ""
  }${field.required ? html` required` : ""}${field.value !== undefined ? html` value="${field.value}"` : ""}${
    describedBy ? html` aria-describedby="${describedBy}"` : ""
  }>`
}
