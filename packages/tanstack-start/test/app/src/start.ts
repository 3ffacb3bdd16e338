import { authorize, sessionMiddleware } from "@sesame/tanstack-start"
import { createMiddleware, createStart } from "@tanstack/react-start"
import { authConfig } from "./auth"

export const startInstance = createStart(() => ({
  requestMiddleware: [
    createMiddleware().server(sessionMiddleware(authConfig)),
    createMiddleware().server(authorize(authConfig, { protect: ["/private", "/api/guarded"] })),
    createMiddleware().server(authorize(authConfig, { protect: (path) => path.startsWith("/admin"), allow: (session) => session.user.email === "admin@example.com" })),
  ],
}))
