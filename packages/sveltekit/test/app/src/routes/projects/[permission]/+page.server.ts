import { requireSession } from "@sesame/sveltekit"
import type { ServerLoad } from "@sveltejs/kit"
import { allowFor } from "../../../lib/permissions.js"

// Signed-in visitors whose `allow` grants `project:<permission>`.
export const load: ServerLoad = async (event) => ({ name: (await requireSession(event, { allow: allowFor(event.params.permission ?? "") })).user.name })
