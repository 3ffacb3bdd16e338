// src/routes/api/me/+server.ts
import { requireSession } from "@sesame/sveltekit"
import { json } from "@sveltejs/kit"
import type { RequestHandler } from "./$types"

// A JSON client without a session gets 401 { "error": "Unauthorized", … }; a page, the redirect.
export const GET: RequestHandler = async (event) => json({ user: (await requireSession(event)).user })
