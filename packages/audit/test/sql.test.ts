/**
 * The audit log on Sesame's SQL adapters, each on a database of its own on the real server: the
 * app's tables by the adapter's `migrate`, and the module's tables (with the other plugins' and the
 * user fields' the scenario uses) by the same `migrate` with the models, as `npx sesame migrate
 * --plugin` runs it. No adapter has code for the module.
 */
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import SqliteAdapter, { migrate as migrateSqlite } from "@sesame/adapter-sqlite"
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { auditTests } from "./suite.js"

const pg = testSchema("audit_log")
await pg.create()
const pgPool = pg.pool()
await migratePg(pgPool)
auditTests("PostgreSQL (@sesame/adapter-pg)", PostgresAdapter(pgPool), (models) => migratePg(pgPool, { models }))

const mysql = testDatabase("audit_log")
await mysql.create()
const mysqlPool = mysql.pool()
await migrateMysql(mysqlPool)
auditTests("MariaDB (@sesame/adapter-mysql)", MysqlAdapter(mysqlPool), (models) => migrateMysql(mysqlPool, { models }))

const sqlite = new Database(join(mkdtempSync(join(tmpdir(), "sesame-audit-log-")), "auth.db"))
await migrateSqlite(sqlite)
auditTests("SQLite (@sesame/adapter-sqlite)", SqliteAdapter(sqlite), async (models) => void (await migrateSqlite(sqlite, { models })))

afterAll(async () => {
  await Promise.all([pg.drop(), mysql.drop()])
  sqlite.close()
})
