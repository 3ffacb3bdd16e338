import { createAsync, query, type RouteDefinition } from "@solidjs/router"
import { Show } from "solid-js"
import { accountSession } from "~/lib/session"

const getAccount = query(() => accountSession(), "account")

export const route = { preload: () => getAccount() } satisfies RouteDefinition

/** Protected on the server: without a session, `requireSession` redirects to /signin. */
export default function Account() {
  // deferStream: the server waits for the session before sending anything, so a redirect is a 302.
  const session = createAsync(() => getAccount(), { deferStream: true })
  return (
    <>
      <h1>Account</h1>
      <Show when={session()}>
        {(s) => (
          <div class="card" data-testid="account">
            <p>
              Signed in as <strong>{s().user.name}</strong> ({s().user.email}).
            </p>
            <p>This page is protected on the server, by a server function that calls requireSession.</p>
          </div>
        )}
      </Show>
    </>
  )
}
