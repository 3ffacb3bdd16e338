// app/root.tsx: the middleware of every request, the session for every page, and the page's frame.
import { authorize, getSession, sessionMiddleware } from "@sesame/react-router"
import { useEffect, useState, type ReactNode } from "react"
import { Form, isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router"
import type { Route } from "./+types/root"
import { authConfig } from "./auth.server"
import "./app.css"

// `sessionMiddleware` reads the session once per request, for every loader and action (`getSession`,
// `requireSession`, `signIn`, `signOut`), and keeps it alive; `authorize` sends a visitor without
// one away from /dashboard (to the sign-in page, and back) before any loader runs: the document, and
// the `/dashboard.data` request of a client-side navigation alike. React Router runs route
// middleware with `future: { v8_middleware: true }` (react-router.config.ts).
export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware(authConfig), authorize(authConfig, { protect: ["/dashboard"] })]

// The session on the server, for the header of every page.
export async function loader(args: Route.LoaderArgs) {
  const session = await getSession(args)
  return { user: session?.user ?? null }
}

/** The session on the client: the browser asks Sesame's /auth/session itself, with its cookie, after every navigation. */
function ClientSession() {
  const location = useLocation()
  const [text, setText] = useState("")
  useEffect(() => {
    let current = true
    fetch("/auth/session", { headers: { accept: "application/json" } })
      .then((response) => response.json() as Promise<{ user?: { name?: string | null; email?: string | null } } | null>)
      .then((session) => {
        if (current) setText(session?.user ? `The browser sees ${session.user.name ?? session.user.email}` : "The browser sees no session")
      })
      .catch(() => {
        if (current) setText("The browser could not read the session")
      })
    return () => {
      current = false
    }
  }, [location.key])
  return (
    <p data-testid="client-session" aria-live="polite">
      {text}
    </p>
  )
}

// Every page's frame, the error page's too: the header shows the session the root loader read on
// the server (none on an error page whose loader failed).
export function Layout({ children }: { children: ReactNode }) {
  const user = useRouteLoaderData<typeof loader>("root")?.user
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <header>
          <nav>
            <Link to="/">Home</Link>
            <Link to="/dashboard">Dashboard</Link>
            <Link to="/account">Account</Link>
          </nav>
          {user ? (
            <Form method="post" action="/signout">
              <span data-testid="header-user">{user.name ?? user.email}</span>
              <button>Sign out</button>
            </Form>
          ) : (
            <Link to="/signin">Sign in</Link>
          )}
        </header>
        <main>
          {children}
          <ClientSession />
        </main>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const [title, details] = isRouteErrorResponse(error)
    ? [`${error.status} ${error.statusText}`, error.status === 404 ? "There is no page here." : String(error.data)]
    : ["Something went wrong", "The server could not show this page."]
  return (
    <>
      <title>{`${title} · Sesame on React Router`}</title>
      <h1>{title}</h1>
      <p>{details}</p>
    </>
  )
}
