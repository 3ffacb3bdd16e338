import { join } from "node:path"
import type mysql from "mysql2/promise"
import { afterAll, describe, expect, it, vi } from "vitest"
import { loadExample, signInThrough, type ExampleApp } from "../../sql-common/test/shared/readme-example.js"
import { testDatabase } from "./database.js"

const db = testDatabase("readme")
let pool: mysql.Pool | undefined

afterAll(async () => {
  vi.unstubAllEnvs()
  await pool?.end()
  await db.drop()
})

describe("README example", () => {
  it("runs as written against MariaDB", async () => {
    await db.create()
    vi.stubEnv("AUTH_SECRET", "mysql-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_URL", db.url)
    const example = await loadExample<{ default: ExampleApp; pool: mysql.Pool }>(join(import.meta.dirname, "..", "README.md"), "mysql", join(import.meta.dirname, ".scratch"))
    pool = example.pool
    expect((await signInThrough(example.default, "ada@example.com", "open sesame"))?.user?.email).toBe("ada@example.com")
    const [rows] = await pool.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM `sesame_sessions`")
    expect(rows).toEqual([{ n: 1 }])
  })
})
