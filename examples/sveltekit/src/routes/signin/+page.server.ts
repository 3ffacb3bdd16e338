// src/routes/signin/+page.server.ts
import { CredentialsSignin } from "@sesame/core/errors"
import { fail } from "@sveltejs/kit"
import { signIn } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ fetch, url }) => {
  // The providers the server has configured (the OpenID Connect one needs its environment).
  const providers = (await (await fetch("/auth/providers")).json()) as Record<string, { id: string; name: string; type: string }>
  return {
    redirectTo: url.searchParams.get("callbackUrl") ?? "/",
    buttons: Object.values(providers).filter((provider) => provider.type !== "credentials"),
  }
}

export const actions: Actions = {
  // A failed credentials sign-in is thrown to the action, which answers with its own message.
  credentials: async (event) => {
    const form = await event.request.formData()
    try {
      await signIn(event, "credentials", form)
    } catch (error) {
      if (error instanceof CredentialsSignin) {
        // The page is shown again for another try: with the address typed and the way back.
        return fail(400, { email: String(form.get("email") ?? ""), redirectTo: String(form.get("redirectTo") ?? "/"), error: "Wrong email or password." })
      }
      throw error
    }
  },
  // `signIn` as it is: the form's `providerId` names the provider, `redirectTo` the way back.
  provider: signIn,
}
