/**
 * The texts of the built-in pages and of the sign-in email, by key. One catalogue per language
 * lives in `locales/`; apps override single keys per language through the `messages` option.
 * `{name}` placeholders are filled in when a text is used, and every text is escaped where it lands
 * in HTML, so a catalogue or an override can never inject markup.
 *
 * @module
 */

export interface Messages {
  "signin.heading": string
  /** Button of a provider; `{provider}` is its name. */
  "signin.with": string
  /** Between two ways of signing in. */
  "signin.or": string
  "signin.email.label": string
  "signin.email.placeholder": string
  /** Shown when no provider is configured. */
  "signin.none": string
  /** Under the passkey form's email field: what leaving it empty or filling it in does. */
  "signin.passkey.hint": string
  /** Status line while the browser asks for the passkey. */
  "signin.passkey.working": string
  /** Status line when the browser's passkey request fails (cancelled, timed out). */
  "signin.passkey.failed": string
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
  "signin.error.WebAuthnVerificationError": string
  /** Any other `?error=` value. */
  "signin.error.Default": string
  "signout.heading": string
  "signout.confirm": string
  "signout.button": string
  /** Link back to the callback URL without signing out. */
  "signout.cancel": string
  "verify.heading": string
  "verify.body": string
  /** Link to the site; `{host}` is its host name. */
  "verify.host": string
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
  /** The page a sign-in link opens: one click confirms, so that link scanners cannot sign in. */
  "confirm.heading": string
  /** `{host}` is the site's host name, `{email}` the address in the link. */
  "confirm.body": string
  "confirm.button": string
  /** Why the extra click. */
  "confirm.why": string
  /** Subject and heading of the sign-in email; `{host}` is the site's host name. */
  "email.subject": string
  /** The email's button. */
  "email.button": string
  /** Before the link in the plain-text part. */
  "email.open": string
  /** Before the link written out under the button in the HTML part. */
  "email.copy": string
  /** The email's last line: single use, limited time, ignore if unexpected. */
  "email.notice": string
}

export type MessageKey = keyof Messages

/** Per-language overrides, as given in the `messages` option: `{ fr: { "signin.heading": "…" } }`. */
export type MessageOverrides = Partial<Record<string, Partial<Messages>>>
