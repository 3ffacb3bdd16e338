/**
 * Signed API tokens as a built-in feature: a token for the session (`GET token`, also for a bearer
 * session) and the public keys that verify them (`GET jwks`).
 *
 * @module
 */
import { route } from "../modules/route.js"
import type { Feature } from "../modules/feature.js"
import { apiToken, jwks } from "./endpoints.js"
import { resolveApiTokens, type ResolvedApiTokens } from "./settings.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    apiTokens: ResolvedApiTokens
  }
}

export const apiTokensFeature: Feature<"apiTokens"> = {
  id: "api-tokens",
  settings: {
    key: "apiTokens",
    resolve({ config, adapter, secrets, warn }) {
      if (config.apiTokens === undefined) return undefined
      const settings = resolveApiTokens(config.apiTokens, adapter, secrets)
      if (settings.keySource === "memory") warn("api-token-keys-in-memory")
      return settings
    },
  },
  routes: {
    "GET token": route({ limit: "session", run: apiToken }),
    "GET jwks": route({ limit: "session", run: jwks }),
  },
}
