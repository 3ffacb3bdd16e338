/**
 * The session's state, shared by the plugin, `useSession()` and the route middleware: one
 * `useState("sesame:session")` per request on the server and per app in the browser, so that what
 * the server rendered is hydrated in the browser without a request.
 *
 * Its value is `undefined` while nothing is known (the server could not tell: its storage was down;
 * the browser then asks), then the session or `null`.
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { useRuntimeConfig, useState } from "nuxt/app"
import type { Ref } from "vue"

/** The key of the state in the payload. */
export const stateKey = "sesame:session"

/** The session's state: `undefined` until known, then the session or `null`. */
export function sessionState(): Ref<Session | null | undefined> {
  return useState<Session | null | undefined>(stateKey, () => undefined)
}

/** Where Sesame's endpoints live, as the module put it in the public runtime config. */
export function basePathOf(): string {
  const sesame = (useRuntimeConfig().public as { sesame?: { basePath?: unknown } }).sesame
  return typeof sesame?.basePath === "string" ? sesame.basePath : "/auth"
}
