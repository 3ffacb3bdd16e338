// server/api/me.get.ts
import { requireSession } from "@sesame/nuxt/server"

// JSON for signed-in users: a JSON client without a session gets 401 { "error": "Unauthorized", … },
// a browser the redirect to the sign-in page.
export default defineEventHandler(async (event) => {
  const session = await requireSession(event)
  if (session instanceof Response) return session
  return { user: session.user }
})
