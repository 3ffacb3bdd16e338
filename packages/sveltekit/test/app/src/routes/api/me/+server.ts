import { requireSession } from "@sesame/sveltekit"
import { json, type RequestHandler } from "@sveltejs/kit"

export const GET: RequestHandler = async (event) => json((await requireSession(event)).user)
