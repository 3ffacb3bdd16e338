"use server"
/**
 * Server actions of the home page: revoke a session, delete a passkey, link or unlink a provider
 * account, delete the user, sign out. Each ends in a redirect home, with a `notice` when Sesame
 * refused (the page says why).
 */
import { redirect } from "next/navigation"
import { deletePasskey, deleteUser, revokeSession, signIn, signOut, unlinkAccount } from "../auth"
import { hasPassword } from "../lib/demo-account"
import { linkableProviders } from "../lib/providers"

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
  // The demo's password is a way in that only the app knows of.
  const result = await unlinkAccount({ provider, providerAccountId }, { canSignInWithout: (user) => hasPassword(user.id) })
  redirect(!result.unlinked && result.reason === "LastSignInMethod" ? "/?notice=LastAccount" : "/")
}

/** Deletes the user (Sesame asks for a recent sign-in), then signs the browser out. */
export async function deleteUserAction(): Promise<void> {
  const result = await deleteUser()
  if (!result.deleted) redirect(result.reason === "SignInTooOld" ? "/?notice=SignInTooOld" : "/")
  await signOut({ redirectTo: "/?notice=Deleted" })
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" })
}
