/**
 * The audit trail on Drizzle, on each dialect: Sesame's tables as an app's drizzle-kit makes them
 * from the Drizzle tables, and the plugin's table by `migrate(db, { models })`.
 */
import DrizzleAdapter, { migrate } from "@sesame/adapter-drizzle"
import { mysqlTables } from "@sesame/adapter-drizzle/mysql"
import { pgTables } from "@sesame/adapter-drizzle/pg"
import { sqliteTables } from "@sesame/adapter-drizzle/sqlite"
import Database from "better-sqlite3"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { afterAll } from "vitest"
import { mysqlCreateSql, pgCreateSql, sqliteCreateSql } from "../../../packages/adapter-drizzle/test/create-tables.js"
import { mariaDbRun, postgresRun, sqliteFile } from "../../../packages/adapter-drizzle/test/services.js"
import { auditTrailTests } from "./suite.js"

const pg = await postgresRun()
const pgSesame = pgTables({ schema: pg.schema })
for (const statement of await pgCreateSql(pgSesame)) await pg.pool.query(statement)
const pgDb = drizzlePg(pg.newPool())
auditTrailTests("Drizzle on PostgreSQL (@sesame/adapter-drizzle)", DrizzleAdapter(pgDb, { tables: pgSesame }), (models) => migrate(pgDb, { models, tables: pgSesame }))

const maria = await mariaDbRun()
const mariaSesame = mysqlTables()
for (const statement of await mysqlCreateSql(mariaSesame)) await maria.pool.query(statement)
const mariaDb = drizzleMysql(maria.newPool())
auditTrailTests("Drizzle on MariaDB (@sesame/adapter-drizzle)", DrizzleAdapter(mariaDb, { tables: mariaSesame }), (models) => migrate(mariaDb, { models, tables: mariaSesame }))

const connection = new Database(sqliteFile())
const sqliteSesame = sqliteTables()
for (const statement of await sqliteCreateSql(sqliteSesame)) connection.exec(statement)
const sqliteDb = drizzleSqlite(connection)
auditTrailTests("Drizzle on SQLite (@sesame/adapter-drizzle)", DrizzleAdapter(sqliteDb, { tables: sqliteSesame }), (models) => migrate(sqliteDb, { models, tables: sqliteSesame }))

afterAll(async () => {
  await Promise.all([pg.drop(), maria.drop()])
  connection.close()
})
