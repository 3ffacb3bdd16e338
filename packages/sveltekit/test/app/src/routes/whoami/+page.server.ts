import { isStorageUnavailable } from "@sesame/sveltekit"
import type { ServerLoad } from "@sveltejs/kit"

// A page that catches the outage itself and says so.
export const load: ServerLoad = async ({ locals }) => {
  try {
    return { who: (await locals.auth())?.user?.name ?? "nobody" }
  } catch (error) {
    if (isStorageUnavailable(error)) return { who: `unknown for ${error.retryAfter} s (${error.type})` }
    throw error
  }
}
