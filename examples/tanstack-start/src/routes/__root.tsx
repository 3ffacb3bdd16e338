// src/routes/__root.tsx: every page's frame, with the session the server read for the header.
/// <reference types="vite/client" />
import { createRootRoute, HeadContent, Link, Outlet, Scripts, useRouterState } from "@tanstack/react-router"
import { useServerFn } from "@tanstack/react-start"
import { useEffect, useState, type ReactNode } from "react"
import { fetchSession, signOutNow } from "../session"
import css from "../app.css?url"

export const Route = createRootRoute({
  // On the server for the first page, then through a server function on each navigation.
  beforeLoad: async () => fetchSession(),
  head: () => ({
    meta: [{ charSet: "utf-8" }, { name: "viewport", content: "width=device-width, initial-scale=1" }, { title: "Sesame on TanStack Start" }],
    links: [{ rel: "stylesheet", href: css }],
  }),
  shellComponent: Shell,
  component: Outlet,
  notFoundComponent: () => (
    <>
      <h1>Not found</h1>
      <p>There is no page here.</p>
    </>
  ),
})

/** The session on the client: the browser asks Sesame's /auth/session itself, with its cookie, after every navigation. */
function ClientSession() {
  const location = useRouterState({ select: (state) => state.location.href })
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
  }, [location])
  return (
    <p data-testid="client-session" aria-live="polite">
      {text}
    </p>
  )
}

function Header() {
  const { user } = Route.useRouteContext()
  // signOut() answers with a redirect home (a new document), which useServerFn has the router follow.
  const signOutFn = useServerFn(signOutNow)
  return (
    <header>
      <nav>
        <Link to="/">Home</Link>
        <Link to="/dashboard">Dashboard</Link>
      </nav>
      {user ? (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void signOutFn()
          }}
        >
          <span data-testid="header-user">{user.name ?? user.email}</span>
          <button>Sign out</button>
        </form>
      ) : (
        <Link to="/signin">Sign in</Link>
      )}
    </header>
  )
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        <Header />
        <main>
          {children}
          <ClientSession />
        </main>
        <Scripts />
      </body>
    </html>
  )
}
