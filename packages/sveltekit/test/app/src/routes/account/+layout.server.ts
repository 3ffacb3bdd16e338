import { requireSession } from "@sesame/sveltekit"
import type { ServerLoad } from "@sveltejs/kit"

export const load: ServerLoad = async (event) => ({ name: (await requireSession(event)).user.name })
