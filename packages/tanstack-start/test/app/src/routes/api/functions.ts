// The server functions' URLs, for the tests to call them as the browser does.
import { createFileRoute } from "@tanstack/react-router"
import { leave, mustBeSignedIn, whoAmI } from "../../functions"

export const Route = createFileRoute("/api/functions")({
  server: { handlers: { GET: () => Response.json({ whoAmI: whoAmI.url, mustBeSignedIn: mustBeSignedIn.url, leave: leave.url }) } },
})
