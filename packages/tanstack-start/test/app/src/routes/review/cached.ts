// A server route that says its answer may be cached by anyone, and answers with the visitor's email.
import { getSession } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/review/cached")({
  server: { handlers: { GET: async () => Response.json({ email: (await getSession())?.user?.email ?? null }, { headers: { "cache-control": "public, max-age=3600" } }) } },
})
