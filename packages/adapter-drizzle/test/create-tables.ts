/**
 * Creates tables from their Drizzle definitions the way an app does: drizzle-kit turns them into
 * SQL (here through its API, from an empty schema), and the statements run in order. So the tests
 * exercise the exported tables themselves, not a hand-written copy of them.
 */
import * as kit from "drizzle-kit/api"

export async function pgCreateSql(tables: object): Promise<string[]> {
  return kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson({ ...tables }))
}

export async function mysqlCreateSql(tables: object): Promise<string[]> {
  return kit.generateMySQLMigration(await kit.generateMySQLDrizzleJson({}), await kit.generateMySQLDrizzleJson({ ...tables }))
}

export async function sqliteCreateSql(tables: object): Promise<string[]> {
  return kit.generateSQLiteMigration(await kit.generateSQLiteDrizzleJson({}), await kit.generateSQLiteDrizzleJson({ ...tables }))
}
