/**
 * English: the reference catalogue, and the fallback for any key a language or override lacks.
 *
 * @module
 */
import type { CoreMessages } from "../messages.js"

export const en: CoreMessages = {
  "signin.heading": "Sign in",
  "signin.with": "Sign in with {provider}",
  "signin.or": "or",
  "signin.email.label": "Email address",
  "signin.email.placeholder": "you@example.com",
  "signin.none": "No sign-in method is set up for this site.",
  "signin.error.CredentialsSignin": "We couldn’t sign you in with those details. Check them and try again.",
  "signin.error.OAuthAccountNotLinked":
    "An account with this email address already exists. Sign in the way you did the first time, so we know it’s you.",
  "signin.error.OAuthCallbackError": "The sign-in service reported a problem. Try again, or choose another way to sign in.",
  "signin.error.OAuthSignInError": "We couldn’t start signing in with that service. Try again, or choose another way to sign in.",
  "signin.error.InvalidCheck":
    "We couldn’t confirm this sign-in: it may have taken too long, or been started in another browser. Please try again.",
  "signin.error.AccessDenied": "This account is not allowed to sign in.",
  "signin.error.Verification": "This sign-in link is no longer valid: it may have expired or been used already. Ask for a new one.",
  "signin.error.MissingCSRF": "The form expired, or your browser blocked its cookie. Please try again.",
  "signin.error.SessionRequired": "You need to sign in to see that page.",
  "signin.error.EmailSignin": "We couldn’t send the sign-in email. Check the address and try again.",
  "signin.error.AccountNotLinked": "This sign-in method belongs to a different account. Use the one you signed up with.",
  "signin.password.label": "Password",
  "signin.error.Default": "Something went wrong while signing in. Please try again.",
  "acting.banner": "You are seeing the app as {user}, on behalf of {actor}, until {time}.",
  "acting.stop": "Stop and return to your own account",
  "signout.heading": "Sign out",
  "signout.confirm": "Do you want to sign out now?",
  "signout.button": "Sign out",
  "signout.cancel": "Stay signed in",
  "verify.heading": "Check your email",
  "error.back": "Go to sign-in",
  "error.heading.Configuration": "Server error",
  "error.heading.AccessDenied": "Access denied",
  "error.heading.Verification": "Unable to sign in",
  "error.heading.Default": "Error",
  "error.Configuration":
    "The server is not set up correctly, so signing in is not possible right now. If you run this site, the server logs say why.",
  "error.AccessDenied": "This account is not allowed to sign in here.",
  "error.Verification": "This sign-in link is no longer valid: it may have expired or been used already. Ask for a new one.",
  "error.Default": "Something went wrong. Please try again.",
  "error.heading.Unavailable": "Try again in a moment",
  "error.Unavailable": "This is briefly unavailable: we can’t reach our records right now. Nothing was lost, and you are still signed in if you were. Try again in a few seconds.",
  "error.retry": "Try again",
  "confirm.heading": "Finish signing in",
  "confirm.body": "Sign in to {host} as {email}?",
  "confirm.button": "Sign in",
  "confirm.why": "We ask for this click so that the security scanners that open links in emails cannot use yours before you do.",
  "password.error.wrong-password": "That password is not right.",
}
