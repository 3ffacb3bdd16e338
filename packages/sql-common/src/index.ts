/**
 * `@sesame/sql-common`: what Sesame's SQL adapters (SQLite, PostgreSQL, MySQL/MariaDB, and Kysely
 * on any of them) share because it is the same logic in each: the table names and their
 * validation, each dialect's migrations (so every adapter of a dialect makes the same tables) with
 * the table and lock of a migration run, the column lists, the mapping from rows to models (a
 * session's factors as comma-separated text; the app's user fields, `userTable`), and the partial
 * `UPDATE` statement, the page of `listUsers` (`listUsersSql`); and the generic store
 * of declared models (`sqlStore`) with the tables it
 * needs (`migrateModels`, `modelTableStatements`), which every SQL adapter builds on a runner of
 * its own, and where
 * Sesame's own password hashes, counters, second factors, recovery codes and signing keys live.
 * The rules of that DDL (a field's column type, a model's table, foreign keys and indexes, the
 * names derived for them, the order of creation) are exported too, for `@sesame/cli`'s `schema`
 * printers, which describe the same tables for an ORM.
 * Internal: its API follows the adapters and has no stability promise of its own.
 *
 * @module
 */
export { defaultMigrationsTable, defaultTableNames, identifier, tableNames, type TableNames } from "./tables.js"
export { pending, schemaText, type MigrateOptions, type Migration, type MigrationResult } from "./migrations.js"
export { pgMigrationLockSql, pgMigrations, pgMigrationsTableSql } from "./schema/pg.js"
export { mysqlMigrationLock, mysqlMigrations, mysqlMigrationsTableSql, passOverExistingColumn } from "./schema/mysql.js"
export { sqliteMigrations, sqliteMigrationsTableSql } from "./schema/sqlite.js"
export {
  accountColumns,
  accountTokenColumns,
  authenticatorColumns,
  readDate,
  readFactors,
  sessionColumns,
  toAccount,
  toAuthenticator,
  toPrefixedUser,
  toSession,
  toUser,
  toVerificationToken,
  userColumns,
  writeFactors,
  type Row,
} from "./rows.js"
export { userFieldColumns, userTable, type NewUser, type UserFieldColumn, type UserTable } from "./user-fields.js"
export { Gate } from "./gate.js"
export { likeContaining, likeEscape, listUsersSql, type SqlStatement } from "./list-users.js"
export { updateSql, type UpdateDialect, type UpdateStatement } from "./update.js"
export { sqlStore } from "./store/store.js"
export { derivedName, tableOf, tableOverrides } from "./store/names.js"
export {
  byReferences,
  modelIndexes,
  modelReferences,
  modelSchemaText,
  modelTableStatements,
  type ModelIndex,
  type ModelReference,
} from "./store/ddl.js"
export { fieldSqlType } from "./store/values.js"
export { migrateModels } from "./store/migrate-models.js"
export { isUniqueViolation } from "./store/conflict.js"
export type {
  ModelMigration,
  ModelTableOptions,
  SqlDialect,
  SqlMigrateOptions,
  SqlMigrationResult,
  SqlRunner,
  SqlStoreOptions,
  TableOverrides,
} from "./store/types.js"
