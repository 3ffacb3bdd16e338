import { CredentialsSignin } from "@sesame/core/errors"
import { fail, type Actions } from "@sveltejs/kit"
import { signIn } from "../../auth.js"

export const actions: Actions = {
  // The app's own action: a rejected sign-in is thrown to it, and it answers with its message.
  credentials: async (event) => {
    const form = await event.request.formData()
    try {
      return await signIn(event, "credentials", form)
    } catch (error) {
      if (error instanceof CredentialsSignin) return fail(400, { error: "Wrong username or password." })
      throw error
    }
  },
  // No redirect: the action gets the URL.
  quiet: async (event) => signIn(event, "credentials", { ...Object.fromEntries(await event.request.formData()), redirect: false }),
}
