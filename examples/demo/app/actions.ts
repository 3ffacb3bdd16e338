"use server"
/** Server actions of the home page: revoke a session, delete a passkey, sign out. */
import { deletePasskey, revokeSession } from "@sesame/core"
import { redirect } from "next/navigation"
import { config, signOut } from "../auth"
import { browserRequest } from "../lib/request"

export async function revokeSessionAction(form: FormData): Promise<void> {
  const id = form.get("id")
  if (typeof id === "string") await revokeSession(await browserRequest(), config, id)
  redirect("/")
}

export async function deletePasskeyAction(form: FormData): Promise<void> {
  const id = form.get("id")
  let refused = false
  if (typeof id === "string") refused = !(await deletePasskey(await browserRequest(), config, id)).deleted
  redirect(refused ? "/?notice=LastSignInMethod" : "/")
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" })
}
