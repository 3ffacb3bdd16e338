import type { ServerLoad } from "@sveltejs/kit"

export const load: ServerLoad = async ({ locals }) => ({ name: (await locals.auth())?.user?.name ?? null })
