/**
 * `@sesame/sql-common`: what Sesame's SQL adapters (SQLite, PostgreSQL, MySQL/MariaDB, and Kysely
 * on any of them) share because it is the same logic in each: the table names and their
 * validation, each dialect's migrations (so every adapter of a dialect makes the same tables) with
 * the table and lock of a migration run, the column lists, the mapping from rows to models (a
 * session's factors as comma-separated text), the partial `UPDATE` statement, the password, counter
 * and second-factor upserts, and the insert of recovery codes. Internal: its API follows the
 * adapters and has no stability promise of its own.
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
  signingKeyColumns,
  toAccount,
  toAuthenticator,
  toCounter,
  toPassword,
  toPrefixedUser,
  toSession,
  toSigningKey,
  toTwoFactor,
  toUser,
  toVerificationToken,
  userColumns,
  writeFactors,
  type Row,
} from "./rows.js"
export { Gate } from "./gate.js"
export { updateSql, type UpdateDialect, type UpdateStatement } from "./update.js"
export { incrementCounterSql, setPasswordSql, setTwoFactorSql, type Statement, type UpsertDialect } from "./upsert.js"
export { insertRecoveryCodesSql } from "./recovery-codes.js"
