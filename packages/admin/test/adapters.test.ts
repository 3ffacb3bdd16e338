/**
 * The module on Sesame's adapters on the real servers: PostgreSQL, MariaDB, SQLite (tables by the
 * adapter's `migrate` with the configuration's models, as `npx sesame migrate --plugin` makes
 * them: the suspensions' table and the core's session parts, where an impersonation's mark lives)
 * and Redis (no schema). Each: a search, a suspension that ends the user's database session and
 * refuses their sign-in, and an impersonation that comes back to the admin's own session.
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
import { makeWorld, origin } from "./world.js"

function suite(name: string, adapter: () => Adapter, migrate: (models: ModelDeclaration[]) => Promise<unknown>) {
  describe(`on ${name}`, () => {
    let world: ReturnType<typeof makeWorld>
    beforeAll(async () => {
      world = makeWorld({ adapter: adapter() })
      await migrate(modelsOf(world.config))
    })

    it("searches, suspends (the session ends, the sign-in is refused), restores, and impersonates", async () => {
      const run = `${Date.now()}`
      const boss = await world.user(`boss-${run}@example.com`, "admin")
      const pat = await world.user(`pat-${run}@example.com`)
      const admins = world.browser()
      await admins.signIn(boss.email)
      const pats = world.browser()
      await pats.signIn(pat.email)

      const found = (await admins.api("listUsers", { search: `PAT-${run}` })) as { users: { id: string }[] }
      expect(found.users.map((u) => u.id)).toEqual([pat.id])

      expect(await admins.api("banUser", pat.id, { reason: "r" })).toMatchObject({ sessionsEnded: 1 })
      expect(await pats.who()).toBeNull()
      expect(await world.browser().signIn(pat.email)).toBe(`${origin}/auth/admin/suspended`)
      expect(await admins.api("unbanUser", pat.id)).toBe(true)
      expect(await world.browser().signIn(pat.email)).toBe(`${origin}/`)

      const own = admins.jar.get("sesame.session-token")
      const started = await admins.send("admin/act", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await admins.csrf(), action: "impersonate", userId: pat.id }).toString(),
      })
      expect(started.headers.get("location")).toBe(`${origin}/`)
      expect(await admins.who()).toBe(pat.email)
      await admins.send("admin/acting", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await admins.csrf() }).toString(),
      })
      expect(await admins.who()).toBe(boss.email)
      expect(admins.jar.get("sesame.session-token")).toBe(own)
    })
  })
}

const pg = testSchema("admin")
const mysql = testDatabase("admin")
const sqlite = new Database(join(mkdtempSync(join(tmpdir(), "sesame-admin-")), "auth.db"))
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
