"use server"
/**
 * Server actions: signing in and out, and renaming, on the server. A wrong password comes back as
 * `CredentialsSignin` and is shown on the sign-in page; anything else is thrown on.
 */
import { CredentialsSignin } from "@sesame/next"
import { redirect } from "next/navigation"
import { signIn, signOut, unstable_update } from "../auth"

function signInPage(error: string, redirectTo: FormDataEntryValue | null): string {
  const params = new URLSearchParams({ error })
  if (typeof redirectTo === "string" && redirectTo) params.set("callbackUrl", redirectTo)
  return `/signin?${params}`
}

export async function signInWithPassword(form: FormData): Promise<void> {
  try {
    await signIn("credentials", form)
  } catch (error) {
    if (error instanceof CredentialsSignin) redirect(signInPage("CredentialsSignin", form.get("redirectTo")))
    throw error
  }
}

export async function signInWithIdp(form: FormData): Promise<void> {
  const redirectTo = form.get("redirectTo")
  await signIn("dev-idp", { redirectTo: typeof redirectTo === "string" && redirectTo ? redirectTo : "/" })
}

export async function signOutEverywhere(): Promise<void> {
  await signOut({ redirectTo: "/" })
}

export async function rename(form: FormData): Promise<void> {
  const name = form.get("name")
  if (typeof name === "string") await unstable_update({ user: { name } })
  redirect("/protected")
}
