import { A } from "@solidjs/router"
import { Match, Switch } from "solid-js"
import { createSession, signOut } from "@sesame/solid-start/client"

/** The header: links, and the session as the browser sees it (it follows focus and other tabs). */
export function Nav() {
  const session = createSession()
  return (
    <nav>
      <A href="/">Home</A>
      <A href="/account">Account (server-protected)</A>
      <A href="/dashboard">Dashboard (middleware-protected)</A>
      <span class="session" data-testid="session-status">
        <Switch>
          <Match when={session.status === "loading"}>Loading…</Match>
          <Match when={session.status === "authenticated"}>
            <span>Signed in as {session()?.user?.name}</span>
            <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
              Sign out
            </button>
          </Match>
          <Match when={session.status === "unauthenticated"}>
            <span>Not signed in</span>
            <A href="/signin">Sign in</A>
          </Match>
        </Switch>
      </span>
    </nav>
  )
}
