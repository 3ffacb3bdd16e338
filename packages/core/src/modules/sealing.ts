/**
 * A module's secrets at rest (`context.sealing`): a value encrypted under the app's secret (a JWE,
 * as session tokens), so that a copy of the database alone does not give anyone an organization's
 * client secret. Each purpose has its own salt, so a value sealed for one never opens as another's,
 * nor as a session token. Sealed with the newest secret and opened with each in turn, so that
 * rotating the app's secret keeps stored values usable; `rotated` says when one should be sealed
 * again with the newest.
 *
 * @module
 */
import { openSealed, seal } from "../jwt/sealed.js"
import type { ModuleSealing } from "./types.js"

const purposePattern = /^[a-z][a-z0-9.-]{0,79}$/

function saltOf(purpose: string): string {
  if (typeof purpose !== "string" || !purposePattern.test(purpose)) {
    throw new TypeError("A sealing purpose is lowercase letters, digits, dots and hyphens, starting with the module's id (`sso.client-secret`).")
  }
  return `sesame.module.${purpose}`
}

export function moduleSealing(secrets: readonly string[]): ModuleSealing {
  return Object.freeze({
    seal(purpose: string, value: string): Promise<string> {
      if (typeof value !== "string") throw new TypeError("Only a string can be sealed.")
      return seal(secrets, saltOf(purpose), { value })
    },
    async open(purpose: string, sealed: string): Promise<{ value: string; rotated: boolean } | null> {
      const salt = saltOf(purpose)
      if (typeof sealed !== "string" || sealed.length === 0) return null
      return openSealed(secrets, salt, sealed, (contents) => (typeof contents.value === "string" ? contents.value : null))
    },
  })
}
