/**
 * For the SQL adapters' schema tests: a database made at version 1 (before the passwords,
 * counters, second-factor, recovery-code and signing-key tables, and the sessions' factors) is
 * brought to the current version by `migrate`, and keeps its rows.
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

/** The tables that migrations after the first add, sorted by name. */
const laterTables = ["sesame_counters", "sesame_passwords", "sesame_recovery_codes", "sesame_signing_keys", "sesame_two_factors"]

export async function checkUpgradeFromVersionOne(db: VersionOneDatabase): Promise<void> {
  await db.createVersionOne()
  await db.exec(`INSERT INTO sesame_users (id, email) VALUES ('u1', 'a@example.com')`)
  expect(await db.tablesAmong(laterTables)).toEqual([])
  expect(await db.migrate()).toEqual({
    applied: [
      { version: 2, description: "create passwords and counters" },
      { version: 3, description: "create second factors and recovery codes; add sessions' factors" },
      { version: 4, description: "create signing keys" },
    ],
    version: 4,
  })
  expect(await db.tablesAmong(laterTables)).toEqual(laterTables)
  const adapter = db.adapter()
  expect((await adapter.getUser!("u1"))?.email).toBe("a@example.com")
  const password = { userId: "u1", hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date("2025-01-02T03:04:05.678Z") }
  expect(await adapter.setPassword!(password)).toEqual(password)
  const twoFactor = { userId: "u1", method: "email" as const, secret: null, enabledAt: new Date("2025-01-02T03:04:05.678Z"), devicesRevokedAt: null }
  expect(await adapter.setTwoFactor!(twoFactor)).toEqual(twoFactor)
  await adapter.setRecoveryCodes!("u1", ["a".repeat(64), "b".repeat(64)])
  expect(await adapter.countRecoveryCodes!("u1")).toBe(2)
  // Sessions have their factors column.
  const expires = new Date(Date.now() + 86_400_000)
  await adapter.createSession!({ sessionToken: "s1", userId: "u1", expires, factors: ["password", "email-code"] })
  await adapter.createSession!({ sessionToken: "s2", userId: "u1", expires })
  expect((await adapter.getSessionAndUser!("s1"))?.session.factors).toEqual(["password", "email-code"])
  expect((await adapter.getSessionAndUser!("s2"))?.session.factors ?? null).toBeNull()
  const key = { id: "k1", algorithm: "EdDSA", publicKey: `{"kty":"OKP"}`, privateKey: "eyJ.a.b.c.d", createdAt: new Date("2025-01-02T03:04:05.678Z") }
  expect(await adapter.createSigningKey!(key)).toEqual(key)
  expect(await adapter.listSigningKeys!()).toEqual([key])
  expect(await db.migrate()).toEqual({ applied: [], version: 4 })
}
