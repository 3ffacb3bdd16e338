/**
 * Creating and upgrading the schema through the app's Kysely instance. The migrations, the table
 * that records them (`sesame_migrations`) and the locks are those of the dialect's own Sesame
 * adapter (`@sesame/adapter-pg`, `-mysql`, `-sqlite`, through `@sesame/sql-common`): a database
 * migrated by either is up to date for the other, and runs of both at once wait for each other.
 *
 * - PostgreSQL runs DDL in transactions: every pending migration is applied in one transaction
 *   that first takes an advisory lock named for the schema and migrations table.
 * - MySQL commits DDL at once: runs are serialised by a named lock (`GET_LOCK`) on one connection,
 *   each statement can run again, and a migration is recorded after its last statement.
 * - SQLite applies them in one immediate transaction, so two processes cannot both apply one.
 *
 * Run twice, the second run applies nothing.
 *
 * @module
 */
import {
  defaultMigrationsTable,
  identifier,
  mysqlMigrationLock,
  mysqlMigrationsTableSql,
  passOverExistingColumn,
  pending,
  pgMigrationLockSql,
  pgMigrationsTableSql,
  sqliteMigrationsTableSql,
  tableNames,
  type MigrateOptions,
  type MigrationResult,
  type TableNames,
} from "@sesame/sql-common"
import { CompiledQuery, type Kysely } from "kysely"
import { dialectOf, type Dialect } from "./dialect.js"
import { transaction, type Db } from "./transaction.js"

export type { MigrateOptions, MigrationResult } from "@sesame/sql-common"

/** How long a MySQL run waits for another one to finish, in seconds (as `@sesame/adapter-mysql`). */
const lockTimeout = 60

/** Applies the migrations newer than the recorded version, recording each; on one connection. */
async function applyPending(db: Db, dialect: Dialect, t: TableNames, log: string): Promise<MigrationResult> {
  const [row] = await db
    .selectFrom(log)
    .select((eb) => eb.fn.max("version").as("version"))
    .execute()
  const current = Number(row?.version ?? 0)
  const applied: MigrationResult["applied"] = []
  for (const migration of pending(dialect.migrations, current)) {
    for (const statement of migration.statements(t)) {
      const run = db.executeQuery(CompiledQuery.raw(statement))
      await (dialect.name === "mysql" ? run.catch(passOverExistingColumn) : run)
    }
    const { version, description } = migration
    await db
      .insertInto(log)
      .values({ version, description, appliedAt: dialect.param(new Date()) })
      .execute()
    applied.push({ version, description })
  }
  return { applied, version: Math.max(current, ...applied.map((m) => m.version)) }
}

/**
 * Applies the schema migrations the database lacks. Idempotent, and safe to run concurrently
 * (from several instances, and beside the dialect's own Sesame adapter). Throws a `TypeError` for
 * a Kysely instance on another dialect, or a table name that is not a plain SQL identifier.
 */
export async function migrate<DB>(app: Kysely<DB>, options: MigrateOptions = {}): Promise<MigrationResult> {
  const dialect = dialectOf(app, "migrate")
  const t = tableNames(options.tables, dialect.maxNameLength)
  const log = identifier("migrationsTable", options.migrationsTable ?? defaultMigrationsTable, dialect.maxNameLength)
  const db = app.withoutPlugins() as unknown as Db
  const raw = (connection: Db, sql: string, params: unknown[] = []) => connection.executeQuery(CompiledQuery.raw(sql, params))

  if (dialect.name === "postgres") {
    return transaction(db, dialect, async (tx) => {
      await raw(tx, pgMigrationLockSql, [log])
      await raw(tx, pgMigrationsTableSql(log))
      return applyPending(tx, dialect, t, log)
    })
  }
  if (dialect.name === "mysql") {
    return db.connection().execute(async (connection) => {
      const { rows } = await raw(connection, "SELECT DATABASE() AS `name`")
      if (!(rows[0] as { name?: unknown } | undefined)?.name) {
        throw new Error("The connection has no database selected: name one in the pool's `database` option or URL.")
      }
      const { rows: locked } = await raw(connection, `SELECT GET_LOCK(${mysqlMigrationLock}, ?) AS \`locked\``, [log, lockTimeout])
      if (Number((locked[0] as { locked?: unknown } | undefined)?.locked) !== 1) {
        throw new Error(`Another migration of this database did not finish within ${lockTimeout} seconds.`)
      }
      try {
        await raw(connection, mysqlMigrationsTableSql(log))
        return await applyPending(connection, dialect, t, log)
      } finally {
        await raw(connection, `SELECT RELEASE_LOCK(${mysqlMigrationLock})`, [log]).catch(() => {})
      }
    })
  }
  await raw(db, sqliteMigrationsTableSql(log))
  return transaction(db, dialect, (tx) => applyPending(tx, dialect, t, log))
}
