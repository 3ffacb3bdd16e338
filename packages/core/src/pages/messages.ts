/**
 * Texts of the built-in pages, by key. `{name}` placeholders are filled in (and escaped) when used.
 *
 * @module
 */

export interface Messages {
  "signin.title": string
  "signin.heading": string
  "signin.with": string
  "signin.or": string
  "signin.email.label": string
  "signin.email.placeholder": string
  "signout.title": string
  "signout.heading": string
  "signout.confirm": string
  "signout.button": string
  "verify.title": string
  "verify.heading": string
  "verify.body": string
  "verify.host": string
  "error.title": string
  "error.back": string
  "error.heading.Configuration": string
  "error.heading.AccessDenied": string
  "error.heading.Verification": string
  "error.heading.Default": string
  "error.Configuration": string
  "error.AccessDenied": string
  "error.Verification": string
  "error.Default": string
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
  "signin.error.Default": string
}

export type MessageKey = keyof Messages

export const en: Messages = {
  "signin.title": "Sign in",
  "signin.heading": "Sign in",
  "signin.with": "Sign in with {provider}",
  "signin.or": "or",
  "signin.email.label": "Email",
  "signin.email.placeholder": "email@example.com",
  "signout.title": "Sign out",
  "signout.heading": "Sign out",
  "signout.confirm": "Are you sure you want to sign out?",
  "signout.button": "Sign out",
  "verify.title": "Check your email",
  "verify.heading": "Check your email",
  "verify.body": "A sign-in link has been sent to your email address.",
  "verify.host": "Back to {host}",
  "error.title": "Error",
  "error.back": "Sign in",
  "error.heading.Configuration": "Server error",
  "error.heading.AccessDenied": "Access denied",
  "error.heading.Verification": "Unable to sign in",
  "error.heading.Default": "Error",
  "error.Configuration": "There is a problem with the server configuration. Check the server logs for more information.",
  "error.AccessDenied": "You do not have permission to sign in.",
  "error.Verification": "The sign-in link is no longer valid. It may have been used already or it may have expired.",
  "error.Default": "Something went wrong. Please try again.",
  "signin.error.CredentialsSignin": "Sign in failed. Check the details you provided are correct.",
  "signin.error.OAuthAccountNotLinked": "To confirm your identity, sign in with the same account you used originally.",
  "signin.error.OAuthCallbackError": "Try signing in with a different account.",
  "signin.error.OAuthSignInError": "Try signing in with a different account.",
  "signin.error.InvalidCheck": "The sign-in could not be verified. It may have taken too long, or been started in another browser. Please try again.",
  "signin.error.AccessDenied": "You do not have permission to sign in.",
  "signin.error.Verification": "The sign-in link is no longer valid. Request a new one.",
  "signin.error.MissingCSRF": "Your sign-in form expired. Please try again.",
  "signin.error.SessionRequired": "Please sign in to access this page.",
  "signin.error.EmailSignin": "The email could not be sent. Please try again.",
  "signin.error.AccountNotLinked": "This account is linked to another user. Sign in with the account you used originally.",
  "signin.error.WebAuthnVerificationError": "The passkey could not be verified. Please try again.",
  "signin.error.Default": "Unable to sign in.",
}
