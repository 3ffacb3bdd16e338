/**
 * The session for the server's render and the browser's hydration. On the server, the session the
 * server middleware (`sessionMiddleware` of `@sesame/nuxt/server`) read for the request
 * (`event.context.session`: no other request), else `GET <basePath>/session` through Nitro with the
 * request's cookies; kept in `useState("sesame:session")`, which the payload carries to the browser.
 * In the browser, the session is asked only when the server could not tell (its storage was down):
 * then again after the answer's `Retry-After` while it answers `503`.
 *
 * @module
 */
import { isStorageUnavailable } from "@sesame/core/client"
import { defineNuxtPlugin } from "nuxt/app"
import { sessionLoader } from "./composables.js"
import { sessionState } from "./state.js"

export default defineNuxtPlugin({
  name: "sesame:session",
  async setup() {
    const state = sessionState()
    const load = sessionLoader()
    if (typeof window === "undefined") {
      await load()
      return
    }
    if (state.value !== undefined) return
    const attempt = (): void => {
      load().catch((error: unknown) => {
        if (isStorageUnavailable(error)) setTimeout(attempt, error.retryAfter * 1000)
      })
    }
    attempt()
  },
})
