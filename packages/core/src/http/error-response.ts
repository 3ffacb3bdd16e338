/**
 * The one place that turns a failure into a response.
 *
 * - A `BadRequest` (the client sent something malformed, or a state-changing request from another
 *   site: `CrossSiteRequest`) answers its 4xx with a short JSON body, `{ error: <name>, message }`,
 *   and is logged at debug level only: it is the client's doing, not the server's.
 * - A failed `POST session` answers `400 null`.
 * - Any other error is logged in full, then the browser is redirected: errors of kind `signIn` to
 *   the sign-in page, the rest to the error page, with `error=<type>` when the type is client-safe
 *   and `error=Configuration` otherwise, plus `code` for `CredentialsSignin`.
 *
 * @module
 */
import { AuthError, CallbackRouteError, CredentialsSignin, isClientError } from "../errors.js"
import { errorPageLoops } from "../actions/error.js"
import { signInPageUrl } from "../actions/pages.js"
import type { RequestContext } from "./context.js"
import { BadRequest } from "./request.js"
import { json, noStore, type InternalResponse } from "./response.js"

/** Codes a credentials provider may put in the URL: short, and nothing to escape. */
const safeCode = /^[A-Za-z0-9_-]{1,64}$/

export function asAuthError(error: unknown): AuthError {
  return error instanceof AuthError ? error : new CallbackRouteError("An unexpected error occurred.", { cause: error })
}

export function badRequestResponse(error: BadRequest): InternalResponse {
  return json({ error: error.name, message: error.message }, error.status, noStore)
}

export async function errorResponse(ctx: RequestContext, error: unknown): Promise<InternalResponse> {
  const { config } = ctx
  if (error instanceof BadRequest) {
    config.logger.debug(`bad request: ${error.message}`)
    return { ...badRequestResponse(error), cookies: ctx.setCookies }
  }
  const authError = asAuthError(error)
  config.logger.error(authError)
  if (ctx.action === "session" && ctx.method === "POST") return { status: 400, body: null, headers: { ...noStore } }
  const type = isClientError(authError) ? authError.type : "Configuration"
  let url: URL
  if (authError.kind === "signIn") {
    url = new URL(signInPageUrl(ctx))
    const callbackUrl = await ctx.callbackUrl()
    if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  } else {
    url = config.pages.error && !errorPageLoops(ctx) ? new URL(config.pages.error, ctx.origin) : new URL(`${ctx.authUrl}/error`)
  }
  url.searchParams.set("error", type)
  if (authError instanceof CredentialsSignin) url.searchParams.set("code", safeCode.test(authError.code) ? authError.code : "credentials")
  return { redirect: url.href, cookies: ctx.setCookies }
}
