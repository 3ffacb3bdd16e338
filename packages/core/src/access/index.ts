/**
 * `@sesame/core/access`: a typed access-control definition. The app lists what can be done to
 * what (the statements: each resource's actions), names roles that grant some of those actions,
 * and asks whether a member's roles grant what a request needs.
 *
 * Pure: no request, no storage, no configuration. Roles read from a database go through
 * `parseGrants`, which holds them to the rules of roles written in code; a role name nobody
 * defined grants nothing.
 *
 * @example
 * ```ts
 * import { accessControl } from "@sesame/core/access"
 *
 * const ac = accessControl({ project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] })
 * const roles = ac.roles({
 *   owner: { project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] },
 *   member: { project: ["read"] },
 * })
 * roles.hasPermission(["member"], { project: ["read"] }) // true
 * roles.hasPermission(["member"], { project: ["read", "delete"] }) // false: every action asked must be granted
 * ```
 *
 * @module
 */
import { describe, grantsObject, includes, isName, isPlainObject, nameRule, quote, readGrants, readStatements, unionOf, type GrantMap, type StatementMap } from "./read.js"

/**
 * What can be done to what: each resource's actions. Names (role names too) are 1 to 64
 * characters, a lowercase letter then letters, digits, `_` or `-` (`project`, `apiKey`,
 * `pay-out`), and not a member of `Object.prototype` (`constructor`, `toString`); every resource
 * lists at least one action, and none lists an action twice.
 *
 * @example
 * ```ts
 * const statements = { project: ["create", "read"], invoice: ["read", "pay"] } as const satisfies Statements
 * ```
 */
export type Statements = { readonly [resource: string]: readonly string[] }

/**
 * Some of the actions of some resources of the statements `S`: what a role grants, or what a
 * check asks for. A resource left out is granted (or asked) nothing.
 *
 * @example
 * ```ts
 * const ac = accessControl({ project: ["create", "read"], invoice: ["read", "pay"] })
 * const accountant: Grants<typeof ac.statements> = { invoice: ["read", "pay"] }
 * ```
 */
export type Grants<S extends Statements> = { readonly [R in keyof S]?: readonly S[R][number][] }

/**
 * The role names a check accepts: when the array's names are known to the compiler (literals, or
 * the type `N` itself), each must be a defined role (`N`); a `string[]`, such as roles read from a
 * database, is accepted, and a name in it that no role has grants nothing.
 *
 * @example
 * ```ts
 * roles.hasPermission(["member"], { project: ["read"] }) // checked: "member" is a role
 * roles.hasPermission(row.roles as string[], { project: ["read"] }) // accepted: unknown names grant nothing
 * ```
 */
export type KnownRoles<T extends readonly string[], N extends string> = string extends T[number] ? unknown : readonly N[]

/**
 * Named roles, each with its grants, and the checks on them. Frozen; `with` makes another set.
 *
 * @example
 * ```ts
 * const roles = ac.roles({ owner: { project: ["create", "read"] }, member: { project: ["read"] } })
 * roles.names // ["owner", "member"]
 * roles.hasPermission(["member", "owner"], { project: ["create"] }) // true: the roles' grants add up
 * ```
 */
export interface Roles<S extends Statements, N extends string> {
  /** The roles' names, in the order they were defined. */
  readonly names: readonly N[]
  /**
   * Whether the roles `roles` together grant every action `wanted` names. Never throws: a role
   * name no role has grants nothing, and anything `parseGrants` would refuse as `wanted` (an
   * unknown resource or action, a value that is not an array), or a `wanted` that names no action
   * at all, is refused.
   *
   * @example
   * ```ts
   * roles.hasPermission(["member"], { project: ["read"] }) // true
   * roles.hasPermission(["member", "owner"], { invoice: ["pay"] }) // true
   * roles.hasPermission(["member"], { project: ["read", "delete"] }) // false
   * roles.hasPermission(["retired-role"] as string[], { project: ["read"] }) // false
   * ```
   */
  hasPermission<const T extends readonly string[]>(roles: T & KnownRoles<T, N>, wanted: Grants<S>): boolean
  /**
   * Everything the roles `roles` grant together, frozen, resources and actions in the statements'
   * order. A role name no role has adds nothing.
   *
   * @example
   * ```ts
   * roles.grantsOf(["member", "accountant"]) // { project: ["read"], invoice: ["read", "pay"] }
   * ```
   */
  grantsOf<const T extends readonly string[]>(roles: T & KnownRoles<T, N>): Grants<S>
  /**
   * These roles and the roles `extra`, as a new set: for roles stored as data (an organization's
   * own roles), whose grants come from `parseGrants`. Throws a `TypeError` when `extra` is not
   * valid or names a role this set already has: a stored role never replaces one defined in code.
   *
   * @example
   * ```ts
   * const all = roles.with({ [row.name]: ac.parseGrants(row.grants) })
   * all.hasPermission(member.roles, { invoice: ["pay"] })
   * ```
   */
  with<const M extends string>(extra: { readonly [K in M]: Grants<S> }): Roles<S, N | M>
}

/**
 * An access-control definition: the statements, and what reads and compares grants against them.
 * Made by `accessControl`; frozen.
 *
 * @example
 * ```ts
 * const ac: AccessControl<{ project: readonly ["create", "read"] }> = accessControl({ project: ["create", "read"] })
 * ```
 */
