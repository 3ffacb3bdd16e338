// src/start.ts: the request middleware of every request. `sessionMiddleware` reads the session once
// per request (for every server function, server route and page of it) and keeps it alive;
// `authorize` sends a visitor without one away from /dashboard and /api/me (to the sign-in page and
// back, or 401 JSON) before anything of theirs runs. Both are given to `createMiddleware().server()`
// here, in the app's code, so that TanStack Start leaves them (and Sesame) out of the browser's
// bundle. TanStack Start's CSRF middleware refuses another site's calls of the server functions.
import { authorize, sessionMiddleware } from "@sesame/tanstack-start"
import { createCsrfMiddleware, createMiddleware, createStart } from "@tanstack/react-start"
import { authConfig } from "./auth"

export const startInstance = createStart(() => ({
  requestMiddleware: [
    createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === "serverFn" }),
    createMiddleware().server(sessionMiddleware(authConfig)),
    createMiddleware().server(authorize(authConfig, { protect: ["/dashboard", "/api/me"] })),
  ],
}))
