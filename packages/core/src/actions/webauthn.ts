/**
 * `GET webauthn-options/:provider` (the options of a passkey ceremony) and `GET webauthn-script`
 * (the passkey script of the sign-in page). The work is in `webauthn/`.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { webAuthnOptions } from "../webauthn/options.js"
import type { PasskeyProvider } from "../webauthn/provider.js"
import { servePasskeyScript } from "../webauthn/script.js"

/** The dispatcher passes only `webauthn` providers here. */
export function webauthnOptions(ctx: RequestContext, provider: PasskeyProvider): Promise<InternalResponse> {
  return webAuthnOptions(ctx, provider)
}

export function webauthnScript(ctx: RequestContext): InternalResponse {
  return servePasskeyScript(ctx)
}
