/**
 * Sign in with PingOne (Ping Identity, OpenID Connect). Each PingOne environment is its own issuer.
 *
 * @remarks
 * - The issuer is `https://auth.pingone.<region>/<environment id>/as` (`.com`, `.eu`, `.ca`,
 *   `.asia`).
 *
 * @example
 * ```ts
 * import PingId from "@sesame/core/providers/ping-id"
 * // AUTH_PING_ID_ID, AUTH_PING_ID_SECRET,
 * // AUTH_PING_ID_ISSUER=https://auth.pingone.eu/0a7af83d-4ed9-4ef1-9c4e-5d8f1d5e0a6b/as
 * const providers = [PingId()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface PingProfile extends Profile {
  sub: string
  preferred_username?: string
}

/** The PingOne provider; `issuer` from the options or `AUTH_PING_ID_ISSUER`. */
export default function PingId(options?: OIDCUserConfig<PingProfile>): OIDCConfig<PingProfile> {
  return standardOIDC({ id: "ping-id", name: "Ping Identity", mark: ["P", "#b3282d"] }, options)
}
