/**
 * The account page's server function, for apps that build their own page: `requestEmailChange`
 * (the rules are `email-change.ts`'s). Not imported by the feature: it resolves configurations,
 * and the registration list names the feature (see `server-functions.ts`).
 *
 * @module
 */
import { currentAdapterUser } from "../account/passkeys.js"
import { MissingAdapter } from "../errors.js"
import { serverContext } from "../http/server-context.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { requestEmailChangeFor, type EmailChangeRequest } from "./email-change.js"

/**
 * Emails a link to `email` that moves the request's signed-in user to that address once followed
 * (see the module's list for the rules). Needs an adapter, a recent sign-in, and an `email` or
 * `password` provider, whose sender sends it. `{ requested: true }` also when the address belongs
 * to another account, so that nobody learns whose addresses are taken: then nothing is sent.
 *
 * @example
 * ```ts
 * const result = await requestEmailChange(request, config, { email: form.get("email") })
 * if (!result.requested && result.reason === "SignInTooOld") redirect("/auth/reauthenticate?callbackUrl=/settings")
 * ```
 */
export async function requestEmailChange(request: Request, config: AuthConfig | LazyAuthConfig, input: { email: string }): Promise<EmailChangeRequest> {
  const ctx = await serverContext(request, config)
  const adapter = ctx.config.adapter
  if (!adapter) throw new MissingAdapter("`requestEmailChange` needs an `adapter`, where users are stored.")
  const user = await currentAdapterUser(ctx)
  if (!user) return { requested: false, reason: "NotSignedIn" }
  return requestEmailChangeFor(ctx, adapter, user, input?.email)
}
