// app/routes/api.me.ts, a resource route at /api/me
import { requireSession } from "@sesame/react-router"
import type { Route } from "./+types/api.me"

// JSON for signed-in users. Without a session, `requireSession` throws the answer: `401`
// { "error": "Unauthorized", … } for a JSON client, the redirect to the sign-in page for a browser.
export async function loader(args: Route.LoaderArgs) {
  const session = await requireSession(args)
  return Response.json({ email: session.user.email })
}
