/**
 * Migration from Auth.js as a built-in feature: `migrateFrom: "authjs"` carries a request's Auth.js
 * session over before anything reads the session (`session.ts`). Its email links are tried by the
 * email callback (`email-link.ts`).
 *
 * @module
 */
import type { Feature } from "../../modules/feature.js"
import { carryOverAuthjsSession } from "./session.js"

declare module "../../modules/feature.js" {
  interface FeatureSettingsMap {
    /** Auth.js's sessions and email links are carried over (`migrateFrom`). */
    migrateFrom: "authjs"
  }
}

export const migrateFromAuthjsFeature: Feature<"migrateFrom"> = {
  id: "migrate-from-authjs",
  settings: {
    key: "migrateFrom",
    resolve({ config, warn }) {
      const value: unknown = config.migrateFrom
      if (value === undefined) return undefined
      if (value !== "authjs") throw new TypeError(`\`migrateFrom\` must be "authjs" (or left out); got ${JSON.stringify(value)}.`)
      warn("migrate-from-authjs")
      return value
    },
  },
  beforeRequest: carryOverAuthjsSession,
}
