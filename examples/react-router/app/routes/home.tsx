// app/routes/home.tsx, at /
import { getSession } from "@sesame/react-router"
import { Link } from "react-router"
import type { Route } from "./+types/home"

export const meta: Route.MetaFunction = () => [{ title: "Sesame on React Router" }]

// The session on the server: the middleware's read of this request (one read, however many loaders ask).
export async function loader(args: Route.LoaderArgs) {
  return { session: await getSession(args) }
}

export default function Home({ loaderData: { session } }: Route.ComponentProps) {
  return (
    <>
      <h1>Sesame on React Router</h1>
      {session?.user ? (
        <>
          <p data-testid="home-user">
            Signed in as {session.user.name ?? session.user.email} ({session.user.email})
          </p>
          <pre>{JSON.stringify(session, null, 2)}</pre>
        </>
      ) : (
        <p data-testid="home-user">Not signed in.</p>
      )}
      <ul>
        <li>
          <Link to="/dashboard">Dashboard</Link>: guarded by the <code>authorize</code> middleware (<code>app/root.tsx</code>).
        </li>
        <li>
          <Link to="/account">Account</Link>: guarded in its loader by <code>requireSession</code>.
        </li>
        <li>
          {/* A resource route: the browser loads it as a document, not React Router. */}
          <a href="/api/me">/api/me</a>: JSON, guarded by <code>requireSession</code> (401 for a JSON client).
        </li>
      </ul>
    </>
  )
}
