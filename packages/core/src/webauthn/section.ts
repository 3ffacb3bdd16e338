/**
 * The passkey form of the built-in sign-in page.
 *
 * It is the page's only part that needs JavaScript: the served passkey script (see
 * `page-script.ts`) runs the ceremony, so the section is rendered `hidden` and the script shows it
 * in browsers that support WebAuthn. Without JavaScript the page is unchanged: no button that
 * cannot work. The email field carries `autocomplete="username webauthn"`, where browsers offer
 * passkeys in autofill (conditional UI) when the provider enables it.
 *
 * @module
 */
import { html } from "../pages/html.js"
import { credentialField, formAction, hiddenFields, type Section, type SectionContext, type SignInPart } from "../pages/section.js"
import { defaultFormFields } from "./provider.js"
import { passkeyScriptUrl } from "./script.js"
import type { WebAuthnConfig } from "./types.js"

/** Rules of this section only: the hint under the field and the status line. */
const css = ".passkey-hint{margin:-10px 0 16px;color:var(--muted);font-size:.875rem}.passkey-after{margin:8px 0 0}.passkey-status{margin:12px 0 0;color:var(--muted);font-size:.875rem}.passkey-status:empty{display:none}"

export function passkeySection(provider: WebAuthnConfig, { params, t, index, sharedEmail }: SectionContext): Section {
  const basePath = new URL(params.authUrl).pathname
  const hintId = `provider-${index}-hint`
  // On a page that asks for the address once (`pages/signin.ts`), the shared field is the email.
  const formFields = sharedEmail ? {} : (provider.formFields ?? defaultFormFields())
  const fields = Object.entries(formFields).map(([name, field], i) => {
    const labelled = name === "email" && !field.label ? { ...field, label: t.t("signin.email.label") } : field
    const value = name === "email" && params.email !== undefined && field.value === undefined ? { ...labelled, value: params.email } : labelled
    return credentialField(name, value, `provider-${index}-field-${i}`, name === "email" ? hintId : undefined)
  })
  return {
    button: false,
    scriptOnly: true,
    css,
    script: passkeyScriptUrl(basePath),
    markup: html`<form action="${formAction(params, "callback", provider)}" method="POST" data-sesame-passkey="${provider.id}" data-auth-url="${basePath}"${
      provider.enableConditionalUI !== false ? html` data-conditional` : ""
    }${sharedEmail ? html` data-email-field="${sharedEmail}"` : ""} data-status-working="${t.t("signin.passkey.working")}" data-status-failed="${t.t("signin.passkey.failed")}">
${hiddenFields(params)}
${fields}
${"email" in formFields ? html`<p class="passkey-hint" id="${hintId}">${t.t("signin.passkey.hint")}</p>` : ""}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
${sharedEmail ? html`<p class="passkey-hint passkey-after">${t.t("signin.passkey.hint")}</p>` : ""}
<p class="passkey-status" data-passkey-status role="status" aria-live="polite"></p>
</form>`,
  }
}

export const passkeySignInPart: SignInPart = {
  section: passkeySection,
  address: {
    rank: 2,
    // A passkey form with fields of its own (`formFields`) keeps them.
    joins: (provider: WebAuthnConfig) => !provider.formFields || Object.keys(provider.formFields).join() === "email",
    // The shared field offers passkeys in its autofill.
    autocomplete: "webauthn",
    beside: passkeySection,
  },
}
