/**
 * The script of the passkey form on the built-in sign-in page, bundled with
 * `@simplewebauthn/browser` into the one file `GET {basePath}/webauthn-script` serves (see
 * `scripts/generate.mjs`). A custom page can load it too and use the same markup:
 *
 * ```html
 * <div data-sesame-passkey-section hidden>
 *   <form data-sesame-passkey="passkey" data-auth-url="/auth" data-conditional
 *         data-status-working="Waiting for your passkey…" data-status-failed="That didn’t work. Try again.">
 *     <input type="hidden" name="callbackUrl" value="/dashboard">
 *     <input name="email" type="email" autocomplete="username webauthn">
 *     <button type="submit">Sign in with a passkey</button>
 *     <p data-passkey-status role="status" aria-live="polite"></p>
 *   </form>
 * </div>
 * ```
 *
 * On a page that asks for the address once for several ways to sign in, the passkey form has no
 * email field of its own: `data-email-field="<id>"` names the shared one. A form with
 * `data-passkey-action="register"` adds a passkey to the signed-in user (the account page).
 *
 * The section stays hidden in a browser without WebAuthn (or without JavaScript). With
 * `data-conditional`, the page offers passkeys in the email field's autofill as soon as it loads;
 * submitting the form runs the ceremony the email calls for (see `webauthn/options.ts`). A
 * failure the server reports reloads the page with its `?error=`; one the browser reports (the
 * user cancelled) is shown in the status line, and autofill starts again.
 *
 * @module
 */
import { autofillSupported, passkeysSupported, signIn, type PasskeySignInResult } from "./client.js"

function field(form: HTMLFormElement, name: string): HTMLInputElement | null {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element : null
}

function wire(form: HTMLFormElement): void {
  const provider = form.dataset.sesamePasskey || "passkey"
  const basePath = form.dataset.authUrl || "/auth"
  const status = form.querySelector<HTMLElement>("[data-passkey-status]")
  const shared = form.dataset.emailField ? document.getElementById(form.dataset.emailField) : null
  const email = field(form, "email") ?? (shared instanceof HTMLInputElement ? shared : null)
  const callbackUrl = (): string | undefined => field(form, "callbackUrl")?.value || undefined
  const say = (text: string | undefined) => {
    if (status) status.textContent = text ?? ""
  }
  form.closest<HTMLElement>("[data-sesame-passkey-section]")?.removeAttribute("hidden")

  const autofill = async (): Promise<void> => {
    if (form.dataset.conditional === undefined || !(await autofillSupported())) return
    // Settles when the user picks a passkey in the autofill, or when the button replaces the request.
    await signIn(provider, { basePath, autofill: true, callbackUrl: callbackUrl() })
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault()
    say(form.dataset.statusWorking)
    // `data-passkey-action="register"`: a signed-in user adds a passkey (the account page).
    const action = form.dataset.passkeyAction === "register" ? "register" : undefined
    void signIn(provider, { basePath, action, email: email?.value.trim() || undefined, callbackUrl: callbackUrl() }).then((result: PasskeySignInResult) => {
      // With a URL the page is navigating away (to the callback URL, or to show the server's error).
      if (result.url) return
      say(form.dataset.statusFailed)
      void autofill()
    })
  })
  void autofill()
}

function start(): void {
  if (!passkeysSupported()) return
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-sesame-passkey]")) wire(form)
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
else start()
