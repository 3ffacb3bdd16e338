/**
 * `@sesame/adapter-drizzle`: Sesame's adapter for Drizzle ORM on PostgreSQL (node-postgres),
 * MySQL/MariaDB (mysql2) and SQLite (better-sqlite3).
 *
 * ```ts
 * import { drizzle } from "drizzle-orm/node-postgres"
 * import DrizzleAdapter from "@sesame/adapter-drizzle"
 * const adapter = DrizzleAdapter(drizzle(pool))
 * ```
 *
 * The dialect comes from the database object. The tables are Drizzle tables, exported per dialect
 * from `@sesame/adapter-drizzle/pg`, `/mysql` and `/sqlite` for the app's Drizzle schema (and so
 * for drizzle-kit); `tables` hands the adapter the app's own (renamed, in a PostgreSQL schema, or
 * with columns added). The tables of models that feature modules declare are not Drizzle tables:
 * `migrate(db, { models })` makes them.
 *
 * `withUserFields(model)` is the same adapter on the same tables, writing and reading the app's
 * declared user fields in their columns of the users table (see `user-fields.ts`).
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { drizzleAdapter } from "./adapter.js"
import { open, type DrizzleDatabase, type DrizzleTables } from "./database.js"

export type { SesameTables } from "./tables.js"
export { defaultTableNames, type TableNames } from "./schema/names.js"
export type { DrizzleDatabase, DrizzleTables } from "./database.js"
export { migrate, type MigrateOptions, type ModelMigration } from "./migrate.js"

export interface DrizzleAdapterOptions {
  /**
   * The app's tables, in place of the default ones of the database's dialect: made with
   * `pgTables`, `mysqlTables` or `sqliteTables` (other names, a PostgreSQL schema, a users table
   * with columns of your own). Any of the ten may be given; the others are the defaults. A
   * declared model's table, when it differs from the model's `table`, is given by the model's
   * name: `{ users, signInRecord: "app_sign_ins" }`. Give `migrate` the same.
   */
  tables?: DrizzleTables
}

/**
 * The Drizzle adapter. `db` is a Drizzle database from `drizzle-orm/node-postgres` (give it a
 * `pg.Pool`, so that transactions get connections of their own), `drizzle-orm/mysql2` (a pool,
 * likewise) or `drizzle-orm/better-sqlite3`. On SQLite the adapter switches foreign keys on for
 * the connection, since Sesame's integrity rules rest on them. `adapter.store` keeps the rows of
 * declared models, in tables {@link migrate} makes.
 */
export function DrizzleAdapter(db: DrizzleDatabase, options: DrizzleAdapterOptions = {}): Adapter {
  const { session, tables, modelTables } = open(db, options.tables, "DrizzleAdapter")
  return drizzleAdapter(session, tables, modelTables)
}

export default DrizzleAdapter
