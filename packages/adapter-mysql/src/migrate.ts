/**
 * Creating and upgrading the schema. MySQL commits DDL at once (it cannot run inside a
 * transaction), so `migrate` serialises runs with a named lock (`GET_LOCK`, per database and
 * migrations table) instead: instances that start together and all call it apply each migration
 * once. Each migration's statements can run again (see the MySQL schema of `@sesame/sql-common`),
 * and a migration is recorded in the migrations table after its last statement; run twice, the
 * second run applies nothing.
 *
 * Given declared models (`{ models }`), the run then makes or completes their tables
 * (`migrateModels` of `@sesame/sql-common`: missing tables, columns and indexes) on the same
 * connection, under the same lock. Each of those statements is checked against the catalogue
 * first, so a run cut off half-way is completed by the next.
 *
 * @module
 */
import {
  defaultMigrationsTable,
  identifier,
  migrateModels,
  mysqlMigrationLock,
  mysqlMigrationsTableSql,
  passOverExistingColumn,
  pending,
  tableOverrides,
  type SqlMigrateOptions,
  type SqlMigrationResult,
} from "@sesame/sql-common"
import type { Pool } from "mysql2/promise"
import { exec, rows } from "./connection.js"
import { mysqlRunner } from "./runner.js"
import { migrations, tableNames } from "./schema.js"

/** `migrate`'s options: table names (by role and by model name), the migrations table, declared models. */
export type MigrateOptions = SqlMigrateOptions
/** What `migrate` applied; `models` when it was given models. */
export type MigrationResult = SqlMigrationResult

/** How long a run waits for another one to finish, in seconds. */
const lockTimeout = 60

/** Applies the schema migrations the database lacks, then makes the tables of `models`. Idempotent, and safe to run concurrently. */
export async function migrate(pool: Pool, options: MigrateOptions = {}): Promise<MigrationResult> {
  const t = tableNames(options.tables)
  const log = identifier("migrationsTable", options.migrationsTable ?? defaultMigrationsTable, 48)
  const connection = await pool.getConnection()
  try {
    const [selected] = await rows(connection, "SELECT DATABASE() AS `name`")
    if (!selected?.name) throw new Error("The connection has no database selected: name one in the pool's `database` option or URL.")
    const [got] = await rows(connection, `SELECT GET_LOCK(${mysqlMigrationLock}, ?) AS \`locked\``, [log, lockTimeout])
    if (Number(got?.locked) !== 1) throw new Error(`Another migration of this database did not finish within ${lockTimeout} seconds.`)
    try {
      await exec(connection, mysqlMigrationsTableSql(log))
      const [row] = await rows(connection, `SELECT MAX(\`version\`) AS \`version\` FROM \`${log}\``)
      const current = Number(row?.version ?? 0)
      const applied: MigrationResult["applied"] = []
      for (const migration of pending(migrations, current)) {
        for (const statement of migration.statements(t)) await exec(connection, statement).catch(passOverExistingColumn)
        await exec(connection, `INSERT INTO \`${log}\` (\`version\`, \`description\`, \`appliedAt\`) VALUES (?, ?, ?)`, [
          migration.version,
          migration.description,
          new Date(),
        ])
        applied.push({ version: migration.version, description: migration.description })
      }
      const result: MigrationResult = { applied, version: Math.max(current, ...applied.map((m) => m.version)) }
      if (!options.models) return result
      const models = await migrateModels("mysql", mysqlRunner(pool, connection), options.models, { tables: tableOverrides(options.tables), usersTable: t.users })
      return { ...result, models }
    } finally {
      await rows(connection, `SELECT RELEASE_LOCK(${mysqlMigrationLock})`, [log]).catch(() => {})
    }
  } finally {
    connection.release()
  }
}
