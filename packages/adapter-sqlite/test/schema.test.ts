import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import SqliteAdapter, { migrate, schema } from "@sesame/adapter-sqlite"

describe("schema", () => {
  it("migrate is idempotent: the second run applies nothing", () => {
    const db = new Database(":memory:")
    const first = migrate(db)
    expect(first.applied.map((m) => m.version)).toEqual([1])
    expect(first.version).toBe(1)
    const second = migrate(db)
    expect(second).toEqual({ applied: [], version: 1 })
    // Making an adapter on a migrated database migrates nothing either.
    SqliteAdapter(db)
    expect((db.prepare(`SELECT COUNT(*) AS n FROM sesame_migrations`).get() as { n: number }).n).toBe(1)
  })

  it("has the five tables, foreign keys with cascades, unique constraints and lookup indexes", () => {
    const db = new Database(":memory:")
    migrate(db)
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sesame_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name)
    expect(tables).toEqual(["sesame_accounts", "sesame_authenticators", "sesame_migrations", "sesame_sessions", "sesame_users", "sesame_verificationTokens"])
    for (const table of ["sesame_accounts", "sesame_sessions", "sesame_authenticators"]) {
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
  })

  it("prints the SQL with the configured table names, and refuses unsafe names", () => {
    expect(schema()).toContain(`CREATE TABLE "sesame_users"`)
    expect(schema({ users: "people" })).toContain(`CREATE TABLE "people"`)
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
