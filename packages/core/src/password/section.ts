/**
 * The password provider's part of the sign-in page: address and password, with the ways to a
 * forgotten password and to sign-up; or its field and button in the page's one address form.
 *
 * @module
 */
import { html, type SafeHtml } from "../pages/html.js"
import { emailField, formAction, guardOf, hiddenFields, type Section, type SectionContext, type SignInPart } from "../pages/section.js"
import type { PasswordConfig } from "./types.js"

/** The ways to a forgotten password and (when offered) to sign-up, under a password form. */
function passwordLinks(provider: PasswordConfig, { params, t }: SectionContext): SafeHtml {
  const query = new URLSearchParams({ callbackUrl: params.callbackUrl }).toString()
  return html`<p class="links"><a href="${params.authUrl}/forgot-password?${query}">${t.t("signin.password.forgot")}</a>${
    provider.signUp === false ? "" : html`<br><a href="${params.authUrl}/signup?${query}">${t.t("signin.password.signup")}</a>`
  }</p>`
}

/** Address and password. */
function passwordSection(provider: PasswordConfig, context: SectionContext): Section {
  const { params, t, index } = context
  const id = `provider-${index}`
  const guard = guardOf(params, "sign-in")
  return {
    button: false,
    markup: html`<form action="${formAction(params, "callback", provider)}" method="POST">
${hiddenFields(params)}
${emailField(`${id}-email`, "username", params, t)}
<label for="${id}-password">${t.t("signin.password.label")}</label>
<input id="${id}-password" name="password" type="password" autocomplete="current-password" required>${guard.markup}
<button type="submit" class="primary">${t.t("signin.with", { provider: provider.name })}</button>
</form>
${passwordLinks(provider, context)}`,
    ...(guard.widget ? { widget: guard.widget } : {}),
  }
}

export const passwordSignInPart: SignInPart = {
  section: passwordSection,
  asksForPassword: true,
  guarded: "sign-in",
  address: {
    rank: 0,
    action: (provider: PasswordConfig, params) => formAction(params, "callback", provider),
    // Not `required`: the form's other buttons (a sign-in link by email) need no password.
    controls: (provider: PasswordConfig, { params, t }, primary) => html`<label for="signin-password">${t.t("signin.password.label")}</label>
<input id="signin-password" name="password" type="password" autocomplete="current-password">
<button type="submit"${primary ? html` class="primary"` : ""} formaction="${formAction(params, "callback", provider)}">${t.t("signin.with", { provider: provider.name })}</button>`,
    after: passwordLinks,
  },
}
