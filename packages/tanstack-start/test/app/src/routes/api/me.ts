// requireSession in a server route: the session, or the answer it throws.
import { requireSession } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/api/me")({
  server: { handlers: { GET: async () => Response.json({ email: (await requireSession()).user.email }) } },
})
