/**
 * Rate limits as a built-in feature: how many requests each client makes to the endpoints, per
 * family of routes (`modules/route.ts`: each row says its family), on by default in production.
 *
 * @module
 */
import type { Feature } from "../modules/feature.js"
import { rateLimiter } from "./limiter.js"
import { rateLimitMessages } from "./messages.js"
import { resolveRateLimit, type ResolvedRateLimit } from "./settings.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    rateLimit: ResolvedRateLimit
  }
}

export const rateLimitFeature: Feature<"rateLimit"> = {
  id: "rate-limit",
  messages: rateLimitMessages,
  settings: { key: "rateLimit", resolve: resolveRateLimit },
  limiter: rateLimiter,
}
