// src/routes/index.tsx, at /
import { createFileRoute, Link } from "@tanstack/react-router"

export const Route = createFileRoute("/")({ component: Home })

function Home() {
  const { user } = Route.useRouteContext()
  return (
    <>
      <h1>Sesame on TanStack Start</h1>
      <p data-testid="server-session">{user ? `Signed in as ${user.name ?? user.email}` : "Not signed in"}</p>
      <p>
        The <Link to="/dashboard">dashboard</Link> and <a href="/api/me">/api/me</a> are for signed-in visitors only.
      </p>
    </>
  )
}
