/**
 * The `captcha` option: which provider's challenge guards which forms, with the keys the provider
 * gave the app.
 *
 * @module
 */
import type { GuardedForm } from "../pages/section.js"

/** The captcha services Sesame speaks to. */
export type CaptchaProvider = "turnstile" | "hcaptcha" | "recaptcha-v2" | "recaptcha-v3"

/** The flows a captcha may guard, by the form that starts them. */
export type CaptchaFlow = GuardedForm

export interface CaptchaOptions {
  /** Cloudflare Turnstile, hCaptcha, or Google reCAPTCHA (the v2 checkbox or v3's score). */
  provider: CaptchaProvider
  /** The public key the widget is rendered with. Default: `SESAME_CAPTCHA_SITE_KEY` (or `AUTH_CAPTCHA_SITE_KEY`). */
  siteKey?: string
  /** The secret the server verifies tokens with. Default: `SESAME_CAPTCHA_SECRET_KEY` (or `AUTH_CAPTCHA_SECRET_KEY`). */
  secretKey?: string
  /**
   * The flows it guards: `sign-up` (the password sign-up form), `sign-in` (password and
   * credentials sign-in), `forgot-password` (asking for a reset link), `email` (asking for an
   * email link or code). Default: all four.
   */
  on?: readonly CaptchaFlow[]
  /** reCAPTCHA v3 only: the lowest score let through, from 0 to 1. Default: 0.5. */
  minScore?: number
  /** The siteverify URL, in place of the provider's (a stand-in for tests, a self-hosted service). */
  verifyUrl?: string
  /** How long to wait for siteverify, in milliseconds, before failing closed. Default: 5000. */
  timeout?: number
}

/** The captcha's part of `AuthConfig`. */
export interface CaptchaConfig {
  /** A captcha on the forms that start a sign-up, a sign-in or an email (off by default). */
  captcha?: CaptchaOptions
}
