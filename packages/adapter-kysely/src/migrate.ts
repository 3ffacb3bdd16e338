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
 * Declared models (`models`: feature modules' tables) come after the numbered migrations, in the
 * same transaction or under the same lock: `@sesame/sql-common`'s `migrateModels` creates the
 * tables that are missing and adds the columns a model gained (a table's other columns, and its
 * rows, stay as they are).
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import {
  defaultMigrationsTable,
  identifier,
  migrateModels,
  mysqlMigrationLock,
  mysqlMigrationsTableSql,
  passOverExistingColumn,
  pending,
  pgMigrationLockSql,
  pgMigrationsTableSql,
  sqliteMigrationsTableSql,
  tableNames,
  type MigrationResult as NumberedMigrationResult,
  type SqlMigrateOptions,
  type SqlMigrationResult,
  type SqlRunner,
  type TableNames,
} from "@sesame/sql-common"
import { CompiledQuery, type Kysely } from "kysely"
import { dialectOf, type Dialect } from "./dialect.js"
import { rawQuery, runResult, sqlDialects } from "./store.js"
import { transaction, type Db } from "./transaction.js"

/** The adapter's table names (and declared models' tables, by model name), the migrations table, and the models. */
export type MigrateOptions = SqlMigrateOptions
/** The migrations applied, the version after, and with `models`, the tables made or completed. */
export type MigrationResult = SqlMigrationResult

/** How long a MySQL run waits for another one to finish, in seconds (as `@sesame/adapter-mysql`). */
const lockTimeout = 60

/** Applies the migrations newer than the recorded version, recording each; on one connection. */
async function applyPending(db: Db, dialect: Dialect, t: TableNames, log: string): Promise<NumberedMigrationResult> {
  const [row] = await db
    .selectFrom(log)
    .select((eb) => eb.fn.max("version").as("version"))
    .execute()
  const current = Number(row?.version ?? 0)
  const applied: NumberedMigrationResult["applied"] = []
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
 * Applies the pending migrations, then brings the `models`' tables up to date, on `db`: the run's
 * transaction (PostgreSQL, SQLite) or locked connection (MySQL, where DDL commits at once anyway),
 * which the models' statements join.
 */
async function applyAll(db: Db, dialect: Dialect, t: TableNames, log: string, models: readonly ModelDeclaration[] | undefined): Promise<MigrationResult> {
  const result = await applyPending(db, dialect, t, log)
  if (!models) return result
  const joined: SqlRunner = {
    run: async (sql, params) => runResult(await db.executeQuery(rawQuery(sql, params))),
    atomically: (fn) => fn(joined),
  }
  return { ...result, models: await migrateModels(sqlDialects[dialect.name], joined, models, { tables: { ...t }, usersTable: t.users }) }
}

/**
 * Applies the schema migrations the database lacks, then makes the tables of `models`. Idempotent,
 * and safe to run concurrently (from several instances, and beside the dialect's own Sesame
 * adapter). Throws a `TypeError` for a Kysely instance on another dialect, a table name that is
 * not a plain SQL identifier, or a model declaration `checkModel` refuses.
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
      return applyAll(tx, dialect, t, log, options.models)
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
        return await applyAll(connection, dialect, t, log, options.models)
      } finally {
        await raw(connection, `SELECT RELEASE_LOCK(${mysqlMigrationLock})`, [log]).catch(() => {})
      }
    })
  }
  await raw(db, sqliteMigrationsTableSql(log))
  return transaction(db, dialect, (tx) => applyAll(tx, dialect, t, log, options.models))
}
