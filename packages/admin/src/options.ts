/**
 * The module's options, checked when `admin()` is called: a mistake fails where the configuration
 * is written, not at the first request.
 *
 * @module
 */
import type { AdapterUser } from "@sesame/core/adapters"

type Awaitable<T> = T | PromiseLike<T>

/**
 * Who is an admin:
 * - `{ field, values }`: users whose user field (`user.fields` of the configuration, such as
 *   `role`) is one of `values` (or, for a list field, holds one of them);
 * - `{ userIds }`: these users' ids;
 * - a function of the stored user.
 */
export type AdminRule =
  | { field: string; values: readonly string[] }
  | { userIds: readonly string[] }
  | ((user: AdapterUser) => Awaitable<boolean>)

export interface AdminOptions {
  /** Who is an admin. Required: there is no default admin. */
  admins: AdminRule
  /**
   * Whether an admin may suspend, end the sessions of, or delete another admin. Default false: an
   * admin's account is only changed by its owner or by the app's own code.
   */
  actOnAdmins?: boolean
  /** Impersonation: how long one lasts, and whether admins may be impersonated. */
  impersonation?: {
    /** Seconds, from 60 to a day. Default 3600 (an hour). */
    maxAge?: number
    /** Whether an admin may impersonate another admin. Default false. */
    admins?: boolean
  }
}

export interface ResolvedAdminOptions {
  isAdmin(user: AdapterUser): Promise<boolean>
  actOnAdmins: boolean
  impersonation: { maxAge: number; admins: boolean }
}

function ruleOf(rule: AdminRule): (user: AdapterUser) => Promise<boolean> {
  if (typeof rule === "function") return async (user) => (await rule(user)) === true
  if (typeof rule !== "object" || rule === null) throw new TypeError("admin: `admins` must be { field, values }, { userIds } or a function of the user.")
  if ("userIds" in rule) {
    if (!Array.isArray(rule.userIds) || !rule.userIds.every((id) => typeof id === "string" && id.length > 0)) {
      throw new TypeError("admin: `admins.userIds` must be a list of user ids.")
    }
    const ids = new Set(rule.userIds)
    return async (user) => ids.has(user.id)
  }
  const { field, values } = rule as { field?: unknown; values?: unknown }
  if (typeof field !== "string" || field.length === 0) throw new TypeError("admin: `admins.field` must name a user field, such as \"role\".")
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string" && v.length > 0)) {
    throw new TypeError("admin: `admins.values` must be a non-empty list of the field's values that make an admin.")
  }
  const admitted = new Set(values as string[])
  return async (user) => {
    const value = (user as unknown as Record<string, unknown>)[field]
    if (typeof value === "string") return admitted.has(value)
    return Array.isArray(value) && value.some((v) => typeof v === "string" && admitted.has(v))
  }
}

export function resolveOptions(options: AdminOptions): ResolvedAdminOptions {
  if (typeof options !== "object" || options === null || options.admins === undefined) {
    throw new TypeError("admin: `admins` is required: say who is an admin ({ field, values }, { userIds } or a function).")
  }
  if (options.actOnAdmins !== undefined && typeof options.actOnAdmins !== "boolean") throw new TypeError("admin: `actOnAdmins` must be a boolean.")
  const { maxAge = 3600, admins = false } = options.impersonation ?? {}
  if (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 60 || maxAge > 86_400) throw new TypeError("admin: `impersonation.maxAge` must be a whole number of seconds from 60 to 86400.")
  if (typeof admins !== "boolean") throw new TypeError("admin: `impersonation.admins` must be a boolean.")
  return { isAdmin: ruleOf(options.admins), actOnAdmins: options.actOnAdmins ?? false, impersonation: { maxAge, admins } }
}
