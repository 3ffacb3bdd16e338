/**
 * The tables of declared models (what feature modules store) on a Drizzle database. Sesame's ten
 * tables are Drizzle tables that drizzle-kit makes from the app's schema; a model is a declaration
 * that the generic store reads and writes, not a Drizzle table, so `migrate` makes its table the
 * way the other SQL adapters do (`@sesame/sql-common`'s `migrateModels`): it creates the tables
 * that are missing, with their keys, indexes and foreign keys (to the users table, which must
 * exist), and adds the columns and indexes a model gained; a table's other columns, and its rows,
 * stay. Run twice, the second run changes nothing.
 *
 * Runs of several app instances at once take turns: on PostgreSQL in one transaction under the
 * advisory lock of Sesame's migrations, on MySQL under their named lock (`GET_LOCK`), on SQLite in
 * one immediate transaction. That SQLite transaction is on the database object's one connection
 * and does not hold back an adapter's statements on it, so run `migrate` before the app serves.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import { defaultMigrationsTable, migrateModels, mysqlMigrationLock, pgMigrationLockSql, type ModelMigration, type SqlRunner } from "@sesame/sql-common"
import { getTableName } from "drizzle-orm"
import { open, type DrizzleDatabase, type DrizzleTables } from "./database.js"

export type { ModelMigration } from "@sesame/sql-common"

export interface MigrateOptions {
  /** The models whose tables to make or complete. */
  models: readonly ModelDeclaration[]
  /** The tables as given to `DrizzleAdapter`: the users table the models refer to, and models' table names. */
  tables?: DrizzleTables
}

/** How long a MySQL run waits for another one to finish, in seconds (as Sesame's other migrations). */
const lockTimeout = 60

/** Runs `fn` holding MySQL's named lock of Sesame's migrations, on the transaction's connection. */
async function withMysqlLock<T>(tx: SqlRunner, fn: () => Promise<T>): Promise<T> {
  const { rows } = await tx.run(`SELECT GET_LOCK(${mysqlMigrationLock}, ?) AS \`locked\``, [defaultMigrationsTable, lockTimeout])
  if (Number(rows[0]?.locked) !== 1) throw new Error(`Another migration of this database did not finish within ${lockTimeout} seconds.`)
  try {
    return await fn()
  } finally {
    await tx.run(`SELECT RELEASE_LOCK(${mysqlMigrationLock})`, [defaultMigrationsTable]).catch(() => {})
  }
}

/**
 * Makes the tables of `options.models`, or adds what they lack; resolves with the tables it
 * created and those it altered. Throws a `TypeError` for a database or tables `DrizzleAdapter`
 * refuses, and for a model `checkModel` refuses.
 */
export async function migrate(db: DrizzleDatabase, options: MigrateOptions): Promise<ModelMigration> {
  const { session, tables, modelTables } = open(db, options.tables, "migrate")
  const names = { tables: modelTables, usersTable: getTableName(tables.users) }
  return session.runner.atomically(async (tx) => {
    const apply = () => migrateModels(session.dialect, tx, options.models, names)
    if (session.dialect === "pg") await tx.run(pgMigrationLockSql, [defaultMigrationsTable])
    return session.dialect === "mysql" ? withMysqlLock(tx, apply) : apply()
  })
}