export interface AccessControl<S extends Statements> {
  /** The statements, as a frozen copy. */
  readonly statements: S
  /**
   * Roles named by the keys of `definitions`, each granting its value. Throws a `TypeError` when a
   * role's name is not valid (as the statements' names) or its grants are not (an unknown resource
   * or action, a value that is not an array, an action twice).
   *
   * @example
   * ```ts
   * const roles = ac.roles({ owner: { project: ["create", "read"] }, member: { project: ["read"] } })
   * ```
   */
  roles<const N extends string>(definitions: { readonly [K in N]: Grants<S> }): Roles<S, N>
  /**
   * `input` (grants stored as JSON, parsed) checked against the statements, as a frozen copy in the
   * statements' order: an object of known resources, each an array of its known actions, none
   * twice. Throws a `TypeError` naming what is wrong otherwise: nothing unknown is dropped silently.
   *
   * @example
   * ```ts
   * ac.parseGrants(JSON.parse('{"invoice":["pay","read"]}')) // { invoice: ["read", "pay"] }
   * ac.parseGrants({ invoice: "pay" }) // TypeError: the actions of "invoice" must be an array, got the string "pay"
   * ```
   */
  parseGrants(input: unknown): Grants<S>
  /**
   * Whether `held` includes every action of `wanted`: whether a member who holds `held` may give
   * `wanted` to someone (assign a role, write a custom role) without giving more than they have.
   * Never throws: when either is not valid grants, false.
   *
   * @example
   * ```ts
   * ac.covers(roles.grantsOf(["admin"]), roles.grantsOf(["owner"])) // false: an admin cannot make an owner
   * ac.covers(roles.grantsOf(author.roles), ac.parseGrants(input)) // the author holds all the new role grants
   * ```
   */
  covers(held: Grants<S>, wanted: Grants<S>): boolean
}

/**
 * An access-control definition over `statements`: each resource's actions. Throws a `TypeError`
 * when they are not valid (see `Statements`). They are copied: changing the object afterwards
 * changes nothing.
 *
 * @example
 * ```ts
 * const ac = accessControl({ project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] })
 * const roles = ac.roles({ owner: { project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] }, member: { project: ["read"] } })
 * roles.hasPermission(["member"], { project: ["read"] }) // true
 * ```
 */
export function accessControl<const S extends Statements>(statements: S): AccessControl<S> {
  const known = readStatements(statements)
  const frozen = Object.freeze(Object.fromEntries(known)) as unknown as S

  /** Grants read, or a `TypeError` that says where they come from and what is wrong. */
  const parse = (where: string, input: unknown): GrantMap => {
    const reading = readGrants(known, input)
    if (!reading.ok) throw new TypeError(`${where}: ${reading.problem}.`)
    return reading.grants
  }

  return Object.freeze({
    statements: frozen,
    roles: <const N extends string>(definitions: { readonly [K in N]: Grants<S> }): Roles<S, N> => makeRoles<S, N>(known, parse, new Map(), definitions, "roles"),
    parseGrants: (input: unknown): Grants<S> => grantsObject(known, parse("parseGrants", input)) as Grants<S>,
    covers: (held: Grants<S>, wanted: Grants<S>): boolean => {
      const mine = readGrants(known, held)
      const asked = readGrants(known, wanted)
      return mine.ok && asked.ok && includes(mine.grants, asked.grants)
    },
  })
}

/**
 * A frozen set of roles: those of `base` (already read) and `definitions` (read here). Role names
 * and their grants live in `Map`s, so that a name from outside finds only a defined role.
 */
function makeRoles<S extends Statements, N extends string>(
  known: StatementMap,
  parse: (where: string, input: unknown) => GrantMap,
  base: ReadonlyMap<string, GrantMap>,
  definitions: unknown,
  where: string,
): Roles<S, N> {
  if (!isPlainObject(definitions)) throw new TypeError(`${where}: the roles must be an object of role names to grants, got ${describe(definitions)}.`)
  const roles = new Map(base)
  for (const name of Object.keys(definitions)) {
    if (!isName(name)) throw new TypeError(`${where}: the role name ${quote(name)} is not valid: ${nameRule}.`)
    if (roles.has(name)) throw new TypeError(`${where}: the role ${quote(name)} is already defined; a role is never replaced.`)
    roles.set(name, parse(`${where}: role ${quote(name)}`, definitions[name]))
  }

  /** The grants of the roles named in `names`; nothing for a name no role has, or for a `names` that is not an array. */
  const held = (names: unknown): GrantMap => {
    if (!Array.isArray(names)) return new Map()
    const found: GrantMap[] = []
    for (const name of names) {
      const grants = typeof name === "string" ? roles.get(name) : undefined
      if (grants) found.push(grants)
    }
    return unionOf(found)
  }

  return Object.freeze({
    names: Object.freeze([...roles.keys()]) as readonly N[],
    hasPermission: (names: readonly string[], wanted: Grants<S>): boolean => {
      try {
        const asked = readGrants(known, wanted)
        // Asking for nothing is refused: such a check comes from a bug (a request built from a
        // missing value), and granting it would let everyone through.
        if (!asked.ok || asked.grants.size === 0) return false
        return includes(held(names), asked.grants)
      } catch {
        return false
      }
    },
    grantsOf: (names: readonly string[]): Grants<S> => grantsObject(known, held(names)) as Grants<S>,
    with: <const M extends string>(extra: { readonly [K in M]: Grants<S> }): Roles<S, N | M> => makeRoles<S, N | M>(known, parse, roles, extra, "with"),
  })
}
