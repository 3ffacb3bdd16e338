/**
 * The module on Sesame's adapters on the real servers: PostgreSQL, MariaDB, SQLite (tables by the
 * adapter's `migrate` with the plugins' models, as `npx sesame migrate --plugin` makes them) and
 * Redis (no schema).
 */
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import RedisAdapter from "@sesame/adapter-redis"
import SqliteAdapter, { migrate as migrateSqlite } from "@sesame/adapter-sqlite"
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { connectRedis, dropPrefix, testPrefix } from "../../adapter-redis/test/services.js"
import { adapterTests } from "./suite.js"

const pg = testSchema("sso")
await pg.create()
const pgPool = pg.pool()
await migratePg(pgPool)
adapterTests("PostgreSQL", PostgresAdapter(pgPool), (models) => migratePg(pgPool, { models }))

const mysql = testDatabase("sso")
await mysql.create()
const mysqlPool = mysql.pool()
await migrateMysql(mysqlPool)
adapterTests("MariaDB", MysqlAdapter(mysqlPool), (models) => migrateMysql(mysqlPool, { models }))

const sqlite = new Database(join(mkdtempSync(join(tmpdir(), "sesame-sso-")), "auth.db"))
await migrateSqlite(sqlite)
adapterTests("SQLite", SqliteAdapter(sqlite), async (models) => void (await migrateSqlite(sqlite, { models })))

const prefix = testPrefix()
const redis = await connectRedis()
adapterTests("Redis", RedisAdapter(redis, { prefix }))

afterAll(async () => {
  await Promise.all([pg.drop(), mysql.drop(), dropPrefix(redis, prefix)])
  await redis.quit()
  sqlite.close()
})
