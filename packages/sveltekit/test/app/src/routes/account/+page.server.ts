// src/routes/account/+page.server.ts
import { requireSession } from "@sesame/sveltekit"
import type { Actions } from "@sveltejs/kit"

export const actions: Actions = {
  // SvelteKit runs an action before the layout's `load`, or without it: the action checks itself.
  rename: async (event) => {
    const { user } = await requireSession(event)
    const name = String((await event.request.formData()).get("name") ?? "")
    return { renamed: `${user.name} is now ${name}` }
  },
}
