import { createMiddleware } from "@solidjs/start/middleware"
import { authMiddleware } from "@sesame/solid-start"
import { authConfig } from "./lib/auth"

export default createMiddleware({
  onRequest: [authMiddleware(authConfig, { protect: ["/dashboard"], redirectTo: "/signin" })],
})
