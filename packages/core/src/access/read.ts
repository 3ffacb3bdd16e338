/**
 * Reading statements and grants from values the compiler never saw (JavaScript callers, JSON from
 * a database): every check of the access-control definition is here, so that a role written in
 * code and a role read from storage are held to the same rules.
 *
 * Everything read is copied into `Map`s and `Set`s: a lookup by a name from outside
 * (`"__proto__"`, `"constructor"`, `"toString"`) can only find what was put there, never a key of
 * `Object.prototype`.
 *
 * @module
 */

/** The resources of a definition, each with its actions, in the order they were declared. */
export type StatementMap = ReadonlyMap<string, readonly string[]>

/** Grants as read: each resource's actions. A resource with no action is left out. */
export type GrantMap = ReadonlyMap<string, ReadonlySet<string>>

/**
 * A resource, action or role name. A lowercase letter first rules out `__proto__` and the like;
 * camelCase is allowed for apps whose names already are (`apiKey`).
 */
const namePattern = /^[a-z][a-zA-Z0-9_-]{0,63}$/

/**
 * The members of `Object.prototype` that `namePattern` lets through. The lookups here would handle
 * them (they use `Map`s), but TypeScript gives every object a `constructor` and a `toString`, so a
 * resource of that name breaks the types of every grant that leaves it out; and a name no
 * definition can hold is one less way to confuse a check written elsewhere with `obj[name]`.
 */
const reserved: ReadonlySet<string> = new Set(["constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf"])

/** The rule `isName` enforces, in words, for error messages and the documentation. */
export const nameRule = 'from 1 to 64 characters: a lowercase letter, then letters, digits, "_" or "-"; not a member of Object.prototype ("constructor", "toString", …)'

/** Whether `value` is a valid resource, action or role name. */
export function isName(value: unknown): value is string {
  return typeof value === "string" && namePattern.test(value) && !reserved.has(value)
}

/** `value` quoted for a message, cut short: a name from outside may be anything, of any length. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}

/** What `value` is, for a message: `a number`, `null`, `an array`, `a Map`. */
export function describe(value: unknown): string {
  if (value === null) return "null"
  if (value === undefined) return "undefined"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "string") return `the string ${quote(value)}`
  if (typeof value !== "object") return `a ${typeof value}`
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === "Object" ? "an object" : `a ${tag}`
}

/** Whether `value` is an object literal or `JSON.parse`'s: not an array, a `Map`, a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** A list for a message: `create, read, update`. */
function list(names: Iterable<string>): string {
  return [...names].join(", ")
}

/** The statements of `accessControl()`, checked and copied; throws a `TypeError` naming what is wrong. */
export function readStatements(input: unknown): StatementMap {
  const where = "accessControl"
  if (!isPlainObject(input)) throw new TypeError(`${where}: the statements must be an object of resource names to arrays of actions, got ${describe(input)}.`)
  const statements = new Map<string, readonly string[]>()
  for (const resource of Object.keys(input)) {
    if (!isName(resource)) throw new TypeError(`${where}: the resource name ${quote(resource)} is not valid: ${nameRule}.`)
    const actions: unknown = input[resource]
    if (!Array.isArray(actions)) throw new TypeError(`${where}: the actions of ${quote(resource)} must be an array, got ${describe(actions)}.`)
    if (actions.length === 0) throw new TypeError(`${where}: ${quote(resource)} lists no action: a resource nobody can act on is a mistake.`)
    const seen = new Set<string>()
    for (let i = 0; i < actions.length; i++) {
      const action: unknown = actions[i]
      if (!isName(action)) {
        const what = typeof action === "string" ? `the action name ${quote(action)}` : describe(action)
        throw new TypeError(`${where}: ${what} (index ${i} of ${quote(resource)}) is not valid: ${nameRule}.`)
      }
      if (seen.has(action)) throw new TypeError(`${where}: ${quote(resource)} lists the action ${quote(action)} twice.`)
      seen.add(action)
    }
    statements.set(resource, Object.freeze([...seen]))
  }
  return statements
}

/** Grants, or what is wrong with them. */
export type GrantsReading = { readonly ok: true; readonly grants: GrantMap } | { readonly ok: false; readonly problem: string }

/**
 * Grants read against the statements: an object of known resources, each an array of its known
 * actions, none twice. Never throws (a getter that throws is a problem like any other), so that the
 * checks can fail closed on anything `parseGrants` would refuse.
 */
export function readGrants(statements: StatementMap, input: unknown): GrantsReading {
  try {
    if (!isPlainObject(input)) return { ok: false, problem: `grants must be an object of resource names to arrays of actions, got ${describe(input)}` }
    const grants = new Map<string, ReadonlySet<string>>()
    for (const resource of Object.keys(input)) {
      const known = statements.get(resource)
      if (!known) return { ok: false, problem: `${quote(resource)} is not a resource of the statements (${list(statements.keys())})` }
      const actions: unknown = input[resource]
      if (!Array.isArray(actions)) return { ok: false, problem: `the actions of ${quote(resource)} must be an array, got ${describe(actions)}` }
      const held = new Set<string>()
      for (let i = 0; i < actions.length; i++) {
        const action: unknown = actions[i]
        if (typeof action !== "string" || !known.includes(action)) {
          const what = typeof action === "string" ? quote(action) : describe(action)
          return { ok: false, problem: `${what} (index ${i} of ${quote(resource)}) is not an action of ${quote(resource)} (${list(known)})` }
        }
        if (held.has(action)) return { ok: false, problem: `${quote(resource)} lists the action ${quote(action)} twice` }
        held.add(action)
      }
      if (held.size > 0) grants.set(resource, held)
    }
    return { ok: true, grants }
  } catch (error) {
    return { ok: false, problem: `the grants could not be read: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/** The union of `grants`. */
export function unionOf(grants: Iterable<GrantMap>): GrantMap {
  const union = new Map<string, Set<string>>()
  for (const one of grants) {
    for (const [resource, actions] of one) {
      let held = union.get(resource)
      if (!held) union.set(resource, (held = new Set()))
      for (const action of actions) held.add(action)
    }
  }
  return union
}

/** Whether `held` includes every action of `wanted`. */
export function includes(held: GrantMap, wanted: GrantMap): boolean {
  for (const [resource, actions] of wanted) {
    const mine = held.get(resource)
    for (const action of actions) if (!mine?.has(action)) return false
  }
  return true
}

/**
 * `grants` as a frozen object, resources and actions in the statements' order: the same grants
 * always look the same (to compare, to store as JSON).
 */
export function grantsObject(statements: StatementMap, grants: GrantMap): Readonly<Record<string, readonly string[]>> {
  const object: Record<string, readonly string[]> = {}
  for (const [resource, actions] of statements) {
    const held = grants.get(resource)
    if (held && held.size > 0) object[resource] = Object.freeze(actions.filter((action) => held.has(action)))
  }
  return Object.freeze(object)
}
