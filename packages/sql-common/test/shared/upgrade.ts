/**
 * For the SQL adapters' schema tests: a database made at version 1 (before the passwords,
 * counters, second-factor, recovery-code and signing-key tables, and the sessions' factors) is
 * brought to the current version by `migrate`, and keeps its rows. Sesame's own models
 * (`builtInModels`) then live in the tables those migrations made: what the store writes there
 * reads back, and goes with its user through the migrated foreign keys.
 */
import { builtInModels, type Adapter } from "@sesame/core/adapters"
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
  const store = adapter.store!
  const { passwords, counters, twoFactors, recoveryCodes, signingKeys } = builtInModels
  const at = new Date("2025-01-02T03:04:05.678Z")
  const password = { userId: "u1", hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: at }
  expect(await store.create(passwords, { ...password })).toEqual(password)
  expect(await store.findOne(passwords, { userId: "u1" })).toEqual(password)
  const twoFactor = { userId: "u1", method: "email", secret: null, enabledAt: at, devicesRevokedAt: null }
  expect(await store.create(twoFactors, { ...twoFactor })).toEqual(twoFactor)
  expect(await store.findOne(twoFactors, { userId: "u1" })).toEqual(twoFactor)
  for (const hash of ["a".repeat(64), "b".repeat(64)]) await store.create(recoveryCodes, { userId: "u1", hash })
  expect(await store.count(recoveryCodes, { userId: "u1" })).toBe(2)
  const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000)
  const counter = "password:ip:127.0.0.1"
  const bump = () => store.increment(counters, { key: counter }, "count", { create: { key: counter, count: 0, expires }, set: { expires } })
  await bump()
  expect(await bump()).toEqual({ key: counter, count: 2, expires })
  expect(await store.findOne(counters, { key: counter })).toEqual({ key: counter, count: 2, expires })
  const key = { id: "k1", algorithm: "EdDSA", publicKey: `{"kty":"OKP"}`, privateKey: "eyJ.a.b.c.d", createdAt: at }
  expect(await store.create(signingKeys, { ...key })).toEqual(key)
  expect(await store.findMany(signingKeys)).toEqual([key])
  // Sessions have their factors column.
  const sessionExpires = new Date(Date.now() + 86_400_000)
  await adapter.createSession!({ sessionToken: "s1", userId: "u1", expires: sessionExpires, factors: ["password", "email-code"] })
  await adapter.createSession!({ sessionToken: "s2", userId: "u1", expires: sessionExpires })
  expect((await adapter.getSessionAndUser!("s1"))?.session.factors).toEqual(["password", "email-code"])
  expect((await adapter.getSessionAndUser!("s2"))?.session.factors ?? null).toBeNull()
  expect(await db.migrate()).toEqual({ applied: [], version: 4 })
  // The user's rows go with the user; the app's signing keys and the counters, tied to no user, stay.
  await adapter.deleteUser!("u1")
  expect(await store.findOne(passwords, { userId: "u1" })).toBeNull()
  expect(await store.findOne(twoFactors, { userId: "u1" })).toBeNull()
  expect(await store.count(recoveryCodes, { userId: "u1" })).toBe(0)
  expect(await store.findMany(signingKeys)).toEqual([key])
  expect((await store.findOne(counters, { key: counter }))?.count).toBe(2)
}
