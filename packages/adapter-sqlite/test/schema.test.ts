import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import SqliteAdapter, { defaultTableNames, migrate, schema } from "@sesame/adapter-sqlite"
import { defaultTables } from "../../sql-common/test/shared/tables.js"
import { checkUpgradeFromVersionOne } from "../../sql-common/test/shared/upgrade.js"
import { migrations } from "../src/schema.js"

describe("schema", () => {
  it("migrate is idempotent: the second run applies nothing", () => {
    const db = new Database(":memory:")
    const first = migrate(db)
    expect(first.applied.map((m) => m.version)).toEqual([1, 2, 3, 4])
    expect(first.version).toBe(4)
    const second = migrate(db)
    expect(second).toEqual({ applied: [], version: 4 })
    // Making an adapter on a migrated database migrates nothing either.
    SqliteAdapter(db)
    expect((db.prepare(`SELECT COUNT(*) AS n FROM sesame_migrations`).get() as { n: number }).n).toBe(4)
  })

  it("adds the tables of later migrations to a database at version 1, keeping its rows", async () => {
    const db = new Database(":memory:")
    await checkUpgradeFromVersionOne({
      async createVersionOne() {
        db.exec(`CREATE TABLE sesame_migrations ("version" INTEGER PRIMARY KEY NOT NULL, "description" TEXT NOT NULL, "appliedAt" INTEGER NOT NULL)`)
        for (const statement of migrations[0]!.statements(defaultTableNames)) db.exec(statement)
        db.prepare(`INSERT INTO sesame_migrations VALUES (1, ?, ?)`).run(migrations[0]!.description, Date.now())
      },
      exec: async (sql) => void db.exec(sql),
      migrate: async () => migrate(db),
      tablesAmong: async (names) =>
        (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name).filter((n) => names.includes(n)),
      adapter: () => SqliteAdapter(db, { migrate: false }),
    })
  })

  it("has the ten tables, foreign keys with cascades, unique constraints and lookup indexes", () => {
    const db = new Database(":memory:")
    migrate(db)
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sesame_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name)
    expect(tables).toEqual(defaultTables)
    for (const table of ["sesame_accounts", "sesame_sessions", "sesame_authenticators", "sesame_passwords", "sesame_two_factors", "sesame_recovery_codes"]) {
      const keys = db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string; on_delete: string }[]
      expect(keys).toEqual([expect.objectContaining({ table: "sesame_users", on_delete: "CASCADE" })])
    }
    const indexes = (table: string) =>
      (db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number }[]).map((i) => ({
        unique: i.unique,
        columns: (db.prepare(`PRAGMA index_info("${i.name}")`).all() as { name: string }[]).map((c) => c.name),
      }))
    expect(indexes("sesame_users")).toContainEqual({ unique: 1, columns: ["email"] })
    expect(indexes("sesame_accounts")).toContainEqual({ unique: 1, columns: ["provider", "providerAccountId"] })
    expect(indexes("sesame_accounts")).toContainEqual({ unique: 0, columns: ["userId"] })
    expect(indexes("sesame_sessions")).toContainEqual({ unique: 1, columns: ["sessionToken"] })
    expect(indexes("sesame_sessions")).toContainEqual({ unique: 0, columns: ["userId"] })
    expect(indexes("sesame_verificationTokens")).toContainEqual({ unique: 1, columns: ["identifier", "token"] })
    expect(indexes("sesame_authenticators")).toContainEqual({ unique: 1, columns: ["credentialID"] })
    expect(indexes("sesame_authenticators")).toContainEqual({ unique: 0, columns: ["userId"] })
    expect(indexes("sesame_passwords")).toContainEqual({ unique: 1, columns: ["userId"] })
    expect(indexes("sesame_counters")).toContainEqual({ unique: 1, columns: ["key"] })
    expect(indexes("sesame_two_factors")).toContainEqual({ unique: 1, columns: ["userId"] })
    expect(indexes("sesame_recovery_codes")).toContainEqual({ unique: 1, columns: ["userId", "hash"] })
    expect(db.prepare(`PRAGMA foreign_key_list("sesame_counters")`).all()).toEqual([])
    const sessionColumns = db.prepare(`PRAGMA table_info("sesame_sessions")`).all() as { name: string; type: string; notnull: number }[]
    expect(sessionColumns.at(-1)).toMatchObject({ name: "factors", type: "TEXT", notnull: 0 })
    // Signing keys are the app's: no foreign key, dates as milliseconds.
    expect(indexes("sesame_signing_keys")).toContainEqual({ unique: 1, columns: ["id"] })
    expect(db.prepare(`PRAGMA foreign_key_list("sesame_signing_keys")`).all()).toEqual([])
    const keyColumns = db.prepare(`PRAGMA table_info("sesame_signing_keys")`).all() as { name: string; type: string; notnull: number }[]
    expect(keyColumns.map(({ name, type, notnull }) => ({ name, type, notnull }))).toEqual([
      { name: "id", type: "TEXT", notnull: 1 },
      { name: "algorithm", type: "TEXT", notnull: 1 },
      { name: "publicKey", type: "TEXT", notnull: 1 },
      { name: "privateKey", type: "TEXT", notnull: 1 },
      { name: "createdAt", type: "INTEGER", notnull: 1 },
    ])
  })

  it("prints the SQL with the configured table names, and refuses unsafe names", () => {
    expect(schema()).toContain(`CREATE TABLE "sesame_users"`)
    expect(schema({ users: "people" })).toContain(`CREATE TABLE "people"`)
    expect(schema({ signingKeys: "app_keys" })).toContain(`-- 4: create signing keys\nCREATE TABLE "app_keys"`)
    expect(() => schema({ users: `x"; DROP TABLE y; --` })).toThrow(/identifier/)
  })

  it("opens a file path and switches on foreign keys and WAL", async () => {
    const { mkdtempSync } = await import("node:fs")
    const { tmpdir } = await import("node:os")
    const { join } = await import("node:path")
    const file = join(mkdtempSync(join(tmpdir(), "sesame-sqlite-")), "x.db")
    const adapter = SqliteAdapter(file)
    const user = await adapter.createUser!({ id: "u1", email: "a@b.c", emailVerified: null, name: null, image: null })
    expect(user.id).toBe("u1")
    const check = new Database(file)
    expect(check.pragma("journal_mode", { simple: true })).toBe("wal")
    check.close()
  })
})
