/**
 * `@sesame/adapter-kysely`: Sesame's adapter on a Kysely instance, for PostgreSQL, MySQL/MariaDB
 * and SQLite.
 *
 * ```ts
 * import { Kysely, PostgresDialect } from "kysely"
 * import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
 * const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
 * await migrate(db) // the same tables and migrations as @sesame/adapter-pg
 * const adapter = KyselyAdapter(db)
 * ```
 *
 * The dialect comes from the instance. The tables are those of the dialect's own Sesame adapter
 * (`@sesame/adapter-pg`, `-mysql`, `-sqlite`), so an app can move between them on one database;
 * `SesameDatabase` types them for the app's own queries. `adapter.store` keeps the rows of the
 * models feature modules declare, in tables `migrate(db, { models })` makes.
 *
 * `adapter.withUserFields(model)` (the app's `user.fields`) is the adapter writing and reading those
 * fields' columns of the users table too, which `migrate(db, { models: [model] })` adds.
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { tableNames, type TableOverrides } from "@sesame/sql-common"
import type { Kysely } from "kysely"
import { kyselyAdapter } from "./adapter.js"
import { dialectOf } from "./dialect.js"
import { runner } from "./runner.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { defaultTableNames, type TableNames, type TableOverrides } from "@sesame/sql-common"
export type {
  DialectValues,
  SesameAccountsTable,
  SesameAuthenticatorsTable,
  SesameCountersTable,
  SesameDatabase,
  SesamePasswordsTable,
  SesameRecoveryCodesTable,
  SesameSessionsTable,
  SesameSigningKeysTable,
  SesameTwoFactorsTable,
  SesameUsersTable,
  SesameVerificationTokensTable,
  SqlDialect,
} from "./tables.js"

export interface KyselyAdapterOptions {
  /**
   * Table names, when they differ from `sesame_users`, `sesame_accounts`, … (plain identifiers of
   * at most 48 characters; 63 on SQLite), and the table of a declared model, by the model's name,
   * when it differs from the model's `table`. Give `migrate` the same.
   */
  tables?: TableOverrides
}

/**
 * The Kysely adapter. `db` is a Kysely instance on `PostgresDialect` (node-postgres pool),
 * `MysqlDialect` (mysql2 pool) or `SqliteDialect` (better-sqlite3), or another dialect built on
 * theirs; anything else throws a `TypeError`. The schema must exist: run {@link migrate} first.
 */
export function KyselyAdapter<DB>(db: Kysely<DB>, options: KyselyAdapterOptions = {}): Adapter {
  const dialect = dialectOf(db, "KyselyAdapter")
  return kyselyAdapter(runner(db, dialect), tableNames(options.tables, dialect.maxNameLength))
}

export default KyselyAdapter
