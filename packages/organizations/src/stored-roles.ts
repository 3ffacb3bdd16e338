/**
 * An organization's own roles (`dynamicRoles: true`): named sets of grants its admins write, kept
 * in the store and read with the configuration's roles at every check of that organization. A
 * stored role never replaces one of the configuration (a name the configuration has is skipped),
 * and one whose grants no longer parse (a resource the app dropped) grants nothing.
 *
 * @module
 */
import type { ModelDeclaration, Store } from "@sesame/core"
import type { Deps } from "./context.js"
import type { RoleBook } from "./roles.js"

export const roleModel = {
  name: "organizationRole",
  table: "sesame_organization_roles",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" } },
    name: { type: "string" },
    grants: { type: "json" },
    createdAt: { type: "date" },
  },
  indexes: [{ fields: ["organizationId", "name"], unique: true }],
} as const satisfies ModelDeclaration

/** At most this many roles of its own per organization. */
export const maxStoredRoles = 50

/** The roles that hold in `organizationId`: the configuration's, and its own when `dynamicRoles` is on. */
export async function rolesIn(deps: Deps, store: Store, organizationId: string): Promise<RoleBook> {
  if (!deps.options.dynamicRoles) return deps.book
  const rows = await store.findMany(roleModel, { where: { organizationId }, limit: maxStoredRoles })
  let book = deps.book
  for (const row of rows) {
    try {
      book = book.with({ [String(row.name)]: deps.book.parse(row.grants) })
    } catch {
      // Grants naming what the statements no longer have, or a name no longer allowed: the role grants nothing.
    }
  }
  return book
}
