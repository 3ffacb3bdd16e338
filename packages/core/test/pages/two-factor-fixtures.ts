/**
 * The two-factor pages in the states a visitor meets them (and the native-app confirmation, a page
 * of the same kind), for the unit tests and the browser tests: each case renders through the page functions themselves (the same layout `Auth()` uses),
 * with a CSRF-shaped token, forms posting below `<origin>/two-factor-fixture/post/`, and the
 * request's language. `renderTwoFactorFixture` serves them as `/two-factor-fixture/<case>`.
 */
import { resolveMessages } from "../../src/config/appearance.js"
import { defaultTheme } from "../../src/config/defaults.js"
import { toResponse, type InternalResponse } from "../../src/http/response.js"
import { translatorForRequest, type Translator } from "../../src/pages/i18n.js"
import type { MessageKey } from "../../src/pages/messages.js"
import { nativeAppPage } from "../../src/native/page.js"
import { challengePage, reauthenticatePage, recoveryCodesPage, setupPage, type ChallengePageParams } from "../../src/two-factor/pages.js"

export const fixtureCsrf = "f".repeat(64)
/** A TOTP key as an authenticator app receives it (RFC 4648 base32 of "12345678901234567890"). */
export const fixtureSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
export const fixtureUri = `otpauth://totp/Sesame%20Example:ada%40example.com?secret=${fixtureSecret}&issuer=Sesame%20Example&algorithm=SHA1&digits=6&period=30`
export const fixtureCodes = ["abcde-fghij", "klmno-pqrst", "uvwxy-z2345", "67abc-defgh", "ijklm-nopqr", "stuvw-xyz23", "4567a-bcdef", "ghijk-lmnop", "qrstu-vwxyz", "23456-7abcd"]
export const fixtureEnabledAt = new Date("2025-01-02T12:00:00Z")

export interface TwoFactorCase {
  name: string
  /** The catalogue key of the page's heading. */
  headingKey: MessageKey
  /** The English text the page must show (an alert, a status line), if any. */
  shows?: string
  render(origin: string, t: Translator): InternalResponse
}

const post = (origin: string, endpoint: string) => `${origin}/two-factor-fixture/post/${endpoint}`

function challenge(origin: string, t: Translator, overrides: Partial<ChallengePageParams>): InternalResponse {
  const base = `${origin}/two-factor-fixture`
  return challengePage(
    {
      action: post(origin, "two-factor"),
      csrfToken: fixtureCsrf,
      method: "totp",
      mode: "code",
      codeUrl: `${base}/challenge-totp`,
      recoveryUrl: `${base}/challenge-recovery`,
      sent: false,
      rememberFor: 30 * 86_400,
      error: undefined,
      signInUrl: `${origin}/auth/signin`,
      theme: defaultTheme,
      ...overrides,
    },
    t,
  )
}

