// server/middleware/sesame.ts
import { authorize, sessionMiddleware } from "@sesame/nuxt/server"

// `sessionMiddleware` puts the session in `event.context.session` for every route and page (the
// module's plugin hands it to the page's render, and the payload to the browser); `authorize`
// answers a request for /dashboard without a session (a redirect to the sign-in page and back, or
// 401 JSON) before Nuxt renders anything. One file runs both, in this order.
const session = sessionMiddleware(authConfig)
const guard = authorize(authConfig, { protect: ["/dashboard"] })

export default defineEventHandler(async (event) => (await session(event)) ?? guard(event))
