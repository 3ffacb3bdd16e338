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
  /** A password sign-in with the right password for an address not confirmed yet; a new link was sent. */
  "signin.error.EmailNotVerified": string
  /** Any other `?error=` value. */
  "signin.error.Default": string
  /** The password form's password field. */
  "signin.password.label": string
  /** Link from the password form to the forgotten-password page. */
  "signin.password.forgot": string
  /** Link from the password form to the sign-up page. */
  "signin.password.signup": string
  /** Shown on the sign-in page after a password was reset. */
  "signin.notice.PasswordReset": string
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
  /** The sign-up page. */
  "signup.heading": string
  "signup.name.label": string
  "signup.button": string
  /** Link from the sign-up page to the sign-in page. */
  "signup.signin": string
  /** After a sign-up: an email was sent (the same words whether or not the address had an account). */
  "signup.sent.body": string
  /** Under a new-password field; `{min}` is the fewest characters. */
  "password.hint": string
  "password.error.too-short": string
  "password.error.too-long": string
  "password.error.matches-context": string
  "password.error.breached": string
  /** The address typed is not one plain address. */
  "password.error.invalid-email": string
  /** A password reset or confirmation link that is unknown, used or expired. */
  "password.error.invalid-link": string
  /** The password given to confirm an address (or to change a password) is wrong. */
  "password.error.wrong-password": string
  "password.error.Default": string
  /** The forgotten-password page. */
  "forgot.heading": string
  "forgot.body": string
  "forgot.button": string
  /** After a forgotten-password request (the same words whether or not the address has an account). */
  "forgot.sent.body": string
  /** Link back to the sign-in page from the password pages. */
  "password.back": string
  /** The page a reset link opens. `{email}` is the account's address. */
  "reset.heading": string
  "reset.body": string
  "reset.label": string
  "reset.button": string
  /** What saving a new password does to other sessions. */
  "reset.notice": string
  /**
   * The page an address-confirmation link opens, which asks for the account's password (so that
   * only whoever chose it can confirm); `{email}` and `{host}` as in `confirm.body`.
   */
  "verifyEmail.heading": string
  "verifyEmail.body": string
  "verifyEmail.button": string
  /** Emails of the password provider; `{host}` is the site's host name. */
  "mail.verify.subject": string
  "mail.verify.lead": string
  "mail.verify.button": string
  "mail.reset.subject": string
  "mail.reset.lead": string
  "mail.reset.button": string
  /** Sent to the owner when someone signs up with an address that has an account. */
  "mail.exists.subject": string
  "mail.exists.lead": string
  /** Sent when a reset is asked for an address without an account. */
  "mail.unknown.subject": string
  "mail.unknown.lead": string
  "mail.unknown.button": string
  /** Last line of a password email whose link works once. */
  "mail.notice": string
  /** Last line of the emails that change nothing by themselves. */
  "mail.notice.nothing": string
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
