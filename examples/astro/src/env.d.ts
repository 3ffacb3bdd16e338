// `Astro.locals.session` (and `context.locals.session` in endpoints and middleware): the session
// that `sessionMiddleware` reads once per request, or null.
type SesameLocals = import("@sesame/astro").SesameLocals

declare namespace App {
  interface Locals extends SesameLocals {}
}
