/**
 * `@sesame/sql-common`: what Sesame's SQL adapters (SQLite, PostgreSQL, MySQL/MariaDB) share
 * because it is the same logic in each: the table names and their validation, the column lists,
 * the mapping from rows to models (a session's factors as comma-separated text), the partial
 * `UPDATE` statement, the password, counter and second-factor upserts, the insert of recovery
 * codes, and the shape of migrations. Internal: its API follows the adapters and has no stability
 * promise of its own.
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
  readFactors,
  sessionColumns,
  toAccount,
  toAuthenticator,
  toCounter,
  toPassword,
  toPrefixedUser,
  toSession,
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
