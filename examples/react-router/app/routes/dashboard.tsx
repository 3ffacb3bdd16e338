// app/routes/dashboard.tsx, at /dashboard
import { getSession } from "@sesame/react-router"
import type { Route } from "./+types/dashboard"

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Sesame on React Router" }]

// The authorize middleware (app/root.tsx) lets only signed-in visitors reach this loader.
export async function loader(args: Route.LoaderArgs) {
  const session = await getSession(args)
  return { user: session?.user ?? null }
}

export default function Dashboard({ loaderData: { user } }: Route.ComponentProps) {
  return (
    <>
      <h1>Dashboard</h1>
      <p data-testid="dashboard-user">Hello, {user?.name ?? user?.email}.</p>
    </>
  )
}
