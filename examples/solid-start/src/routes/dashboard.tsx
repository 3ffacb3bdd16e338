import { useNavigate } from "@solidjs/router"
import { createEffect, Show } from "solid-js"
import { createSession } from "@sesame/solid-start/client"

/**
 * Protected by the middleware (src/middleware.ts): a request for this page without a session is
 * redirected before anything renders. Its content is rendered in the browser, from the session the
 * browser fetches. A navigation inside the running app makes no request the middleware could see,
 * so the page also leaves when that session says signed out.
 */
export default function Dashboard() {
  const session = createSession()
  const navigate = useNavigate()
  createEffect(() => {
    if (session.status === "unauthenticated") navigate("/signin", { replace: true })
  })
  return (
    <>
      <h1>Dashboard</h1>
      <Show when={session()?.user} fallback={<p>Loading…</p>}>
        {(user) => (
          <div class="card" data-testid="dashboard">
            <p>
              Welcome, <strong>{user().name}</strong>.
            </p>
            <p>This page is protected by the middleware; its content is rendered in the browser.</p>
          </div>
        )}
      </Show>
    </>
  )
}
