/**
 * The texts of the built-in pages and emails, by key. The core's own (the sign-in page's frame,
 * sign-out, the error page, the shared pages of an emailed link) are `CoreMessages`, with one
 * catalogue per language in `locales/`; each built-in capability declares its keys and catalogues
 * in its folder's `messages.ts` (its feature's `messages`), and `registry.ts` gathers their keys
 * (`BuiltInMessages`). Apps override single keys per language through the `messages` option.
 * `{name}` placeholders are filled in when a text is used, and every text is escaped where it lands
 * in HTML, so a catalogue or an override can never inject markup.
 *
 * @module
 */
import type { BuiltInMessages } from "../registry.js"

/** The core's texts, by key: those of the pages every configuration has. */
export interface CoreMessages {
  "signin.heading": string
  /** Button of a provider; `{provider}` is its name. */
  "signin.with": string
  /** Between two ways of signing in. */
  "signin.or": string
  "signin.email.label": string
  "signin.email.placeholder": string
  /** Shown when no provider is configured. */
  "signin.none": string
  "signin.error.CredentialsSignin": string
  "signin.error.OAuthAccountNotLinked": string
  "signin.error.OAuthCallbackError": string
  "signin.error.OAuthSignInError": string
  "signin.error.InvalidCheck": string
  "signin.error.AccessDenied": string
  "signin.error.Verification": string
  "signin.error.MissingCSRF": string
  "signin.error.SessionRequired": string
  "signin.error.EmailSignin": string
  "signin.error.AccountNotLinked": string
  /** Any other `?error=` value. */
  "signin.error.Default": string
  /** The password form's password field. */
  "signin.password.label": string
  /** The banner on every built-in page while someone acts as the user (`session/acting.ts`). */
  "acting.banner": string
  /** Its link back to the actor's own session. */
  "acting.stop": string
  "signout.heading": string
  "signout.confirm": string
  "signout.button": string
  /** Link back to the callback URL without signing out. */
  "signout.cancel": string
  /** The heading of a "check your email" page: email sign-in's, and the password pages' after an email was sent. */
  "verify.heading": string
  /** Link from the error page to the sign-in page. */
  "error.back": string
  "error.heading.Configuration": string
  "error.heading.AccessDenied": string
  "error.heading.Verification": string
  "error.heading.Default": string
  "error.Configuration": string
  "error.AccessDenied": string
  "error.Verification": string
  "error.Default": string
  "error.heading.Unavailable": string
  "error.Unavailable": string
  "error.retry": string
  /** The page a sign-in link opens: one click confirms, so that link scanners cannot sign in. */
  "confirm.heading": string
  /** `{host}` is the site's host name, `{email}` the address in the link. */
  "confirm.body": string
  "confirm.button": string
  /** Why the extra click. */
  "confirm.why": string
  /**
   * The password given to confirm an address (or to change a password) is wrong. A core text, like
   * `signin.password.label`: the address-confirmation page (`confirm-email.ts`) shows both.
   */
  "password.error.wrong-password": string
}

/** Every text, by key: the core's and each built-in capability's (`registry.ts`). */
export interface Messages extends CoreMessages, BuiltInMessages {}

export type MessageKey = keyof Messages

/** Per-language overrides, as given in the `messages` option: `{ fr: { "signin.heading": "…" } }`. */
export type MessageOverrides = Partial<Record<string, Partial<Messages> & PluginTexts>>

/** A plugin's texts, as `messages` overrides them: keys `<plugin id>.<name>` (`SesameModule.messages`). */
export type PluginTexts = { readonly [key: `${string}.${string}`]: string | undefined }

/** The languages every built-in catalogue is written in. */
export type BuiltInLanguage = "en" | "de" | "es" | "fr" | "ja"

/**
 * Texts in every built-in language, each complete: a missing language or key, or a key that is
 * not one of `M`'s, is a compile error.
 */
export type Catalogues<M> = { readonly [L in BuiltInLanguage]: M }
