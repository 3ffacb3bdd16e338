/**
 * `GET|POST callback/:provider`: where a provider hands the user back (OAuth redirect, email link,
 * credentials form, passkey response). The dispatcher has checked the provider and, where its
 * kind needs one, the CSRF token.
 *
 * @module
 */
import { reportingFailure } from "../account/failure.js"
import type { ResolvedProvider } from "../config/providers.js"
import { credentialsCallback } from "../credentials/callback.js"
import { emailCallback } from "../email/callback.js"
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { finishAuthorization } from "../oauth/callback.js"
import { passwordCallback } from "../password/sign-in.js"
import { webAuthnCallback } from "../webauthn/callback.js"

/** Every failure of the flow is one failed sign-in attempt (`account/failure.ts`). */
export function callback(ctx: RequestContext, provider: ResolvedProvider): Promise<InternalResponse> {
  return reportingFailure(ctx, provider.id, () => finish(ctx, provider))
}

async function finish(ctx: RequestContext, provider: ResolvedProvider): Promise<InternalResponse> {
  switch (provider.type) {
    case "credentials":
      if (ctx.method !== "POST") throw new BadRequest("Credentials are posted to this endpoint; GET is not supported.")
      return credentialsCallback(ctx, provider)
    case "oauth":
    case "oidc":
      return finishAuthorization(ctx, provider)
    case "email":
      return emailCallback(ctx, provider)
    case "webauthn":
      if (ctx.method !== "POST") throw new BadRequest("Passkey responses are posted to this endpoint; GET is not supported.")
      return webAuthnCallback(ctx, provider)
    case "password":
      if (ctx.method !== "POST") throw new BadRequest("Passwords are posted to this endpoint; GET is not supported.")
      return passwordCallback(ctx, provider)
  }
}
