/**
 * The relying party of a request: by default the app's origin (from `AUTH_URL`, or the request
 * and, when trusted, its forwarded headers), so one configuration serves every deployment.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { PasskeyProvider } from "./provider.js"

export interface ResolvedRelyingParty {
  id: string
  name: string
  /** The origins a response may come from. */
  origins: string[]
}

export function relyingParty(ctx: RequestContext, provider: Pick<PasskeyProvider, "config">): ResolvedRelyingParty {
  const url = new URL(ctx.origin)
  const overrides = provider.config.relayingParty ?? {}
  const origin = overrides.origin ?? ctx.origin
  return {
    id: overrides.id ?? url.hostname,
    name: overrides.name ?? url.host,
    origins: Array.isArray(origin) ? [...origin] : [origin],
  }
}
