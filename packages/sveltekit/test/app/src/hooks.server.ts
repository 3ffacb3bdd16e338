import { authorize } from "@sesame/sveltekit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as auth } from "./auth.js"

export const handle = sequence(
  auth,
  authorize({ protect: ["/admin", "/api/private"] }),
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
