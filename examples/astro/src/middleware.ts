// src/middleware.ts
import { sessionMiddleware, authorize } from "@sesame/astro"
import { sequence } from "astro:middleware"
import { authConfig } from "./auth"

// `sessionMiddleware` puts the session in `locals.session` for every page and endpoint; `authorize`
// sends a visitor without one away from /dashboard (to the sign-in page, and back) before Astro
// renders anything.
export const onRequest = sequence(sessionMiddleware(authConfig), authorize(authConfig, { protect: ["/dashboard"] }))
