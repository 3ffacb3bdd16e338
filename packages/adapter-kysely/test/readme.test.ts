import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Adapter } from "@sesame/core/adapters"
import type { Kysely } from "kysely"
import { afterAll, describe, expect, it, vi } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { loadExample, signInThrough, type ExampleApp } from "../../sql-common/test/shared/readme-example.js"

const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch")
const schema = testSchema("kysely_readme")
const database = testDatabase("kysely_readme")
const instances: Kysely<object>[] = []

afterAll(async () => {
  vi.unstubAllEnvs()
  await Promise.all(instances.map((db) => db.destroy()))
  await Promise.all([schema.drop(), database.drop()])
})

/** The user the adapter of a dialect snippet creates, read back through it and through Kysely. */
async function roundTrip({ db, adapter }: { db: Kysely<object>; adapter: Adapter }) {
  instances.push(db)
  const user = await adapter.createUser!({ id: crypto.randomUUID(), email: `ada-${crypto.randomUUID()}@example.com`, emailVerified: new Date("2025-01-02T03:04:05.678Z") })
  expect(await adapter.getUserByEmail!(user.email)).toEqual(user)
}

describe("README examples", () => {
  it("PostgreSQL: signs in through the app as written, and types Sesame's tables for the app's queries", async () => {
    await schema.create()
    vi.stubEnv("AUTH_SECRET", "kysely-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_URL", schema.url)
    type Example = { default: ExampleApp; db: Kysely<object>; sessionsOf: (email: string) => Promise<{ expires: Date; userAgent: string | null }[]> }
    const example = await loadExample<Example>(readme, "kysely-pg", scratch)
    instances.push(example.db)
    expect((await signInThrough(example.default, "ada@example.com", "open sesame"))?.user?.email).toBe("ada@example.com")
    expect(await example.sessionsOf("ada@example.com")).toEqual([{ expires: expect.any(Date), userAgent: null }])
  })

  it("MySQL and MariaDB, as written", async () => {
    await database.create()
    vi.stubEnv("MYSQL_URL", database.url)
    await roundTrip(await loadExample(readme, "kysely-mysql", scratch))
  })

  it("SQLite, as written", async () => {
    vi.stubEnv("DATABASE_FILE", join(mkdtempSync(join(tmpdir(), "sesame-kysely-readme-")), "auth.db"))
    await roundTrip(await loadExample(readme, "kysely-sqlite", scratch))
  })
})
