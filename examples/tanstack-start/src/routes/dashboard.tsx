// src/routes/dashboard.tsx, at /dashboard. The authorize middleware (src/start.ts) turns away a
// visitor without a session who asks for the page's document; `beforeLoad` does on a client-side
// navigation, which asks no document, through the requireUser server function.
import { createFileRoute } from "@tanstack/react-router"
import { requireUser } from "../session"

export const Route = createFileRoute("/dashboard")({
  beforeLoad: async ({ location }) => ({ member: await requireUser({ data: location.href }) }),
  head: () => ({ meta: [{ title: "Dashboard · Sesame on TanStack Start" }] }),
  component: Dashboard,
})

function Dashboard() {
  const { member } = Route.useRouteContext()
  return (
    <>
      <h1>Dashboard</h1>
      <p data-testid="dashboard-user">{`Hello, ${member.name ?? member.email}.`}</p>
    </>
  )
}
