/**
 * The audit trail on Sesame's SQL adapters, each on a database of its own on the real server: the
 * app's tables by the adapter's `migrate`, and the plugin's table by the same `migrate` with the
 * plugin's models (what `npx sesame migrate --plugin` runs). No adapter has code for the plugin.
 */
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import SqliteAdapter, { migrate as migrateSqlite } from "@sesame/adapter-sqlite"
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { testDatabase } from "../../../packages/adapter-mysql/test/database.js"
import { testSchema } from "../../../packages/adapter-pg/test/database.js"
import { auditTrailTests } from "./suite.js"

const pg = testSchema("audit")
await pg.create()
const pgPool = pg.pool()
await migratePg(pgPool)
auditTrailTests("PostgreSQL (@sesame/adapter-pg)", PostgresAdapter(pgPool), (models) => migratePg(pgPool, { models }))

const mysql = testDatabase("audit")
await mysql.create()
const mysqlPool = mysql.pool()
await migrateMysql(mysqlPool)
auditTrailTests("MariaDB (@sesame/adapter-mysql)", MysqlAdapter(mysqlPool), (models) => migrateMysql(mysqlPool, { models }))

const sqlite = new Database(join(mkdtempSync(join(tmpdir(), "sesame-audit-")), "auth.db"))
auditTrailTests("SQLite (@sesame/adapter-sqlite)", SqliteAdapter(sqlite), async (models) => void (await migrateSqlite(sqlite, { models })))

afterAll(async () => {
  await Promise.all([pg.drop(), mysql.drop()])
  sqlite.close()
})
