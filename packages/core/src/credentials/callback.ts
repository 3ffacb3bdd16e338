/**
 * `POST callback/:credentials-provider`: checks CSRF, calls `authorize`, and signs the user in.
 *
 * `authorize` receives the posted fields (without `csrfToken`) and a request rebuilt with those
 * fields as a JSON body, since the original body has been read. Returning null, or throwing
 * `CredentialsSignin`, sends the user back to the sign-in page with `error=CredentialsSignin` and
 * the error's `code`; any other throw is a server error, logged in full and shown as
 * `Configuration`, so that no detail of it reaches a URL.
 *
 * @module
 */
import { checkSignIn } from "../account/authorize.js"
import { completeSignIn } from "../account/complete.js"
import { decideForCredentials } from "../account/sign-in.js"
import { CallbackRouteError, CredentialsSignin, MissingCSRF } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { Account, User } from "../types.js"
import type { CredentialsConfig } from "./types.js"

function rebuiltRequest(ctx: RequestContext, fields: Record<string, unknown>): Request {
  const headers = new Headers(ctx.request.headers)
  headers.set("content-type", "application/json")
  headers.delete("content-length")
  return new Request(ctx.request.url, { method: "POST", headers, body: JSON.stringify(fields) })
}

export async function credentialsCallback(ctx: RequestContext, provider: CredentialsConfig): Promise<InternalResponse> {
  const csrf = await ctx.csrf()
  if (!ctx.config.skipCSRFCheck && !csrf.verified) throw new MissingCSRF("The CSRF token is missing or does not match.")
  const { csrfToken: _csrfToken, ...fields } = ctx.body
  let returned: User | null
  try {
    returned = await provider.authorize(fields, rebuiltRequest(ctx, fields))
  } catch (error) {
    if (error instanceof CredentialsSignin) throw error
    throw new CallbackRouteError(`The authorize function of provider "${provider.id}" threw.`, { cause: error })
  }
  if (!returned) throw new CredentialsSignin("authorize returned no user.")
  if (typeof returned !== "object") {
    throw new CallbackRouteError(`The authorize function of provider "${provider.id}" must return a user object or null.`)
  }
  const user: User = { ...returned, id: returned.id != null ? String(returned.id) : crypto.randomUUID() }
  const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id! }
  const redirect = await checkSignIn(ctx, { user, account, credentials: fields })
  if (redirect) return { redirect, cookies: ctx.setCookies }
  const decision = await decideForCredentials(ctx, provider, user)
  return completeSignIn(ctx, {
    user: decision.user,
    account: { ...account, providerAccountId: String(decision.user.id) },
    isNewUser: decision.isNewUser,
  })
}
