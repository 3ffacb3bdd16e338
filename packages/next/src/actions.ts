/**
 * The server actions `signIn`, `signOut` and `unstable_update`, on the core's server-side helpers
 * (`@sesame/core/integration`), which post to the endpoint that does the job with the browser's
 * headers (no CSRF token: Next.js only runs server actions for POSTs from the app's own pages, and
 * the core's same-origin check still reads the browser's `Origin`). The cookies are written through
 * `cookies()` from `next/headers`, then Next's `redirect()` navigates, or the URL is returned when
 * `redirect: false`.
 *
 * Errors are the caller's: a rejected credentials sign-in throws `CredentialsSignin`, any other
 * failure an `AuthError`, so that a form's action can show its own message.
 *
 * @module
 */
import { AuthError } from "@sesame/core/errors"
import type { ResponseCookie, Session } from "@sesame/core"
import { signInFromServer, signOutFromServer, updateSessionFromServer, type ServerRedirect } from "@sesame/core/integration"
import { redirect as nextRedirect } from "next/navigation"
import { load } from "./config.js"
import { writeCookies } from "./cookies.js"
import { browserHeaders } from "./server-session.js"
import type { AuthorizationParams, PrimaryAuthConfigInput, SessionUpdate, SignInOptions, SignOutOptions } from "./types.js"

/** The request the core's server-side helpers read: the browser's headers with the cookies of `cookies()`. */
async function browserRequest() {
  const { headers, store } = await browserHeaders()
  // No URL of the request in a server action: the origin comes from the headers, by the core's rule.
  return { request: { headers, url: "http://localhost" }, store }
}

/** Writes `cookies` through `cookies()`, which only works in server actions and route handlers. */
function write(store: Awaited<ReturnType<typeof browserHeaders>>["store"], cookies: readonly ResponseCookie[]): void {
  if (!writeCookies(store, cookies)) {
    throw new AuthError("signIn, signOut and unstable_update set cookies, so they only work in server actions and route handlers.")
  }
}

async function finish({ url, redirect }: ServerRedirect): Promise<string> {
  if (!redirect) return url
  // Throws Next's redirect signal, which ends the action with a navigation.
  return nextRedirect(url)
}

/** The `signIn` server action. */
export async function signInAction(
  input: PrimaryAuthConfigInput,
  provider?: string,
  options?: FormData | SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const prepared = await load(input, undefined)
  const { request, store } = await browserRequest()
  const result = await signInFromServer(prepared.handlers, request, provider, options, authorizationParams)
  write(store, result.cookies)
  return finish(result)
}

/** The `signOut` server action. */
export async function signOutAction(input: PrimaryAuthConfigInput, options?: SignOutOptions): Promise<string> {
  const prepared = await load(input, undefined)
  const { request, store } = await browserRequest()
  const result = await signOutFromServer(prepared.handlers, request, options)
  write(store, result.cookies)
  return finish(result)
}

/** `unstable_update`: the session update of `POST session`, from the server. */
export async function updateAction(input: PrimaryAuthConfigInput, data: SessionUpdate): Promise<Session | null> {
  const prepared = await load(input, undefined)
  const { request, store } = await browserRequest()
  const { session, cookies } = await updateSessionFromServer(prepared.handlers, request, data)
  write(store, cookies)
  return session
}
