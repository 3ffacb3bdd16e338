import type { ServerLoad } from "@sveltejs/kit"

// The layout and the page both read the session: one read per request.
export const load: ServerLoad = async ({ locals }) => ({ layoutUser: (await locals.auth())?.user?.name ?? null })
