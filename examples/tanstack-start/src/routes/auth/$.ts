// src/routes/auth/$.ts: Sesame's endpoints and built-in pages under /auth (sign-in, callbacks,
// session, sign-out, sign-up…), answered by the core.
import { sesame } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"
import { authConfig } from "../../auth"

export const Route = createFileRoute("/auth/$")({
  server: { handlers: sesame(authConfig) },
})
