// Guarded by authorize (src/start.ts): its handler answers only a signed-in visitor.
import { getSession } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/api/guarded")({
  server: { handlers: { GET: async ({ context }) => Response.json({ fromContext: (context as { session?: { user?: { email?: string } } }).session?.user?.email ?? null, fromGetSession: (await getSession())?.user?.email ?? null }) } },
})
