/**
 * Table names: the same as the other SQL adapters use (from `@sesame/sql-common`), so that one
 * database can move between them. Drizzle quotes identifiers itself, so names are not restricted
 * to plain identifiers here.
 *
 * @module
 */
import { defaultTableNames, type TableNames } from "@sesame/sql-common"

export { defaultTableNames, type TableNames }

export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  return { ...defaultTableNames, ...overrides }
}
