/**
 * The email provider's part of the sign-in page: a form for the address alone, or a button in the
 * page's one address form beside a password or a passkey.
 *
 * @module
 */
import { html } from "../pages/html.js"
import { emailField, formAction, guardOf, hiddenFields, type Section, type SectionContext, type SignInPart } from "../pages/section.js"
import type { EmailConfig } from "./types.js"

function emailSection(provider: EmailConfig, { params, t, index }: SectionContext): Section {
  const id = `provider-${index}-email`
  const guard = guardOf(params, "email")
  return {
    button: false,
    markup: html`<form action="${formAction(params, "signin", provider)}" method="POST">
${hiddenFields(params)}
${emailField(id, "email", params, t)}${guard.markup}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>`,
    ...(guard.widget ? { widget: guard.widget } : {}),
  }
}

export const emailSignInPart: SignInPart = {
  section: emailSection,
  guarded: "email",
  address: {
    // After the password: a page with both signs in with the password on Enter.
    rank: 1,
    action: (provider: EmailConfig, params) => formAction(params, "signin", provider),
    controls: (provider: EmailConfig, { params, t }, primary) =>
      html`<button type="submit"${primary ? html` class="primary"` : ""} formaction="${formAction(params, "signin", provider)}">${t.t("signin.with", { provider: provider.name })}</button>`,
  },
}
