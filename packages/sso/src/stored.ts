/**
 * What every part of the module checks before it touches the store: the store itself (the module
 * is off without one, so its absence is a bug), and that an id from a request has the form of the
 * module's ids before any lookup is made with it.
 *
 * @module
 */
import type { ModuleRequest, Store } from "@sesame/core"

/** Whether `value` has the form of a stored id (connections, SCIM resources): a UUID or the like. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value)
}

/** The request's store (see the module comment). */
export function storeOf(request: Pick<ModuleRequest, "store">): Store {
  if (!request.store) throw new TypeError("sso: no store (the module is off without one).")
  return request.store
}
