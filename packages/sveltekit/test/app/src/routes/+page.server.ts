import type { ServerLoad } from "@sveltejs/kit"

export const load: ServerLoad = async ({ locals }) => {
  const session = await locals.auth()
  await locals.auth()
  return { user: session?.user?.name ?? null }
}
