/**
 * Creating and upgrading the schema. PostgreSQL runs DDL inside transactions, so `migrate` applies
 * every pending migration in one transaction that first takes an advisory lock named for the
 * schema and migrations table: instances that start together and all call `migrate` apply each
 * migration once, and a failure half-way leaves the schema as it was. Each applied migration is
 * recorded in the migrations table; run twice, the second run applies nothing.
 *
 * Given declared models (`{ models }`), the same transaction then makes or completes their tables
 * (`migrateModels` of `@sesame/sql-common`: missing tables, columns and indexes), under the same
 * lock.
 *
 * The tables go into the first schema of the connection's `search_path` (set it with the pool's
 * `options: "-c search_path=auth"`, or `?options=-c%20search_path%3Dauth` in a connection URL).
 *
 * @module
 */
import {
  defaultMigrationsTable,
  identifier,
  migrateModels,
  pending,
  pgMigrationLockSql,
  pgMigrationsTableSql,
  tableOverrides,
  type SqlMigrateOptions,
  type SqlMigrationResult,
} from "@sesame/sql-common"
import type { Pool } from "pg"
import { pgRunner } from "./runner.js"
import { migrations, tableNames } from "./schema.js"
import { inTransaction } from "./transaction.js"

/** `migrate`'s options: table names (by role and by model name), the migrations table, declared models. */
export type MigrateOptions = SqlMigrateOptions
/** What `migrate` applied; `models` when it was given models. */
export type MigrationResult = SqlMigrationResult

/** Applies the schema migrations the database lacks, then makes the tables of `models`. Idempotent, and safe to run concurrently. */
export async function migrate(pool: Pool, options: MigrateOptions = {}): Promise<MigrationResult> {
  const t = tableNames(options.tables)
  const log = identifier("migrationsTable", options.migrationsTable ?? defaultMigrationsTable, 48)
  return inTransaction(pool, async (client) => {
    await client.query(pgMigrationLockSql, [log])
    await client.query(pgMigrationsTableSql(log))
    const { rows } = await client.query<{ version: number | null }>(`SELECT MAX("version") AS "version" FROM "${log}"`)
    const current = rows[0]?.version ?? 0
    const applied: MigrationResult["applied"] = []
    for (const migration of pending(migrations, current)) {
      for (const statement of migration.statements(t)) await client.query(statement)
      await client.query(`INSERT INTO "${log}" ("version", "description") VALUES ($1, $2)`, [migration.version, migration.description])
      applied.push({ version: migration.version, description: migration.description })
    }
    const result: MigrationResult = { applied, version: Math.max(current, ...applied.map((m) => m.version)) }
    if (!options.models) return result
    const models = await migrateModels("pg", pgRunner(pool, client), options.models, { tables: tableOverrides(options.tables), usersTable: t.users })
    return { ...result, models }
  })
}
