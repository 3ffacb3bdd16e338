/**
 * The route handlers for `app/api/auth/[...sesame]/route.ts`.
 *
 * The request goes to the core as it is. Its `url` says `localhost` (Next.js rewrites it), which
 * the core never uses for the app's origin: that comes from `AUTH_URL` / `SESAME_URL`, or, when the
 * host is trusted, from `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto`.
 *
 * @module
 */
import { Auth } from "@sesame/core"
import type { NextRequest } from "next/server.js"
import { load } from "./config.js"
import type { PrimaryAuthConfigInput, SesameResult } from "./types.js"

export function createHandlers(input: PrimaryAuthConfigInput): SesameResult["handlers"] {
  // A lazy configuration goes to the core as one, so that a function that throws gets the core's
  // configuration error response.
  const handle = (request: NextRequest) => Auth(request, async () => (await load(input, request)).handlers)
  return { GET: handle, POST: handle }
}
