/**
 * `GET webauthn-options/:provider` (the options of a passkey ceremony) and `GET webauthn-script`
 * (the passkey script of the sign-in page). The work is in `webauthn/`.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { BadRequest } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import { webAuthnOptions } from "../webauthn/options.js"
import type { ResolvedWebAuthnProvider } from "../webauthn/provider.js"
import { servePasskeyScript } from "../webauthn/script.js"

export function webauthnOptions(ctx: RequestContext): Promise<InternalResponse> {
  const provider = ctx.provider
  if (!provider) throw new BadRequest(ctx.providerId === undefined ? "The options need a provider." : `There is no provider "${ctx.providerId}".`, 404)
  if (provider.type !== "webauthn") throw new BadRequest(`Provider "${provider.id}" is not a WebAuthn provider.`)
  // Configuration resolution filled in the provider's defaults (`resolveWebAuthnProvider`).
  return webAuthnOptions(ctx, provider as ResolvedWebAuthnProvider)
}

export function webauthnScript(ctx: RequestContext): InternalResponse {
  return servePasskeyScript(ctx)
}
