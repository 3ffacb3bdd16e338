/**
 * `GET|POST callback/:provider`: where a provider hands the user back (OAuth redirect, email link,
 * credentials form, passkey response).
 *
 * @module
 */
import { credentialsCallback } from "../credentials/callback.js"
import { emailCallback } from "../email/callback.js"
import type { RequestContext } from "../http/context.js"
import { BadRequest } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import { finishAuthorization } from "../oauth/callback.js"
import { oauthProvider } from "../oauth/provider.js"
import { webAuthnCallback } from "../webauthn/callback.js"
import { refuseUnavailableProvider } from "./signin.js"
import type { ResolvedWebAuthnProvider } from "../webauthn/provider.js"

export async function callback(ctx: RequestContext): Promise<InternalResponse> {
  refuseUnavailableProvider(ctx)
  const provider = ctx.provider
  if (!provider) throw new BadRequest(ctx.providerId === undefined ? "The callback needs a provider." : `There is no provider "${ctx.providerId}".`, 404)
  switch (provider.type) {
    case "credentials":
      if (ctx.method !== "POST") throw new BadRequest("Credentials are posted to this endpoint; GET is not supported.")
      return credentialsCallback(ctx, provider)
    case "oauth":
    case "oidc":
      return finishAuthorization(ctx, oauthProvider(ctx.config, provider.id))
    case "email":
      return emailCallback(ctx, provider)
    case "webauthn":
      if (ctx.method !== "POST") throw new BadRequest("Passkey responses are posted to this endpoint; GET is not supported.")
      return webAuthnCallback(ctx, provider as ResolvedWebAuthnProvider)
  }
}
