// src/pages/api/me.ts
import { requireSession } from "@sesame/astro"
import type { APIRoute } from "astro"

// JSON for signed-in users: a JSON client without a session gets 401 { "error": "Unauthorized", … },
// a browser the redirect to the sign-in page.
export const GET: APIRoute = async (context) => {
  const session = await requireSession(context)
  if (session instanceof Response) return session
  return Response.json({ user: session.user })
}
