/**
 * `signIn` and `signOut` for form actions and other server code, on the core's server-side
 * helpers (`@sesame/core/integration`), which post to the endpoint that does the job with the
 * browser's headers and cookies.
 *
 * Policy:
 * 1. Used as a form action as it is (`actions = { default: signIn }`), each reads the posted form:
 *    `providerId` names the provider, `redirectTo` where to come back to, the other fields go to
 *    the provider (`email`, `password`…). Called with arguments, it reads them instead.
 * 2. No CSRF token is asked for (the app's form has none), but the core's same-origin check runs
 *    on the browser's `Origin` and `Sec-Fetch-Site`, as SvelteKit's own check does before it: a
 *    form posted from another site is refused with a `403` (SvelteKit's `error()`), so a login
 *    CSRF (the attacker's credentials posted from the attacker's page) fails even in an app that
 *    turned SvelteKit's check off.
 * 3. On success the cookies are set through `event.cookies` and SvelteKit's `redirect(303, url)` is
 *    thrown: to the provider, the verify-request page, or `redirectTo` (else the page the form was
 *    on, else `/`), which the core's `redirect` callback has checked (another site's URL becomes
 *    the app's own). With `redirect: false` (the boolean, from the app's code: a posted field
 *    `redirect=false` is text a visitor chose and changes nothing) it returns `{ url }` instead,
 *    which a form action can hand to its page as it is; `event.locals.auth()` then answers for
 *    the rest of the request as the new cookies say (session.ts, policy 5).
 * 4. A rejected credentials or password sign-in throws `CredentialsSignin` to the caller, as the
 *    spec says for frameworks with server-side form actions: the app's action catches it and
 *    answers with its own message (`fail(400, …)`). Any other failure throws an `AuthError`.
 *
 * @module
 */
import type { AuthorizationParams, ServerSignInOptions } from "@sesame/core/integration"
import { signInFromServer, signOutFromServer } from "@sesame/core/integration"
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { load, type Prepared } from "./config.js"
import { preparedOf, sessionChanged, writeFor } from "./session.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

/**
 * Signs in. As a form action (`actions = { default: signIn }`) it reads `providerId`,
 * `redirectTo` and the provider's fields from the posted form; from your own action, pass them.
 *
 * Without a provider (or with one that is not configured) the browser goes to the sign-in page.
 * Throws SvelteKit's `redirect(303, …)` unless `redirect: false`, when it returns `{ url }`.
 *
 * @throws `CredentialsSignin` (from `@sesame/core/errors`) when credentials are rejected;
 *   SvelteKit's `error(403)` for another site's post; `AuthError` for any other failure.
 */
export type SignIn = (
  event: RequestEvent,
  provider?: string,
  options?: FormData | ServerSignInOptions,
  authorizationParams?: AuthorizationParams,
) => Promise<Redirection>

/** Where a sign-in or sign-out sends the browser, returned when it does not redirect (`redirect: false`). */
export interface Redirection {
  readonly url: string
}

/**
 * Signs out: a database session is deleted, the session cookie cleared. As a form action it reads
 * `redirectTo` from the posted form. Throws SvelteKit's `redirect(303, …)` unless
 * `redirect: false`, when it returns `{ url }`.
 *
 * @throws SvelteKit's `error(403)` for another site's post; `AuthError` for any other failure.
 */
export type SignOut = (event: RequestEvent, options?: FormData | { redirectTo?: string; redirect?: boolean }) => Promise<Redirection>

/** The configuration for `event`: the one `handle` resolved, else `input`'s. */
async function preparedFor(input: SvelteKitAuthConfigInput, event: RequestEvent): Promise<Prepared> {
  return preparedOf(event) ?? load(input, event)
}

/** The posted form of a form action's request (policy 1); throws a `TypeError` when the body was read already. */
async function postedForm(event: RequestEvent, owner: string): Promise<FormData> {
  if (event.request.bodyUsed) {
    throw new TypeError(`${owner}: the request's form was read already; pass the provider and the form's data: ${owner}(event, provider, formData).`)
  }
  try {
    return await event.request.formData()
  } catch {
    error(400, `${owner} expects a form post.`)
  }
}

/** Runs a core helper: a refused request (another site's post, policy 2) becomes SvelteKit's `error()`. */
async function refusedAsHttpError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (caught) {
    // Read by `type`, not `instanceof`: a bundler may hold more than one copy of the core.
    const { type, status, message } = caught as { type?: unknown; status?: unknown; message?: unknown }
    if (type === "BadRequest" && typeof status === "number") error(status, typeof message === "string" ? message : "Bad request")
    throw caught
  }
}

/** The `signIn` of {@link SvelteKitAuth} for `input`. */
export function signInAction(input: SvelteKitAuthConfigInput): SignIn {
  return async (event, provider, options, authorizationParams) => {
    const { config } = await preparedFor(input, event)
    let fields = options
    if (provider === undefined && options === undefined) {
      const form = await postedForm(event, "signIn")
      const id = form.get("providerId")
      provider = typeof id === "string" && id ? id : undefined
      form.delete("providerId")
      fields = form
    }
    const result = await refusedAsHttpError(() => signInFromServer(config, event.request, provider, fields, authorizationParams))
    writeFor(event, result.cookies)
    sessionChanged(event, "signIn")
    if (!result.redirect) return { url: result.url }
    redirect(303, result.url)
  }
}

/** The `signOut` of {@link SvelteKitAuth} for `input`. */
export function signOutAction(input: SvelteKitAuthConfigInput): SignOut {
  return async (event, options) => {
    const { config } = await preparedFor(input, event)
    const isForm = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(event.request.headers.get("content-type") ?? "")
    const read = options ?? (isForm && !event.request.bodyUsed ? await postedForm(event, "signOut") : undefined)
    const result = await refusedAsHttpError(() => signOutFromServer(config, event.request, read))
    writeFor(event, result.cookies)
    sessionChanged(event, "signOut")
    if (!result.redirect) return { url: result.url }
    redirect(303, result.url)
  }
}
