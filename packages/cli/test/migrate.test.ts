/**
 * `sesame migrate` and `sesame schema` against the real servers (a PostgreSQL schema and a MariaDB
 * database of this file's own) and a SQLite file: the first run creates the tables, the second
 * changes nothing and says so.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import type mysql from "mysql2/promise"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testSchema } from "../../adapter-pg/test/database.js"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { sesame } from "./run.js"
import { defaultTables } from "../../sql-common/test/shared/tables.js"

const pgSchema = testSchema("cli")
const mysqlDatabase = testDatabase("cli")

beforeAll(async () => {
  await Promise.all([pgSchema.create(), mysqlDatabase.create()])
})
afterAll(async () => {
  await Promise.all([pgSchema.drop(), mysqlDatabase.drop()])
})

const tables = defaultTables

/** Runs migrate twice, with a user written in between that the second run must leave alone. */
async function twice(adapter: string, url: string, insertUser: () => Promise<void>, countUsers: () => Promise<number>) {
  const first = await sesame(["migrate", "--adapter", adapter, "--url", url])
  expect(first).toMatchObject({ code: 0, stderr: "" })
  expect(first.stdout).toMatch(
    /^Applied migration 1: create users, accounts, sessions, verification tokens and authenticators\.\nApplied migration 2: create passwords and counters\.\nApplied migration 3: create second factors and recovery codes; add sessions' factors\.\nApplied migration 4: create signing keys\.\n.* is now at version 4\.\n$/,
  )
  await insertUser()
  const second = await sesame(["migrate", "--adapter", adapter, "--url", url])
  expect(second).toMatchObject({ code: 0, stderr: "" })
  expect(second.stdout).toMatch(/^Nothing to do: the .* schema at .* is already at version 4\.\n$/)
  expect(await countUsers()).toBe(1)
}

describe("sesame migrate, run twice: the second run is a no-op", () => {
  it("PostgreSQL", async () => {
    const pool = pgSchema.pool()
    await twice(
      "pg",
      pgSchema.url,
      async () => void (await pool.query(`INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')`)),
      async () => (await pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM sesame_users`)).rows[0]!.n,
    )
    const { rows } = await pool.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)
    expect(rows.map((r) => r.name)).toEqual(tables)
    expect((await pool.query(`SELECT version FROM sesame_migrations ORDER BY 1`)).rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }])
  })

  it("MySQL (MariaDB)", async () => {
    const pool = mysqlDatabase.pool()
    const count = async (sql: string) => ((await pool.query<mysql.RowDataPacket[]>(sql))[0][0] as { n: number }).n
    await twice(
      "mysql",
      mysqlDatabase.url,
      async () => void (await pool.query("INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')")),
      () => count("SELECT COUNT(*) AS n FROM sesame_users"),
    )
    const [rows] = await pool.query<mysql.RowDataPacket[]>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1")
    expect(rows.map((r) => r.name)).toEqual(tables)
    expect(await count("SELECT COUNT(*) AS n FROM sesame_migrations")).toBe(4)
  })

  it("SQLite", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sesame-cli-")), "auth.db")
    const open = () => new Database(file)
    await twice(
      "sqlite",
      file,
      async () => {
        const db = open()
        db.prepare(`INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')`).run()
        db.close()
      },
      async () => {
        const db = open()
        const { n } = db.prepare(`SELECT COUNT(*) AS n FROM sesame_users`).get() as { n: number }
        db.close()
        return n
      },
    )
    const db = open()
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name)
    db.close()
    expect(names).toEqual(tables)
  })

  it("renamed tables", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sesame-cli-")), "auth.db")
    const result = await sesame(["migrate", "--adapter", "sqlite", "--url", file, "--tables", "users=people,sessions=logins,signingKeys=api_keys"])
    expect(result.code).toBe(0)
    const db = new Database(file)
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name)
    db.close()
    expect(names).toEqual([
      "api_keys",
      "logins",
      "people",
      "sesame_accounts",
      "sesame_authenticators",
      "sesame_counters",
      "sesame_migrations",
      "sesame_passwords",
      "sesame_recovery_codes",
      "sesame_two_factors",
      "sesame_verificationTokens",
    ])
  })
})

describe("sesame schema", () => {
  it("prints each dialect's SQL", async () => {
    const pg = await sesame(["schema", "--adapter", "pg"])
    expect(pg.code).toBe(0)
    expect(pg.stdout).toContain(`CREATE TABLE "sesame_users"`)
    expect(pg.stdout).toContain("TIMESTAMPTZ(3)")
    const mysql = await sesame(["schema", "--adapter", "mysql", "--tables", "users=people"])
    expect(mysql.stdout).toContain("CREATE TABLE IF NOT EXISTS `people`")
    expect(mysql.stdout).toContain("DATETIME(3)")
    const sqlite = await sesame(["schema", "--adapter", "sqlite"])
    expect(sqlite.stdout).toContain(`CREATE TABLE "sesame_sessions"`)
    for (const printed of [pg.stdout, sqlite.stdout]) expect(printed).toContain(`CREATE TABLE "sesame_passwords"`)
    expect(mysql.stdout).toContain("CREATE TABLE IF NOT EXISTS `sesame_counters`")
    const renamed = await sesame(["schema", "--adapter", "pg", "--tables", "passwords=app_passwords,counters=app_counters,twoFactors=app_2fa,recoveryCodes=app_codes"])
    expect(renamed.stdout).toContain(`CREATE TABLE "app_passwords"`)
    expect(renamed.stdout).toContain(`CREATE TABLE "app_counters"`)
    expect(renamed.stdout).toContain(`CREATE TABLE "app_2fa"`)
    expect(renamed.stdout).toContain(`CREATE TABLE "app_codes"`)
    for (const printed of [pg.stdout, mysql.stdout, sqlite.stdout]) {
      expect(printed).toContain("-- 3: create second factors and recovery codes; add sessions' factors")
      expect(printed).toContain("-- 4: create signing keys")
    }
  })
})
