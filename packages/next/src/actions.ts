/**
 * The server actions `signIn`, `signOut` and `unstable_update`: each posts to the endpoint that
 * does the job (without a CSRF token: Next.js only runs server actions for POSTs from the app's own
 * pages), writes the cookies through `cookies()` from `next/headers`, and then redirects with
 * Next's `redirect()`, or returns the URL when `redirect: false`.
 *
 * Errors are the caller's: a rejected credentials sign-in throws `CredentialsSignin`, any other
 * failure an `AuthError`, so that a form's action can show its own message.
 *
 * @module
 */
import { AuthError } from "@sesame/core/errors"
import type { InternalResponse, Provider, Session } from "@sesame/core"
import { redirect as nextRedirect } from "next/navigation"
import { load, type Prepared } from "./config.js"
import { writeCookies } from "./cookies.js"
import { callCore, coreRequest } from "./core-call.js"
import { publicOrigin } from "./origin.js"
import { browserHeaders } from "./server-session.js"
import type { AuthorizationParams, PrimaryAuthConfigInput, SessionUpdate, SignInOptions, SignOutOptions } from "./types.js"

interface ActionOptions {
  redirectTo: string | undefined
  redirect: boolean
  /** Text fields to send with a credentials or email sign-in. */
  fields: Record<string, string>
}

/** Reads the options of `signIn`, from a form (`<form action={…}>`) or an object. */
function readOptions(options: FormData | SignInOptions | SignOutOptions | undefined): ActionOptions {
  const entries: [string, unknown][] = options instanceof FormData ? [...options.entries()] : Object.entries(options ?? {})
  const fields: Record<string, string> = {}
  let redirectTo: string | undefined
  let redirect = true
  for (const [key, value] of entries) {
    if (key === "redirectTo") redirectTo = typeof value === "string" && value ? value : undefined
    else if (key === "redirect") redirect = value !== false && value !== "false"
    // React's own fields of a form action, and anything that is not text (files), stay out.
    else if (typeof value === "string" && !key.startsWith("$ACTION")) fields[key] = value
  }
  return { redirectTo, redirect, fields }
}

function providerById(prepared: Prepared, id: string | undefined): Provider | undefined {
  if (!id) return undefined
  for (const entry of prepared.handlers.providers) {
    const provider = typeof entry === "function" ? entry() : entry
    if (provider.id === id) return provider
  }
  return undefined
}

function targetOf(response: InternalResponse, what: string): string {
  if (response.redirect !== undefined) return response.redirect
  throw new AuthError(`${what} failed: the endpoint answered ${response.status ?? 200} without a redirect.`)
}

async function finish(url: string, redirect: boolean): Promise<string> {
  if (!redirect) return url
  // Throws Next's redirect signal, which ends the action with a navigation.
  return nextRedirect(url)
}

/** Runs a POST through the core with the action's cookies, and writes the cookies it sets. */
async function post(prepared: Prepared, path: string, body: { form?: Record<string, string>; json?: unknown }): Promise<InternalResponse> {
  const { headers, store } = await browserHeaders()
  const response = await callCore(prepared, coreRequest(prepared, headers, path, { method: "POST", ...body }))
  if (!writeCookies(store, response.cookies ?? [])) {
    throw new AuthError("signIn, signOut and unstable_update set cookies, so they only work in server actions and route handlers.")
  }
  return response
}

/** The `signIn` server action. */
export async function signInAction(
  input: PrimaryAuthConfigInput,
  provider?: string,
  options?: FormData | SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const prepared = await load(input, undefined)
  const { headers } = await browserHeaders()
  const { redirectTo, redirect, fields } = readOptions(options)
  const callbackUrl = redirectTo ?? headers.get("referer") ?? "/"
  const found = providerById(prepared, provider)
  if (!found) {
    // No provider (or an unknown one): the sign-in page, which lists them all.
    const page = new URL(`${prepared.basePath}/signin`, publicOrigin(prepared, headers, "http://localhost"))
    page.searchParams.set("callbackUrl", callbackUrl)
    return finish(page.href, redirect)
  }
  let response: InternalResponse
  if (found.type === "oauth" || found.type === "oidc") {
    // The sign-in endpoint forwards its fields to the authorization request: send only the
    // callback URL and the parameters meant for the provider.
    const params = Object.fromEntries(new URLSearchParams(authorizationParams ?? ""))
    response = await post(prepared, `signin/${encodeURIComponent(found.id)}`, { form: { ...params, callbackUrl } })
  } else {
    const path = found.type === "credentials" || found.type === "password" ? "callback" : "signin"
    response = await post(prepared, `${path}/${encodeURIComponent(found.id)}`, { form: { ...fields, callbackUrl } })
  }
  return finish(targetOf(response, `Signing in with "${found.id}"`), redirect)
}

/** The `signOut` server action. */
export async function signOutAction(input: PrimaryAuthConfigInput, options?: SignOutOptions): Promise<string> {
  const prepared = await load(input, undefined)
  const { headers } = await browserHeaders()
  const { redirectTo, redirect } = readOptions(options)
  const callbackUrl = redirectTo ?? headers.get("referer") ?? "/"
  const response = await post(prepared, "signout", { form: { callbackUrl } })
  return finish(targetOf(response, "Signing out"), redirect)
}

/** `unstable_update`: the session update of `POST session`, from the server. */
export async function updateAction(input: PrimaryAuthConfigInput, data: SessionUpdate): Promise<Session | null> {
  const prepared = await load(input, undefined)
  const response = await post(prepared, "session", { json: { data } })
  const body = response.body
  return (response.status ?? 200) === 200 && body && typeof body === "object" ? (body as Session) : null
}
