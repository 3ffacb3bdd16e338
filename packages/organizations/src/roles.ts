/**
 * Roles and what they grant. The module's own resources (`organization`, `member`, `invitation`)
 * and the app's (`statements`) make one access-control definition (`@sesame/core/access`); the
 * built-in roles grant the module's actions, and the app adds its grants to them or defines roles
 * of its own (`roles`). `owner` holds every action of every resource, the app's included.
 *
 * Two rules keep anyone from giving more than they hold: a member may give (to an invitation or
 * another member) only roles whose grants their own cover, and only an owner makes an owner. A
 * member's stored role that the configuration no longer defines grants nothing.
 *
 * @module
 */
import { accessControl, type Grants, type Statements } from "@sesame/core/access"

/** The module's own resources and actions. */
export const organizationStatements = {
  organization: ["update", "delete"],
  member: ["update", "remove"],
  invitation: ["create", "cancel"],
} as const satisfies Statements

export type OrganizationStatements = typeof organizationStatements

/** The built-in roles, most powerful first. */
export const builtInRoles = ["owner", "admin", "member"] as const

/** What the built-in roles grant of the module's own resources. */
const builtInGrants = {
  admin: { organization: ["update"], member: ["update", "remove"], invitation: ["create", "cancel"] },
  member: {},
} as const

/** The roles of a configuration (and of one organization, with its stored roles), and the checks on them. */
export interface RoleBook {
  /** Every role name, the built-in first. */
  names: readonly string[]
  /** Whether `roles` (a member's, as stored) together grant every action of `wanted`. */
  can(roles: readonly string[], wanted: Grants<Statements>): boolean
  /** Whether a member holding `held` may give `given`: their grants cover it, and only an owner gives owner. */
  mayGive(held: readonly string[], given: readonly string[]): boolean
  /** Whether a member holding `held` holds every action of `grants` (to write a role that grants them). */
  covers(held: readonly string[], grants: Grants<Statements>): boolean
  /** The role names of `given` that the book does not define. */
  unknown(given: readonly string[]): string[]
  /** Whether `name` is a role of the configuration (not of an organization's own). */
  configured(name: string): boolean
  /** `input` read as grants of the statements, or a `TypeError` saying what is wrong. */
  parse(input: unknown): Grants<Statements>
  /** This book and an organization's own roles (`stored`, read with `parse`); a name the configuration has is skipped. */
  with(stored: Readonly<Record<string, Grants<Statements>>>): RoleBook
}

/**
 * The roles of the app's `statements` and `roles`. Throws a `TypeError` when a resource of the
 * app's takes a name of the module's own, or a role's grants name what the statements do not.
 */
export function roleBook(statements: Statements = {}, roles: Readonly<Record<string, Grants<Statements>>> = {}): RoleBook {
  for (const resource of Object.keys(statements)) {
    if (Object.hasOwn(organizationStatements, resource)) throw new TypeError(`organizations: the resource "${resource}" is the module's own; name the app's resources otherwise.`)
  }
  const all: Statements = { ...organizationStatements, ...statements }
  const ac = accessControl(all)
  const everything = Object.fromEntries(Object.entries(all).map(([resource, actions]) => [resource, [...actions]]))
  const definitions: Record<string, Grants<Statements>> = { owner: everything, admin: builtInGrants.admin, member: builtInGrants.member }
  for (const [name, grants] of Object.entries(roles)) {
    if (name === "owner") throw new TypeError("organizations: `roles.owner` cannot be set: an owner holds every action already.")
    // Checked against the statements before they are merged, so a mistake names the role.
    const parsed = ac.parseGrants(grants)
    definitions[name] = Object.hasOwn(definitions, name) ? union(definitions[name]!, parsed) : parsed
  }
  const configured = ac.roles(definitions)
  const configuredNames = new Set<string>(configured.names)

  function book(roles: typeof configured): RoleBook {
    const names = roles.names as readonly string[]
    return {
      names,
      can: (held, wanted) => roles.hasPermission(held as string[], wanted),
      mayGive: (held, given) => (!given.includes("owner") || held.includes("owner")) && ac.covers(roles.grantsOf(held as string[]), roles.grantsOf(given as string[])),
      covers: (held, grants) => ac.covers(roles.grantsOf(held as string[]), grants),
      unknown: (given) => given.filter((role) => !names.includes(role)),
      configured: (name) => configuredNames.has(name),
      parse: (input) => ac.parseGrants(input),
      with: (stored) => book(roles.with(Object.fromEntries(Object.entries(stored).filter(([name]) => !configuredNames.has(name))))),
    }
  }
  return book(configured)
}

/** Every action of `a` and of `b`. */
function union(a: Grants<Statements>, b: Grants<Statements>): Grants<Statements> {
  const out: Record<string, string[]> = {}
  for (const grants of [a, b]) {
    for (const [resource, actions] of Object.entries(grants)) out[resource] = [...new Set([...(out[resource] ?? []), ...(actions ?? [])])]
  }
  return out
}
