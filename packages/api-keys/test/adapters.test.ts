/**
 * The module on Sesame's other adapters on the real servers: PostgreSQL (node-postgres), MariaDB,
 * SQLite (tables by the adapter's `migrate` with the configuration's models) and Redis (no
 * schema). Each: a key created, used, rate limited, rotated with an overlap, revoked, and listed
 * without its secret.
 */
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import RedisAdapter from "@sesame/adapter-redis"
import SqliteAdapter, { migrate as migrateSqlite } from "@sesame/adapter-sqlite"
import { modelsOf, type ModelDeclaration } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import Database from "better-sqlite3"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { connectRedis, dropPrefix, testPrefix } from "../../adapter-redis/test/services.js"
import { makeWorld, type World } from "./world.js"

function suite(name: string, adapter: () => Adapter, migrate: (models: ModelDeclaration[]) => Promise<unknown>) {
  describe(`on ${name}`, () => {
    let world: World
    beforeAll(async () => {
      world = makeWorld({ adapter: adapter(), keys: { rotationOverlap: 3600 } })
      await migrate(modelsOf(world.config))
    })

    it("creates, uses, rate limits, rotates with an overlap, revokes", async () => {
      const ada = await world.user(`ada-${Date.now()}@example.com`)
      const created = await ada.api("createApiKey", { name: "ci", scopes: ["read", "write"], rateLimit: { max: 2, window: 3600 } })
      expect(await world.bearer(created.key)).toMatchObject({ userId: ada.id, scopes: ["read", "write"] })
      await world.bearer(created.key)
      expect(await world.bearer(created.key)).toMatchObject({ rateLimited: true })
      const rotated = await ada.api("rotateApiKey", created.id)
      // The old key's window is spent; the new key has its own.
      expect(await world.bearer(rotated.key)).toMatchObject({ rateLimited: false, keyId: rotated.id })
      const listed = await ada.api("listApiKeys")
      expect(listed.map((k: { id: string; replacedBy: string | null }) => [k.id, k.replacedBy]).sort()).toEqual([[created.id, rotated.id], [rotated.id, null]].sort())
      expect(JSON.stringify(listed)).not.toContain(created.key)
      await ada.api("revokeApiKey", rotated.id)
      expect(await world.bearer(rotated.key)).toBeNull()
      expect(await ada.api("listApiKeys")).toEqual([])
    })
  })
}

const pg = testSchema("api_keys")
const mysql = testDatabase("api_keys")
const sqlite = new Database(join(mkdtempSync(join(tmpdir(), "sesame-api-keys-")), "auth.db"))
const prefix = testPrefix()
const redis = await connectRedis()
await pg.create()
await mysql.create()
const pgPool = pg.pool()
const mysqlPool = mysql.pool()
await migratePg(pgPool)
await migrateMysql(mysqlPool)
await migrateSqlite(sqlite)

suite("PostgreSQL", () => PostgresAdapter(pgPool), (models) => migratePg(pgPool, { models }))
suite("MariaDB", () => MysqlAdapter(mysqlPool), (models) => migrateMysql(mysqlPool, { models }))
suite("SQLite", () => SqliteAdapter(sqlite), (models) => migrateSqlite(sqlite, { models }))
suite("Redis", () => RedisAdapter(redis, { prefix }), async () => {})

afterAll(async () => {
  await Promise.all([pg.drop(), mysql.drop(), dropPrefix(redis, prefix)])
  await redis.quit()
  sqlite.close()
})
