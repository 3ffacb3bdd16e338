/**
 * For the SQL adapters' schema tests: a database made at version 1 (before the passwords and
 * counters tables) is brought to the current version by `migrate`, and keeps its rows.
 */
import type { Adapter } from "@sesame/core/adapters"
import type { MigrationResult } from "@sesame/sql-common"
import { expect } from "vitest"

export interface VersionOneDatabase {
  /** Runs the first migration only, and records it as `migrate` does. */
  createVersionOne(): Promise<void>
  /** Runs one statement. */
  exec(sql: string): Promise<void>
  migrate(): Promise<MigrationResult>
  /** The names of the database's tables among `names`, sorted. */
  tablesAmong(names: string[]): Promise<string[]>
  adapter(): Adapter
}

export async function checkUpgradeFromVersionOne(db: VersionOneDatabase): Promise<void> {
  await db.createVersionOne()
  await db.exec(`INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')`)
  expect(await db.tablesAmong(["sesame_passwords", "sesame_counters"])).toEqual([])
  expect(await db.migrate()).toEqual({ applied: [{ version: 2, description: "create passwords and counters" }], version: 2 })
  expect(await db.tablesAmong(["sesame_passwords", "sesame_counters"])).toEqual(["sesame_counters", "sesame_passwords"])
  const adapter = db.adapter()
  expect((await adapter.getUser!("u1"))?.email).toBe("a@example.com")
  const password = { userId: "u1", hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date("2025-01-02T03:04:05.678Z") }
  expect(await adapter.setPassword!(password)).toEqual(password)
  expect(await db.migrate()).toEqual({ applied: [], version: 2 })
}
