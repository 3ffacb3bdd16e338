/**
 * `@sesame/core/webauthn-client`: passkey sign-in from the browser, for custom sign-in pages and
 * account settings. It runs in the browser (your bundler includes it and `@simplewebauthn/browser`),
 * talks to Sesame's endpoints on your origin, and loads nothing from another host.
 *
 * @example Sign in, or sign up with a new email address
 * ```ts
 * import { signIn } from "@sesame/core/webauthn-client"
 *
 * form.addEventListener("submit", async (event) => {
 *   event.preventDefault()
 *   await signIn("passkey", { email: form.email.value, callbackUrl: "/dashboard" })
 * })
 * ```
 *
 * @example Offer passkeys in the email field's autofill (conditional UI); needs
 * `<input name="email" autocomplete="username webauthn">` on the page
 * ```ts
 * import { autofillSupported, signIn } from "@sesame/core/webauthn-client"
 *
 * if (await autofillSupported()) void signIn("passkey", { autofill: true, callbackUrl: "/dashboard" })
 * ```
 *
 * @example Add a passkey to the signed-in user
 * ```ts
 * await signIn("passkey", { action: "register", redirect: false })
 * ```
 *
 * @module
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/browser"

export interface PasskeySignInOptions {
  /**
   * Where Sesame's endpoints are: a path on this origin or an absolute URL. Default `/auth`
   * (`/api/auth` with `@sesame/next`).
   */
  basePath?: string
  /**
   * An email address: a new one registers a passkey for a new user, a known one signs in with
   * that user's passkeys. Leave it out to sign in with any passkey saved for this site.
   */
  email?: string
  /** Force the ceremony. `register` while signed in adds a passkey to the signed-in user. */
  action?: "authenticate" | "register"
  /**
   * Wait for the user to pick a passkey in the autofill of a field with
   * `autocomplete="… webauthn"` (conditional UI) instead of showing a dialog. The promise settles
   * when they pick one, or with `error: "AbortError"` when another ceremony starts.
   */
  autofill?: boolean
  /** Where to land after signing in. Default: the current page. */
  callbackUrl?: string
  /** Navigate to the resulting URL (the callback URL, or the page showing the error). Default true. */
  redirect?: boolean
}

export interface PasskeySignInResult {
  /** Whether the user is now signed in. */
  ok: boolean
  /** Where the server sends the user: the callback URL, or a page with `?error=`. Null when the browser gave up first. */
  url: string | null
  /**
   * Why it failed: the server's error type (`WebAuthnVerificationError`, `AccountNotLinked`,
   * `Invalid request`…), or the browser's (`NotAllowedError` when the user cancels or the time
   * runs out, `AbortError` when another ceremony replaced this one, `NotSupportedError` without
   * WebAuthn). Null on success.
   */
  error: string | null
}

interface OptionsAnswer {
  action: "authenticate" | "register"
  options: PublicKeyCredentialRequestOptionsJSON | PublicKeyCredentialCreationOptionsJSON
}

/** Whether this browser can use passkeys at all. */
export const passkeysSupported: () => boolean = browserSupportsWebAuthn

/** Whether this browser can offer passkeys in autofill (conditional UI). */
export const autofillSupported: () => Promise<boolean> = browserSupportsWebAuthnAutofill

/** Cancels a pending ceremony, such as a waiting autofill request. */
export function cancelPasskeyRequest(): void {
  WebAuthnAbortService.cancelCeremony()
}

function failure(error: string, url: string | null = null): PasskeySignInResult {
  return { ok: false, url, error }
}

/** An answer `{ url }` (a redirect, as asked for by `X-Auth-Return-Redirect`) as a result. */
function landed(url: string): PasskeySignInResult {
  let error: string | null = null
  try {
    error = new URL(url, location.href).searchParams.get("error")
  } catch {
    error = "InvalidResponse"
  }
  return { ok: error === null, url, error }
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await response.json()
    return body && typeof body === "object" ? (body as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const returnRedirect = { "X-Auth-Return-Redirect": "1" }

async function ceremony(answer: OptionsAnswer, autofill: boolean): Promise<AuthenticationResponseJSON | RegistrationResponseJSON> {
  if (answer.action === "register") {
    return startRegistration({ optionsJSON: answer.options as PublicKeyCredentialCreationOptionsJSON })
  }
  return startAuthentication({ optionsJSON: answer.options as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill })
}

async function run(provider: string, options: PasskeySignInOptions): Promise<PasskeySignInResult> {
  if (!browserSupportsWebAuthn()) return failure("NotSupportedError")
  const base = (options.basePath ?? "/auth").replace(/\/+$/, "")
  const query = new URLSearchParams()
  const action = options.autofill ? "authenticate" : options.action
  if (action) query.set("action", action)
  if (options.email && !options.autofill) query.set("email", options.email)
  const search = query.toString() ? `?${query}` : ""
  const asked = await fetch(`${base}/webauthn-options/${encodeURIComponent(provider)}${search}`, {
    credentials: "same-origin",
    headers: returnRedirect,
  })
  const answer = await readJson(asked)
  if (!answer) return failure("InvalidResponse")
  if (typeof answer.url === "string") return landed(answer.url)
  if (!asked.ok) return failure(typeof answer.error === "string" ? answer.error : "InvalidRequest")
  if ((answer.action !== "authenticate" && answer.action !== "register") || !answer.options || typeof answer.options !== "object") {
    return failure("InvalidResponse")
  }
  let data: AuthenticationResponseJSON | RegistrationResponseJSON
  try {
    data = await ceremony(answer as unknown as OptionsAnswer, options.autofill === true)
  } catch (error) {
    // The browser's errors say why: the user cancelled, the time ran out, another ceremony began.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
    return failure(cause instanceof Error ? cause.name : "UnknownError")
  }
  const posted = await fetch(`${base}/callback/${encodeURIComponent(provider)}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { ...returnRedirect, "Content-Type": "application/json" },
    body: JSON.stringify({ action: answer.action, data, callbackUrl: options.callbackUrl ?? location.href }),
  })
  const result = await readJson(posted)
  return result && typeof result.url === "string" ? landed(result.url) : failure("InvalidResponse")
}

/**
 * Signs in (or up) with a passkey through the WebAuthn provider `provider` (default `passkey`):
 * asks the server for the ceremony's options, runs it in the browser, posts the result, and then,
 * unless `redirect` is false, goes where the server says: the callback URL, or the page that shows
 * the error. Never throws for a failed sign-in; the result says what happened.
 */
export async function signIn(provider = "passkey", options: PasskeySignInOptions = {}): Promise<PasskeySignInResult> {
  let result: PasskeySignInResult
  try {
    result = await run(provider, options)
  } catch {
    result = failure("NetworkError")
  }
  if (result.url && options.redirect !== false) location.assign(result.url)
  return result
}
