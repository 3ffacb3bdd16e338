/**
 * `sesame migrate --plugin` and `sesame schema --plugin` against the real servers: the plugins'
 * tables made from their declarations after Sesame's, renamed through `--tables` by model name,
 * and a second run that changes nothing. The plugin is `@sesame/plugin-audit-trail` (built by
 * `npm test`), imported from a file the way an app's would be.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import type mysql from "mysql2/promise"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { sesame } from "./run.js"

const plugins = join(import.meta.dirname, "fixtures", "plugins.mjs")
const pgSchema = testSchema("cliplugins")
const mysqlDatabase = testDatabase("cliplugins")

beforeAll(async () => {
  await Promise.all([pgSchema.create(), mysqlDatabase.create()])
})
afterAll(async () => {
  await Promise.all([pgSchema.drop(), mysqlDatabase.drop()])
})

/** Migrates with the plugin twice: the first run makes its table, the second nothing. */
async function twice(adapter: string, url: string, extra: string[] = []) {
  const first = await sesame(["migrate", "--adapter", adapter, "--url", url, "--plugin", plugins, ...extra])
  expect(first).toMatchObject({ code: 0, stderr: "" })
  expect(first.stdout).toMatch(/Created the plugins' table \w+\.\n.* is now at version 4, with the plugins' tables\.\n$/)
  const second = await sesame(["migrate", "--adapter", adapter, "--url", url, "--plugin", plugins, ...extra])
  expect(second).toMatchObject({ code: 0, stderr: "" })
  expect(second.stdout).toMatch(/^Nothing to do: .* already at version 4, with the plugins' tables\.\n$/)
}

describe("sesame migrate --plugin", () => {
  it("PostgreSQL: makes the plugin's table, with its reference to the users", async () => {
    await twice("pg", pgSchema.url)
    const pool = pgSchema.pool()
    const { rows } = await pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'sesame_audit_sign_ins' ORDER BY 1`,
    )
    expect(rows.map((r) => r.column_name)).toEqual(["at", "expires", "id", "kind", "newUser", "provider", "userId"])
    await pool.query(`INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')`)
    await pool.query(`INSERT INTO sesame_audit_sign_ins (id, "userId", provider, kind, "newUser", at, expires) VALUES ('s1', 'u1', 'github', 'oauth', false, now(), now())`)
    await pool.query(`DELETE FROM sesame_users WHERE id = 'u1'`)
    expect((await pool.query(`SELECT * FROM sesame_audit_sign_ins`)).rowCount).toBe(0)
  })

  it("MySQL (MariaDB), the plugin's table renamed by its model's name", async () => {
    await twice("mysql", mysqlDatabase.url, ["--tables", "auditSignIn=audit_log"])
    const pool = mysqlDatabase.pool()
    const [rows] = await pool.query<mysql.RowDataPacket[]>(`SHOW TABLES LIKE 'audit_log'`)
    expect(rows).toHaveLength(1)
  })

  it("SQLite", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sesame-cli-plugins-")), "auth.db")
    await twice("sqlite", file)
    const db = new Database(file)
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sesame_audit_sign_ins'`).all()).toHaveLength(1)
    db.close()
  })

  it("refuses a module that holds no plugin, and a model name --tables does not know, saying why", async () => {
    const notPlugins = await sesame(["migrate", "--adapter", "sqlite", "--url", "x.db", "--plugin", join(import.meta.dirname, "fixtures", "not-plugins.mjs")])
    expect(notPlugins).toMatchObject({ code: 2, stdout: "" })
    expect(notPlugins.stderr).toMatch(/default export must be a plugin, a list of plugins, or the configuration/)
    const missing = await sesame(["migrate", "--adapter", "sqlite", "--url", "x.db", "--plugin", "./no/such/file.mjs"])
    expect(missing).toMatchObject({ code: 2 })
    expect(missing.stderr).toMatch(/could not be imported/)
    const unknown = await sesame(["schema", "--adapter", "pg", "--plugin", plugins, "--tables", "nosuchModel=x"])
    expect(unknown).toMatchObject({ code: 2 })
    expect(unknown.stderr).toMatch(/auditSignIn/)
  })
})

describe("sesame schema --plugin", () => {
  it("prints the plugin's table after Sesame's, for each dialect", async () => {
    for (const adapter of ["pg", "mysql", "sqlite"]) {
      const printed = await sesame(["schema", "--adapter", adapter, "--plugin", plugins])
      expect(printed).toMatchObject({ code: 0, stderr: "" })
      expect(printed.stdout).toMatch(/CREATE TABLE[^\n]*sesame_users/)
      expect(printed.stdout).toMatch(/CREATE TABLE[^\n]*sesame_audit_sign_ins/)
    }
  })
})
