// The test's switch of the storage outage (this app only).
import { createFileRoute } from "@tanstack/react-router"
import { setOutage } from "../../../auth"

export const Route = createFileRoute("/api/test/outage")({
  server: { handlers: { POST: async ({ request }) => (setOutage((await request.text()) === "down"), new Response(null, { status: 204 })) } },
})