export const twoFactorCases: readonly TwoFactorCase[] = [
  { name: "challenge-totp", headingKey: "twofactor.heading", render: (o, t) => challenge(o, t, {}) },
  {
    name: "challenge-invalid-code",
    headingKey: "twofactor.heading",
    shows: "That code is not right.",
    render: (o, t) => challenge(o, t, { error: "InvalidCode" }),
  },
  {
    name: "challenge-locked",
    headingKey: "twofactor.heading",
    shows: "Too many wrong codes. Try again in 5 minutes.",
    render: (o, t) => challenge(o, t, { error: "TooManyAttempts", retryAfter: 281 }),
  },
  {
    name: "challenge-email-sent",
    headingKey: "twofactor.heading",
    shows: "We’ve sent you a code by email.",
    render: (o, t) => challenge(o, t, { method: "email", sent: true, resendAction: post(o, "two-factor/email"), rememberFor: undefined }),
  },
  { name: "challenge-recovery", headingKey: "twofactor.heading", render: (o, t) => challenge(o, t, { mode: "recovery" }) },
  {
    name: "setup-new",
    headingKey: "twofactor.setup.heading",
    render: (o, t) =>
      setupPage(
        {
          csrfToken: fixtureCsrf,
          theme: defaultTheme,
          error: undefined,
          notice: undefined,
          backUrl: `${o}/account`,
          state: { kind: "new", action: post(o, "two-factor/setup"), secret: fixtureSecret, uri: fixtureUri, emailOffered: true },
        },
        t,
      ),
  },
  {
    name: "setup-new-invalid-code",
    headingKey: "twofactor.setup.heading",
    shows: "That code is not right.",
    render: (o, t) =>
      setupPage(
        {
          csrfToken: fixtureCsrf,
          theme: defaultTheme,
          error: "InvalidCode",
          notice: undefined,
          backUrl: `${o}/account`,
          state: { kind: "new", action: post(o, "two-factor/setup"), secret: fixtureSecret, uri: fixtureUri, emailOffered: false },
        },
        t,
      ),
  },
  {
    name: "setup-enabled",
    headingKey: "twofactor.heading",
    shows: "Two-factor authentication is on.",
    render: (o, t) =>
      setupPage(
        {
          csrfToken: fixtureCsrf,
          theme: defaultTheme,
          error: undefined,
          notice: "enabled",
          backUrl: `${o}/account`,
          state: {
            kind: "enabled",
            method: "totp",
            enabledAt: fixtureEnabledAt,
            recoveryCodesLeft: 7,
            regenerateAction: post(o, "two-factor/recovery-codes"),
            disableAction: post(o, "two-factor/disable"),
            codeNeeded: true,
          },
        },
        t,
      ),
  },
  {
    name: "setup-enabled-email",
    headingKey: "twofactor.heading",
    render: (o, t) =>
      setupPage(
        {
          csrfToken: fixtureCsrf,
          theme: defaultTheme,
          error: undefined,
          notice: undefined,
          backUrl: `${o}/account`,
          state: {
            kind: "enabled",
            method: "email",
            enabledAt: fixtureEnabledAt,
            recoveryCodesLeft: 10,
            regenerateAction: post(o, "two-factor/recovery-codes"),
            disableAction: post(o, "two-factor/disable"),
            codeNeeded: false,
          },
        },
        t,
      ),
  },
  {
    name: "recovery-codes",
    headingKey: "twofactor.codes.heading",
    render: (o, t) => recoveryCodesPage({ codes: fixtureCodes, continueUrl: `${o}/account`, theme: defaultTheme }, t),
  },
  {
    name: "reauthenticate",
    headingKey: "reauth.heading",
    render: (o, t) =>
      reauthenticatePage(
        { action: post(o, "reauthenticate"), csrfToken: fixtureCsrf, callbackUrl: `${o}/account/delete`, error: undefined, signInUrl: `${o}/auth/signin`, theme: defaultTheme },
        t,
      ),
  },
  {
    name: "reauthenticate-invalid-code",
    headingKey: "reauth.heading",
    shows: "That code is not right.",
    render: (o, t) =>
      reauthenticatePage(
        { action: post(o, "reauthenticate"), csrfToken: fixtureCsrf, callbackUrl: `${o}/account/delete`, error: "InvalidCode", signInUrl: `${o}/auth/signin`, theme: defaultTheme },
        t,
      ),
  },
  // Not a two-factor page, but one of the same kind (a signed-in user confirms with one form), so
  // it is checked with them: the native-app confirmation (`GET native/authorize`).
  {
    name: "native-app",
    headingKey: "native.heading",
    render: (o, t) =>
      nativeAppPage(
        {
          action: post(o, "native-authorize"),
          csrfToken: fixtureCsrf,
          account: "ada@example.com",
          target: "com.example.app:/oauth/callback",
          fields: { redirect_uri: "com.example.app:/oauth/callback", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", state: "s-1" },
          cancelUrl: `com.example.app:/oauth/callback?error=access_denied&state=s-1&iss=${encodeURIComponent(`${o}/auth`)}`,
          theme: defaultTheme,
        },
        t,
      ),
  },
]

/** The case a `/two-factor-fixture/<name>` request asks for, in its language; null for another path. */
export function renderTwoFactorFixture(request: Request): Response | null {
  const url = new URL(request.url)
  const name = /^\/two-factor-fixture\/([a-z-]+)$/.exec(url.pathname)?.[1]
  const found = twoFactorCases.find((c) => c.name === name)
  if (!found) return null
  return toResponse(found.render(url.origin, translatorForRequest(request, resolveMessages(undefined))), { returnRedirect: false, head: false })
}
