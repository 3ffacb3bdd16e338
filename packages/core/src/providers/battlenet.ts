/**
 * Sign in with Battle.net (OpenID Connect).
 *
 * @remarks
 * - The issuer is `https://oauth.battle.net`; accounts in China use `https://oauth.battlenet.com.cn`
 *   (pass it as `issuer`).
 * - There is no email and no picture: the name is the BattleTag (`battle_tag`), and the account id
 *   is the numeric account id in `sub`.
 * - The only scope is `openid`, plus game scopes such as `wow.profile`.
 *
 * @example
 * ```ts
 * import BattleNet from "@sesame/core/providers/battlenet"
 * // AUTH_BATTLENET_ID and AUTH_BATTLENET_SECRET
 * const providers = [BattleNet()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface BattleNetProfile extends Profile {
  sub: string
  battle_tag: string
}

/** The Battle.net provider. */
export default function BattleNet(options?: OIDCUserConfig<BattleNetProfile>): OIDCConfig<BattleNetProfile> {
  return standardOIDC<BattleNetProfile>(
    { id: "battlenet", name: "Battle.net", issuer: "https://oauth.battle.net", scope: "openid", mark: ["B", "#148eff"] },
    options,
    { checks: ["pkce", "state"], profile: (p) => ({ id: p.sub, name: p.battle_tag, email: null, image: null }) },
  )
}
