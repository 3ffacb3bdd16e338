// server/routes/signin.post.ts
import { CredentialsSignin } from "@sesame/core/errors"
import { signIn } from "@sesame/nuxt/server"

const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value : ""
}

// The forms of the app's sign-in page (app/pages/signin.vue) post here: `signIn` signs in on the
// server and answers with Sesame's redirect (and cookies). A refused password goes back to the page
// with `error`, which it shows.
export default defineEventHandler(async (event) => {
  const form = await readFormData(event)
  // Sesame keeps the way back on this site whatever it says.
  const redirectTo = field(form, "redirectTo") || "/"
  const provider = field(form, "provider")
  if (oidcProvider && provider === oidcProvider.id) return signIn(event, oidcProvider.id, { redirectTo })
  try {
    // Only the fields meant for the provider, never the whole form.
    return await signIn(event, provider === "password" ? "password" : "credentials", { redirectTo, email: field(form, "email"), password: field(form, "password") })
  } catch (caught) {
    if (!(caught instanceof CredentialsSignin)) throw caught
    const back = new URLSearchParams({ callbackUrl: redirectTo, error: "CredentialsSignin", email: field(form, "email") })
    return sendRedirect(event, `/signin?${back}`, 303)
  }
})
