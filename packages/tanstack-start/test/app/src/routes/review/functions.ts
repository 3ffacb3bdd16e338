// The review's server functions' URLs, for ../../review.test.ts to call them as the browser does.
import { createFileRoute } from "@tanstack/react-router"
import { requireUser, signInWith } from "../../review"

export const Route = createFileRoute("/review/functions")({
  server: { handlers: { GET: () => Response.json({ signInWith: signInWith.url, requireUser: requireUser.url }) } },
})
