/**
 * The route middleware `sesame-auth`: `definePageMeta({ middleware: "sesame-auth" })` on a page
 * sends a visitor without a session to Sesame's sign-in page (`<basePath>/signin`, a server route:
 * an external navigation), with the way back (`callbackUrl`). It runs on the server's render of
 * the page and on client-side navigation (`<NuxtLink>`, `navigateTo`), which the server never sees:
 * a server middleware (`authorize`) cannot guard that, this does.
 *
 * It reads the session the plugin has (what the server rendered, or what the browser read since);
 * while nothing is known yet (the server's storage was down), the browser asks first.
 *
 * @module
 */
import { defineNuxtRouteMiddleware, navigateTo, useResponseHeader } from "nuxt/app"
import { sessionLoader } from "../composables.js"
import { basePathOf, sessionState } from "../state.js"

export default defineNuxtRouteMiddleware(async (to) => {
  const state = sessionState()
  if (state.value === undefined && typeof window !== "undefined") await sessionLoader()().catch(() => undefined)
  if (state.value?.user) return undefined
  // The server's redirect is this visitor's: no shared cache keeps it (as the server guards' answers).
  if (typeof window === "undefined") useResponseHeader("cache-control").value = "private, no-store"
  const signIn = `${basePathOf()}/signin?${new URLSearchParams({ callbackUrl: to.fullPath })}`
  return navigateTo(signIn, { external: true })
})
