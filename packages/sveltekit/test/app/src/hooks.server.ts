import { authorize, isStorageUnavailable } from "@sesame/sveltekit"
import type { HandleServerError } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as auth } from "./auth.js"
import { allowFor } from "./lib/permissions.js"
import { probe } from "./lib/probe.js"

// As the README shows: a storage outage that a `load` let through is answered by Sesame's `handle`
// (503, "Try again in a moment") and was logged by the core when it began: not once per request.
export const handleError: HandleServerError = ({ error, message }) => {
  if (isStorageUnavailable(error)) return { message: "Try again in a moment." }
  probe().unexpected.push(error instanceof Error ? error.message : String(error))
  console.error(error)
  return { message }
}

export const handle = sequence(
  auth,
  authorize({ protect: ["/admin", "/api/private"] }),
  // `/staff/<permission>`: signed-in visitors whose `allow` grants `project:<permission>`.
  authorize({ protect: ["/staff"], allow: (session, event) => allowFor(event.url.pathname.split("/")[2] ?? "")(session, event) }),
  // As an app that guards everything (`protect: ["/"]`) would: paths such as `//evil.example`,
  // and the endpoints' own paths, which stay open whatever `protect` says. Only these, so that
  // the other pages stay open for the tests.
  authorize({ protect: (path) => path.startsWith("//") || path.startsWith("/auth") }),
  // A hook of the app's that answers itself after reading the session (signed-in visitors leave
  // /welcome for /), with a `Response` whose headers cannot be changed.
  async ({ event, resolve }) => {
    if (event.url.pathname === "/welcome" && (await event.locals.auth())) return Response.redirect(new URL("/", event.url), 303)
    return resolve(event)
  },
)
