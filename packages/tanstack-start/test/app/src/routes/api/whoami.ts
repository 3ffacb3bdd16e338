// api(): the plugins' server functions for the request's user; POST signs out first.
import { api, signOut, type ServerFunctionsOf } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"
import type { whoami } from "../../auth"

const plugins = () => api() as ServerFunctionsOf<typeof whoami>

export const Route = createFileRoute("/api/whoami")({
  server: {
    handlers: {
      GET: async () => Response.json({ user: await plugins().whoami() }),
      POST: async () => {
        await signOut({ redirect: false })
        return Response.json({ user: await plugins().whoami() })
      },
    },
  },
})
