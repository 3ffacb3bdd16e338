// signOut from a server route, then what the rest of the request sees of the session.
import { getSession, signOut } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/api/signout")({
  server: {
    handlers: {
      POST: async () => {
        const before = (await getSession())?.user?.email ?? null
        const url = await signOut({ redirect: false, redirectTo: "/" })
        return Response.json({ before, after: (await getSession())?.user?.email ?? null, url })
      },
    },
  },
})
