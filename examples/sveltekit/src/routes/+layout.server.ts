import type { LayoutServerLoad } from "./$types"

// Every page gets the session (read once per request, however many loads ask).
export const load: LayoutServerLoad = async ({ locals }) => ({ session: await locals.auth() })
