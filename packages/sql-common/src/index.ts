/**
 * `@sesame/sql-common`: what Sesame's SQL adapters (SQLite, PostgreSQL, MySQL/MariaDB) share
 * because it is the same logic in each: the table names and their validation, the column lists,
 * the mapping from rows to models, the partial `UPDATE` statement, the password and counter
 * upserts, and the shape of migrations. Internal: its API follows the adapters and has no
 * stability promise of its own.
 *
 * @module
 */
export { defaultMigrationsTable, defaultTableNames, identifier, tableNames, type TableNames } from "./tables.js"
export { pending, schemaText, type MigrateOptions, type Migration, type MigrationResult } from "./migrations.js"
export {
  accountColumns,
  accountTokenColumns,
  authenticatorColumns,
  readDate,
  sessionColumns,
  toAccount,
  toAuthenticator,
  toCounter,
  toPassword,
  toPrefixedUser,
  toSession,
  toUser,
  toVerificationToken,
  userColumns,
  type Row,
} from "./rows.js"
export { Gate } from "./gate.js"
export { updateSql, type UpdateDialect, type UpdateStatement } from "./update.js"
export { incrementCounterSql, setPasswordSql, type Statement, type UpsertDialect } from "./upsert.js"
