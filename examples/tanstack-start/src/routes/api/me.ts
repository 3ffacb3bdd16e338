// src/routes/api/me.ts: a JSON route for signed-in visitors. The authorize middleware (src/start.ts)
// answers 401 before this runs; the handler asks again, as a route that stands on its own does.
import { requireSession } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/api/me")({
  server: {
    handlers: {
      GET: async () => {
        const session = await requireSession()
        return Response.json({ user: session.user }, { headers: { "cache-control": "private, no-store" } })
      },
    },
  },
})
