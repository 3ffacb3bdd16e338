"use server"
/**
 * Server actions of the home page: revoke a session, delete a passkey, link or unlink a provider
 * account, change or set the password, delete the user, sign out. Each ends in a redirect home,
 * with a `notice` when Sesame refused (the page says why), or for the password forms a `password`
 * outcome (app/components/password.tsx says what it means). Calling the API is the exception: its
 * outcome (with the token's claims) goes back to the section that asked, not into a URL. And the
 * demo's database outage (lib/outage.ts), which ends on the protected page.
 */
import { redirect } from "next/navigation"
import {
  changePassword,
  deletePasskey,
  deleteUser,
  getApiToken,
  requireRecentSignIn,
  revokeSession,
  setPassword,
  signIn,
  signOut,
  unlinkAccount,
  updateUserFields,
} from "../auth"
import { languages } from "../lib/languages"
import { callApi, type ApiCall } from "../lib/api"
import { startOutage } from "../lib/outage"
import { linkableProviders } from "../lib/providers"

/**
 * Saves the language the user picked: one of the page's, checked here (Sesame checks that users
 * may set the field and that it is a string; which values make sense is the app's decision).
 */
export async function chooseLanguageAction(form: FormData): Promise<void> {
  const language = form.get("language")
  if (typeof language !== "string" || !Object.hasOwn(languages, language)) redirect("/")
  const result = await updateUserFields({ language })
  redirect(result.updated ? "/?notice=LanguageSaved" : "/")
}

export async function revokeSessionAction(form: FormData): Promise<void> {
  const id = form.get("id")
  if (typeof id === "string") await revokeSession(id)
  redirect("/")
}

export async function deletePasskeyAction(form: FormData): Promise<void> {
  const id = form.get("id")
  let refused = false
  if (typeof id === "string") refused = !(await deletePasskey(id)).deleted
  redirect(refused ? "/?notice=LastSignInMethod" : "/")
}

/** Linking is a sign-in with the provider while signed in: Sesame links the account to this user. */
export async function linkAccountAction(form: FormData): Promise<void> {
  // Only the identity providers the page offers: this action is callable with any form data.
  const provider = linkableProviders.find((linkable) => linkable.id === form.get("provider"))
  if (!provider) redirect("/")
  await signIn(provider.id, { redirectTo: "/" })
}

export async function unlinkAccountAction(form: FormData): Promise<void> {
  const provider = form.get("provider")
  const providerAccountId = form.get("providerAccountId")
  if (typeof provider !== "string" || typeof providerAccountId !== "string") redirect("/")
  // Sesame counts the password provider (and the emailed link) as a way in for a user with an address.
  const result = await unlinkAccount({ provider, providerAccountId })
  redirect(!result.unlinked && result.reason === "LastSignInMethod" ? "/?notice=LastAccount" : "/")
}

/** A form field as typed, or "" (Sesame refuses an empty password with a reason like any other). */
const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value : ""
}

/** Home, with the outcome of a password form and, where there is one, its number (sessions ended, seconds to wait). */
function passwordOutcome(outcome: string, count?: number): never {
  const query = new URLSearchParams({ password: outcome })
  if (count !== undefined) query.set("count", String(count))
  redirect(`/?${query}`)
}

/** Changes the password: the current one must be right; the user's other sessions end. */
export async function changePasswordAction(form: FormData): Promise<void> {
  const result = await changePassword({ currentPassword: field(form, "currentPassword"), newPassword: field(form, "newPassword") })
  if (result.changed) passwordOutcome("changed", result.sessionsEnded)
  passwordOutcome(result.reason, result.retryAfter)
}

/** Sets a first password for a user who signed up another way (Sesame asks for a recent sign-in). */
export async function setPasswordAction(form: FormData): Promise<void> {
  const result = await setPassword({ newPassword: field(form, "newPassword") })
  passwordOutcome(result.set ? "set" : result.reason)
}

/**
 * Deletes the user, then signs the browser out. A sign-in older than 10 minutes first proves who
 * it is again (step-up): a fresh code from the authenticator app, or signing in again. Either
 * comes back to the confirmation step, so the user confirms once more what they asked for.
 */
export async function deleteUserAction(): Promise<void> {
  const check = await requireRecentSignIn({ returnTo: "/?confirm=delete-account" })
  if (!check.recent) redirect(check.redirect)
  // Sesame checks the sign-in's age itself too (a race with the check above ends here).
  const result = await deleteUser()
  if (!result.deleted) redirect(result.reason === "SignInTooOld" ? "/?notice=SignInTooOld" : "/")
  await signOut({ redirectTo: "/?notice=Deleted" })
}

/** Gets an API token for the signed-in user and calls the demo's API with it, from the server. */
export async function callApiAction(): Promise<ApiCall> {
  const grant = await getApiToken()
  if (!grant) return { outcome: "signed-out" }
  return callApi(grant.token)
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" })
}

/** Takes the database away for a few seconds, then opens the protected page to show what Sesame does meanwhile. */
export async function simulateOutageAction(): Promise<void> {
  startOutage()
  redirect("/protected")
}
