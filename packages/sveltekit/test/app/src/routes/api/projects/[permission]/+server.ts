import { requireSession } from "@sesame/sveltekit"
import { json, type RequestHandler } from "@sveltejs/kit"
import { allowFor } from "../../../../lib/permissions.js"

// Signed-in clients whose `allow` grants `project:<permission>`.
export const GET: RequestHandler = async (event) => json((await requireSession(event, { allow: allowFor(event.params.permission ?? "") })).user)
