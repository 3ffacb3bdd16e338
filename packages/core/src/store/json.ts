/**
 * What counts as a JSON value where Sesame keeps one (a `json` user field, a module's part of a
 * session): what `JSON.stringify` writes and `JSON.parse` gives back unchanged.
 *
 * @module
 */

/** How deep a JSON value may nest: a bound on the recursion of the check and of whoever reads it. */
const maxJsonDepth = 32

/**
 * Whether `value` is null, a string, a boolean, a finite number, or an array or plain object of
 * such, nested at most 32 deep: no `Date`, `Map`, class instance, `undefined` or `NaN`, which JSON
 * would change or drop.
 */
export function isJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true
  if (typeof value === "number") return Number.isFinite(value)
  if (depth >= maxJsonDepth) return false
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1))
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every((item) => isJson(item, depth + 1))
  return false
}
