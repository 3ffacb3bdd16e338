// src/routes/+layout.server.ts
import { isStorageUnavailable } from "@sesame/sveltekit"
import type { ServerLoad } from "@sveltejs/kit"

// Every page shows who is signed in (the layout and the page share one read). While the database
// cannot be reached, nobody is known: the layout shows no one, so that a page that needs no
// session is still shown, and `requireSession` answers the pages that do with "try again".
export const load: ServerLoad = async ({ locals }) => {
  try {
    return { layoutUser: (await locals.auth())?.user?.name ?? null }
  } catch (error) {
    if (isStorageUnavailable(error)) return { layoutUser: null }
    throw error
  }
}
