import { CredentialsSignin } from "@sesame/core/errors"
import { fail, type Actions } from "@sveltejs/kit"
import { signIn, signOut } from "../../auth.js"

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
  // No redirect: the action gets the URL. It looks at the session first, as an action that
  // switches accounts would: the page's own read after the sign-in must see the new session.
  quiet: async (event) => {
    await event.locals.auth()
    return signIn(event, "credentials", { ...Object.fromEntries(await event.request.formData()), redirect: false })
  },
  // A sign-out without a redirect: SvelteKit renders the page after it.
  quietSignOut: async (event) => signOut(event, { redirect: false }),
}
