import { join } from "node:path"
import type pg from "pg"
import { afterAll, describe, expect, it, vi } from "vitest"
import { loadExample, signInThrough, type ExampleApp } from "../../sql-common/test/shared/readme-example.js"
import { testSchema } from "./database.js"

const db = testSchema("readme")
let pool: pg.Pool | undefined

afterAll(async () => {
  vi.unstubAllEnvs()
  await pool?.end()
  await db.drop()
})

describe("README example", () => {
  it("runs as written against PostgreSQL", async () => {
    await db.create()
    vi.stubEnv("AUTH_SECRET", "pg-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_URL", db.url)
    const example = await loadExample<{ default: ExampleApp; pool: pg.Pool }>(join(import.meta.dirname, "..", "README.md"), "pg", join(import.meta.dirname, ".scratch"))
    pool = example.pool
    expect((await signInThrough(example.default, "ada@example.com", "open sesame"))?.user?.email).toBe("ada@example.com")
    const { rows } = await pool.query(`SELECT COUNT(*)::int AS n FROM "sesame_sessions"`)
    expect(rows).toEqual([{ n: 1 }])
  })
})
