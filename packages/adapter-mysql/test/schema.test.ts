import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtInModels } from "@sesame/core/adapters"
import { cascadingTables, lookupIndexes } from "../../sql-common/test/shared/lookup-indexes.js"
import type mysql from "mysql2/promise"
import MysqlAdapter, { defaultTableNames, migrate, schema } from "@sesame/adapter-mysql"
import { checkUpgradeFromVersionOne } from "../../sql-common/test/shared/upgrade.js"
import { migrations } from "../src/schema.js"
import { testDatabase } from "./database.js"

const db = testDatabase("schema")
const pool = db.pool()

beforeAll(() => db.create())
afterAll(() => db.drop())

async function select<T>(sql: string, params: string[] = []): Promise<T[]> {
  const [rows] = await pool.query<mysql.RowDataPacket[]>(sql, params)
  return rows as T[]
}

describe("MySQL/MariaDB schema", () => {
  it("migrate is idempotent, also when three instances run it at once", async () => {
    const pools = [db.pool(), db.pool(), db.pool()]
    const results = await Promise.all(pools.map((p) => migrate(p)))
    expect(results.flatMap((r) => r.applied.map((m) => m.version))).toEqual([1, 2, 3, 4])
    expect(results.map((r) => r.version)).toEqual([4, 4, 4])
    expect(await migrate(pool)).toEqual({ applied: [], version: 4 })
    expect(await select(`SELECT \`version\` FROM \`sesame_migrations\` ORDER BY 1`)).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }])
  })

  it("adds the tables of later migrations to a database at version 1, keeping its rows", async () => {
    const old = testDatabase("v1")
    await old.create()
    const oldPool = old.pool()
    try {
      await checkUpgradeFromVersionOne({
        async createVersionOne() {
          await oldPool.query(`CREATE TABLE \`sesame_migrations\` (\`version\` INT NOT NULL PRIMARY KEY, \`description\` TEXT NOT NULL, \`appliedAt\` DATETIME(3) NOT NULL)`)
          for (const statement of migrations[0]!.statements(defaultTableNames)) await oldPool.query(statement)
          await oldPool.query(`INSERT INTO \`sesame_migrations\` VALUES (1, ?, NOW(3))`, [migrations[0]!.description])
        },
        exec: async (sql) => void (await oldPool.query(sql)),
        migrate: () => migrate(oldPool),
        async tablesAmong(names) {
          const [rows] = await oldPool.query<mysql.RowDataPacket[]>(
            `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) ORDER BY 1`,
            [names],
          )
          return rows.map((r) => r.name as string)
        },
        adapter: () => MysqlAdapter(oldPool),
      })
    } finally {
      await old.drop()
    }
  })

  it("completes a migration cut off half-way: each of its statements runs again, ADD COLUMN included", async () => {
    const cut = testDatabase("cut")
    await cut.create()
    const cutPool = cut.pool()
    try {
      await migrate(cutPool)
      // As if a run had stopped inside migration 3: the sessions' column added, a table not yet made,
      // the migration not recorded (MySQL commits each DDL statement at once).
      await cutPool.query("DELETE FROM `sesame_migrations` WHERE `version` >= 3")
      await cutPool.query("DROP TABLE `sesame_recovery_codes`")
      expect(await migrate(cutPool)).toEqual({
        applied: [
          { version: 3, description: migrations[2]!.description },
          { version: 4, description: migrations[3]!.description },
        ],
        version: 4,
      })
      const [columns] = await cutPool.query<mysql.RowDataPacket[]>(
        "SELECT COLUMN_TYPE AS `type`, IS_NULLABLE AS `nullable` FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sesame_sessions' AND COLUMN_NAME = 'factors'",
      )
      expect(columns).toEqual([{ type: "text", nullable: "YES" }])
      expect(await MysqlAdapter(cutPool).store!.count(builtInModels.recoveryCodes, { userId: crypto.randomUUID() })).toBe(0)
    } finally {
      await cut.drop()
    }
  })

  it("has foreign keys that cascade, the unique constraints, and an index on every lookup column", async () => {
    await migrate(pool)
    const keys = await select<{ table: string; references: string; onDelete: string }>(
      `SELECT TABLE_NAME AS \`table\`, REFERENCED_TABLE_NAME AS \`references\`, DELETE_RULE AS \`onDelete\`
       FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY 1`,
    )
    expect(keys).toEqual(cascadingTables.map((table) => ({ table, references: "sesame_users", onDelete: "CASCADE" })))
    const indexes = (
      await select<{ table: string; unique: number; columns: string }>(
        `SELECT TABLE_NAME AS \`table\`, 1 - MAX(NON_UNIQUE) AS \`unique\`, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS \`columns\`
         FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() GROUP BY TABLE_NAME, INDEX_NAME`,
      )
    ).map((i) => ({ table: i.table, unique: Number(i.unique) === 1, columns: i.columns.split(",") }))
    for (const index of lookupIndexes) expect(indexes).toContainEqual(index)
  })

  it("compares text exactly, keeps milliseconds, and maps booleans and bigints back to JS types", async () => {
    await migrate(pool)
    const columns = await select<{ column: string; type: string; precision: number | null; collation: string | null }>(
      `SELECT COLUMN_NAME AS \`column\`, COLUMN_TYPE AS \`type\`, DATETIME_PRECISION AS \`precision\`, COLLATION_NAME AS \`collation\`
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sesame_users' AND COLUMN_NAME IN ('email', 'emailVerified') ORDER BY 1`,
    )
    expect(columns).toEqual([
      { column: "email", type: "varchar(255)", precision: null, collation: "utf8mb4_bin" },
      { column: "emailVerified", type: "datetime(3)", precision: 3, collation: null },
    ])
    const adapter = MysqlAdapter(pool)
    const email = `Zoë-${crypto.randomUUID()}@example.com`
    const user = await adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: new Date("2025-01-02T03:04:05.678Z") })
    expect(user.emailVerified?.toISOString()).toBe("2025-01-02T03:04:05.678Z")
    // Case and accents matter, as in PostgreSQL and SQLite.
    expect(await adapter.getUserByEmail!(email.replace("Zoë", "zoe"))).toBeNull()
    await adapter.createUser!({ id: crypto.randomUUID(), email: email.replace("Zoë", "zoe"), emailVerified: null })
    const big = 2 ** 32 - 1
    const passkey = await adapter.createAuthenticator!({
      credentialID: `Ab-${crypto.randomUUID()}`,
      userId: user.id,
      providerAccountId: "p",
      credentialPublicKey: "k",
      counter: big,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
    })
    expect(passkey).toMatchObject({ counter: big, credentialBackedUp: true })
    expect(await adapter.getAuthenticator!(passkey.credentialID.replace("Ab-", "ab-"))).toBeNull()
  })

  it("keeps signing keys in TEXT (a sealed RSA key is about 2.5 KB), tied to no user, with millisecond dates", async () => {
    await migrate(pool)
    const columns = await select<{ column: string; type: string; nullable: string; collation: string | null }>(
      `SELECT COLUMN_NAME AS \`column\`, COLUMN_TYPE AS \`type\`, IS_NULLABLE AS \`nullable\`, COLLATION_NAME AS \`collation\`
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sesame_signing_keys' ORDER BY ORDINAL_POSITION`,
    )
    expect(columns).toEqual([
      { column: "id", type: "varchar(255)", nullable: "NO", collation: "utf8mb4_bin" },
      { column: "algorithm", type: "varchar(255)", nullable: "NO", collation: "utf8mb4_bin" },
      { column: "publicKey", type: "text", nullable: "NO", collation: "utf8mb4_bin" },
      { column: "privateKey", type: "text", nullable: "NO", collation: "utf8mb4_bin" },
      { column: "createdAt", type: "datetime(3)", nullable: "NO", collation: null },
    ])
    const key = { id: crypto.randomUUID(), algorithm: "RS256", publicKey: "{}", privateKey: "x".repeat(10_000), createdAt: new Date("2025-01-02T03:04:05.678Z") }
    const { store } = MysqlAdapter(pool)
    expect(await store!.create(builtInModels.signingKeys, { ...key })).toEqual(key)
    expect(await store!.findOne(builtInModels.signingKeys, { id: key.id })).toEqual(key)
  })

  it("stores dates in UTC whatever time zone the app's pool is set to", async () => {
    await migrate(pool)
    const shifted = db.pool({ timezone: "+05:00" })
    const at = new Date("2025-06-07T08:09:10.123Z")
    const user = await MysqlAdapter(shifted).createUser!({ id: crypto.randomUUID(), email: `tz-${crypto.randomUUID()}@example.com`, emailVerified: at })
    expect(user.emailVerified?.toISOString()).toBe(at.toISOString())
    const [stored] = await select<{ v: string }>(`SELECT CAST(\`emailVerified\` AS CHAR) AS v FROM \`sesame_users\` WHERE \`id\` = ?`, [user.id])
    expect(stored?.v).toBe("2025-06-07 08:09:10.123")
    expect((await MysqlAdapter(pool).getUser!(user.id))?.emailVerified?.toISOString()).toBe(at.toISOString())
  })

  it("prints the SQL with the configured names, and refuses unsafe names", async () => {
    expect(schema()).toContain("CREATE TABLE IF NOT EXISTS `sesame_users`")
    expect(schema()).toContain("DATETIME(3)")
    expect(schema({ users: "people" })).toContain("REFERENCES `people` (`id`) ON DELETE CASCADE")
    expect(schema({ sessions: "app_sessions" })).toContain("ALTER TABLE `app_sessions` ADD COLUMN `factors` TEXT NULL;")
    expect(schema({ signingKeys: "app_keys" })).toContain("-- 4: create signing keys\nCREATE TABLE IF NOT EXISTS `app_keys`")
    const unsafe = "x`; DROP TABLE y; --"
    expect(() => schema({ users: unsafe })).toThrow(/identifier/)
    expect(() => MysqlAdapter(pool, { tables: { sessions: unsafe } })).toThrow(/identifier/)
    await expect(migrate(pool, { migrationsTable: unsafe })).rejects.toThrow(/identifier/)
  })
})
