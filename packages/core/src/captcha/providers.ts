/**
 * What differs between the captcha services, as each documents it: the form field its widget
 * fills, its script, its siteverify URL, and the origins a page's Content-Security-Policy must
 * allow for its widget. Nothing else in the folder names a service's host.
 *
 * - Turnstile: https://developers.cloudflare.com/turnstile/ (siteverify takes `secret`,
 *   `response`, `remoteip`, `idempotency_key`; the CSP needs `script-src` and `frame-src`).
 * - hCaptcha: https://docs.hcaptcha.com/ (siteverify takes `secret`, `response`, `remoteip`,
 *   `sitekey`; the CSP needs `script-src`, `frame-src`, `style-src` and `connect-src`).
 * - reCAPTCHA: https://developers.google.com/recaptcha/ (siteverify takes `secret`, `response`,
 *   `remoteip`; v3 answers a `score` and the `action`; the CSP needs `script-src` and `frame-src`).
 *
 * @module
 */
import type { CspSources } from "../pages/layout.js"
import type { CaptchaProvider } from "./types.js"

export interface CaptchaService {
  /** The form field the widget puts its token in, and the server reads. */
  readonly field: string
  /** The siteverify endpoint. */
  readonly verifyUrl: string
  /** The widget's script, for a page in `lang`. */
  script(siteKey: string, lang: string): string
  /** The origins the page's policy allows for the widget. */
  readonly sources: CspSources
  /** The class of the element the script renders its widget in (none for reCAPTCHA v3, which has no widget). */
  readonly widgetClass: string | undefined
  /** The siteverify answer carries a score to check (reCAPTCHA v3). */
  readonly scored: boolean
}

const cloudflare = "https://challenges.cloudflare.com"
const hcaptcha = ["https://hcaptcha.com", "https://*.hcaptcha.com"]
const google = "https://www.google.com/recaptcha/"
const gstatic = "https://www.gstatic.com/recaptcha/"
const recaptchaFrames = [google, "https://recaptcha.google.com/recaptcha/"]
const recaptchaScript = "https://www.google.com/recaptcha/api.js"
const recaptchaVerify = "https://www.google.com/recaptcha/api/siteverify"

export const captchaServices: Readonly<Record<CaptchaProvider, CaptchaService>> = {
  turnstile: {
    field: "cf-turnstile-response",
    verifyUrl: `${cloudflare}/turnstile/v0/siteverify`,
    script: () => `${cloudflare}/turnstile/v0/api.js`,
    sources: { script: [cloudflare], frame: [cloudflare] },
    widgetClass: "cf-turnstile",
    scored: false,
  },
  hcaptcha: {
    field: "h-captcha-response",
    verifyUrl: "https://api.hcaptcha.com/siteverify",
    script: (_siteKey, lang) => `https://js.hcaptcha.com/1/api.js?hl=${encodeURIComponent(lang)}`,
    sources: { script: hcaptcha, frame: hcaptcha, style: hcaptcha, connect: hcaptcha },
    widgetClass: "h-captcha",
    scored: false,
  },
  "recaptcha-v2": {
    field: "g-recaptcha-response",
    verifyUrl: recaptchaVerify,
    script: (_siteKey, lang) => `${recaptchaScript}?hl=${encodeURIComponent(lang)}`,
    sources: { script: [google, gstatic], frame: recaptchaFrames },
    widgetClass: "g-recaptcha",
    scored: false,
  },
  "recaptcha-v3": {
    field: "g-recaptcha-response",
    verifyUrl: recaptchaVerify,
    script: (siteKey, lang) => `${recaptchaScript}?render=${encodeURIComponent(siteKey)}&hl=${encodeURIComponent(lang)}`,
    sources: { script: [google, gstatic], frame: recaptchaFrames },
    widgetClass: undefined,
    scored: true,
  },
}

/**
 * The v3 action each flow's token is asked for and checked against (the page's script picks it
 * from where the form posts, so that a form with two buttons asks for the right one).
 */
export const recaptchaActions = {
  "sign-up": "signup",
  "sign-in": "signin",
  "forgot-password": "forgot_password",
  email: "email_signin",
} as const
