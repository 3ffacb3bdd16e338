/**
 * Setting user fields after sign-up: `updateUserFields`, the signed-in user setting their own
 * fields declared `input: true` (a locale, a display preference); `setUserFields`, the app setting
 * any declared field of any user (a role), from its own trusted code. A field the caller may not
 * set, one that is not declared, or a value of the wrong type refuses the whole update: nothing is
 * written.
 *
 * @module
 */
import { signedInUser } from "../account/management.js"
import { resolveConfig } from "../config/resolve.js"
import { MissingAdapter } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { userFieldUpdate, UserFieldValueError } from "./fields.js"

/** Why `updateUserFields` or `setUserFields` wrote nothing. */
export type UserFieldsRefusal = "NotSignedIn" | "NotFound" | "InvalidField"

export type UserFieldsUpdate =
  | { updated: true; fields: Record<string, unknown> }
  | { updated: false; reason: "NotSignedIn" | "NotFound" }
  | { updated: false; reason: "InvalidField"; field: string }

/** The checked update, or the refusal naming the field. */
function checked(update: () => Record<string, unknown>): Record<string, unknown> | { updated: false; reason: "InvalidField"; field: string } {
  try {
    return update()
  } catch (error) {
    if (error instanceof UserFieldValueError) return { updated: false, reason: "InvalidField", field: error.field }
    throw error
  }
}

const isRefusal = (value: object): value is { updated: false; reason: "InvalidField"; field: string } => (value as { updated?: unknown }).updated === false

/**
 * Sets the request's user's fields that users may set (`input: true` in `user.fields`), with the
 * adapter's `updateUser`. Needs an adapter. With JWT sessions the session keeps the values it was
 * issued with until the next sign-in (or a session `update` whose `jwt` callback copies them).
 *
 * @example
 * ```ts
 * const result = await updateUserFields(request, config, { locale: "fr" })
 * if (!result.updated && result.reason === "InvalidField") return new Response(`Cannot set ${result.field}`, { status: 400 })
 * ```
 */
export async function updateUserFields(request: Request, config: AuthConfig | LazyAuthConfig, values: Readonly<Record<string, unknown>>): Promise<UserFieldsUpdate> {
  const me = await signedInUser(request, config, "`updateUserFields` needs an `adapter`, where users are stored.")
  if (!me) return { updated: false, reason: "NotSignedIn" }
  const fields = checked(() => userFieldUpdate(me.config.userFields, values, "user"))
  if (isRefusal(fields)) return fields
  if (Object.keys(fields).length === 0) return { updated: true, fields }
  const user = await me.adapter.updateUser({ ...fields, id: me.user.id })
  await emit(me.config, "updateUser", { user })
  // An admin acting as the user is who did it.
  const actor = await me.actor()
  await emitSecurity(me.config, request.headers, { type: "user.updated", userId: me.user.id, ...(actor ? { actorId: actor } : {}), details: { fields: Object.keys(fields) } })
  return { updated: true, fields }
}

/**
 * Sets any of user `userId`'s declared fields (`user.fields`), from the app's own code: an admin
 * tool granting a role, a billing webhook changing a plan. Never pass it what a request asked for
 * without deciding it may be set; for that, `updateUserFields` checks the fields users may set.
 * Needs an adapter; `NotFound` for an unknown user.
 *
 * @example
 * ```ts
 * await setUserFields(config, userId, { role: "admin" })
 * ```
 */
export async function setUserFields(config: AuthConfig, userId: string, values: Readonly<Record<string, unknown>>): Promise<UserFieldsUpdate> {
  const resolution = resolveConfig(config)
  if (!resolution.ok) throw resolution.error
  const { adapter } = resolution.config
  if (!adapter) throw new MissingAdapter("`setUserFields` needs an `adapter`, where users are stored.")
  const fields = checked(() => userFieldUpdate(resolution.config.userFields, values, "app"))
  if (isRefusal(fields)) return fields
  if (!(await adapter.getUser(userId))) return { updated: false, reason: "NotFound" }
  if (Object.keys(fields).length === 0) return { updated: true, fields }
  const user = await adapter.updateUser({ ...fields, id: userId })
  await emit(resolution.config, "updateUser", { user })
  // The app's own code, outside any request: no actor, IP or user agent to tell.
  await emitSecurity(resolution.config, undefined, { type: "user.updated", userId, actorId: null, details: { fields: Object.keys(fields) } })
  return { updated: true, fields }
}
