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
  /** A two-factor sign-in that expired or was already finished: the first step must be done again. */
  "signin.error.TwoFactorExpired": string
  /** Too many wrong second-factor codes ended the sign-in. */
  "signin.error.TwoFactorLocked": string
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
  "native.heading": string
  /** `{account}`: the signed-in user's email address or name. */
  "native.confirm": string
  /** `{target}`: where the app receives the sign-in (its redirect URI). */
  "native.target": string
  "native.button": string
  "native.cancel": string
  "signout.heading": string
  "signout.confirm": string
  "signout.button": string
  /** Link back to the callback URL without signing out. */
  "signout.cancel": string
  "verify.heading": string
  "verify.body": string
  /** Link to the site; `{host}` is its host name. */
  "verify.host": string
  /** The verify-request page when a one-time code was emailed: only the code, or the code beside the link. */
  "verify.code.body": string
  "verify.code.bodyWithLink": string
  /** The code field's label, and the form's button. */
  "verify.code.label": string
  "verify.code.button": string
  /** Link back to the sign-in page, to ask for another code. */
  "verify.code.again": string
  /** The typed code is not the one sent. */
  "verify.code.error.InvalidCode": string
  /** The code expired or had too many wrong tries. */
  "verify.code.error.TooManyAttempts": string
  "verify.code.error.CodeExpired": string
  /** Any other `?error=` value (never shown as received). */
  "verify.code.error.Default": string
  /** The email with a one-time code; `{host}` is the site's host name. */
  "codeEmail.subject": string
  /** Above the code. */
  "codeEmail.lead": string
  /** Above the link, when the email has one beside the code. */
  "codeEmail.link": string
  /** The last line; `{minutes}` is how long the code works. */
  "codeEmail.notice": string
  "codeEmail.noticeWithLink": string
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
  /** The two-factor challenge (the step after the first factor); also the heading of its settings page. */
  "twofactor.heading": string
  /** The challenge's lead: an authenticator app's code, or a code sent by email (the address is never shown). */
  "twofactor.totp.lead": string
  "twofactor.email.lead": string
  /** Status line after a code was emailed. */
  "twofactor.email.sent": string
  "twofactor.email.resend": string
  "twofactor.code.label": string
  "twofactor.button": string
  /** The "remember this device" checkbox; `{duration}` is a number of days with its unit ("30 days"). */
  "twofactor.remember": string
  /** Links between the code form and the recovery-code form. */
  "twofactor.recovery.link": string
  "twofactor.totp.link": string
  "twofactor.email.link": string
  "twofactor.recovery.lead": string
  "twofactor.recovery.label": string
  /** Under the recovery-code field: its shape. */
  "twofactor.recovery.hint": string
  /** Back to the sign-in page from the challenge. */
  "twofactor.cancel": string
  "twofactor.error.InvalidCode": string
  "twofactor.error.TooManyAttempts": string
  /** Too many attempts, when the wait is known; `{when}` is a relative time ("in 5 minutes"). */
  "twofactor.error.TooManyAttempts.wait": string
  "twofactor.error.SendFailed": string
  "twofactor.error.Default": string
  /** Turning the second factor on: the QR code, the key as text, the code that confirms it. */
  "twofactor.setup.heading": string
  "twofactor.setup.lead": string
  /** The QR code's accessible name. */
  "twofactor.setup.qr": string
  "twofactor.setup.key": string
  /** Link with the `otpauth:` URI, for an authenticator app on the same device. */
  "twofactor.setup.open": string
  "twofactor.setup.code": string
  "twofactor.setup.button": string
  /** When codes by email are offered instead of an app. */
  "twofactor.setup.email.lead": string
  "twofactor.setup.email.button": string
  "twofactor.back": string
  "twofactor.done": string
  /** Status lines after turning the second factor on or off. */
  "twofactor.notice.enabled": string
  "twofactor.notice.disabled": string
  /** The settings page once it is on; `{date}` is the date it was turned on. */
  "twofactor.status.totp": string
  "twofactor.status.email": string
  /** `{count}` is how many unused recovery codes remain. */
  "twofactor.status.recovery": string
  /** The field asking for a current code before a change. */
  "twofactor.manage.code": string
  "twofactor.regenerate.heading": string
  "twofactor.regenerate.body": string
  "twofactor.regenerate.button": string
  "twofactor.disable.heading": string
  "twofactor.disable.button": string
  /** The page that shows new recovery codes, once. */
  "twofactor.codes.heading": string
  "twofactor.codes.lead": string
  "twofactor.codes.once": string
  /** Label of the box holding every code, for copying. */
  "twofactor.codes.copy": string
  "twofactor.codes.continue": string
  /** "Confirm it's you": a fresh code before a sensitive action. */
  "reauth.heading": string
  "reauth.lead": string
  "reauth.button": string
  /** Link to the sign-in page instead. */
  "reauth.signin": string
}

export type MessageKey = keyof Messages

/** Per-language overrides, as given in the `messages` option: `{ fr: { "signin.heading": "…" } }`. */
export type MessageOverrides = Partial<Record<string, Partial<Messages>>>
