import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtInModels } from "@sesame/core/adapters"
import { cascadingTables, lookupIndexes } from "../../sql-common/test/shared/lookup-indexes.js"
import PostgresAdapter, { defaultTableNames, migrate, schema } from "@sesame/adapter-pg"
import { checkUpgradeFromVersionOne } from "../../sql-common/test/shared/upgrade.js"
import { migrations } from "../src/schema.js"
import { testSchema } from "./database.js"

const db = testSchema("schema")
const pool = db.pool()

beforeAll(() => db.create())
afterAll(() => db.drop())

type Index = { table: string; unique: boolean; columns: string[] }

async function indexes(): Promise<Index[]> {
  const { rows } = await pool.query<{ table: string; unique: boolean; columns: string[] }>(
    `SELECT t.relname AS "table", ix.indisunique AS "unique",
            ARRAY(SELECT a.attname::text FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS "columns"
     FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
     WHERE ns.nspname = current_schema()`,
  )
  return rows
}

describe("PostgreSQL schema", () => {
  it("migrate is idempotent, also when three instances run it at once", async () => {
    const pools = [db.pool(), db.pool(), db.pool()]
    const results = await Promise.all(pools.map((p) => migrate(p)))
    expect(results.flatMap((r) => r.applied.map((m) => m.version))).toEqual([1, 2, 3, 4])
    expect(results.map((r) => r.version)).toEqual([4, 4, 4])
    expect(await migrate(pool)).toEqual({ applied: [], version: 4 })
    const { rows } = await pool.query(`SELECT "version", "description" FROM "sesame_migrations" ORDER BY "version"`)
    expect(rows).toEqual([
      { version: 1, description: expect.stringContaining("create users") },
      { version: 2, description: "create passwords and counters" },
      { version: 3, description: "create second factors and recovery codes; add sessions' factors" },
      { version: 4, description: "create signing keys" },
    ])
  })

  it("adds the tables of later migrations to a database at version 1, keeping its rows", async () => {
    const old = testSchema("v1")
    await old.create()
    const oldPool = old.pool()
    try {
      await checkUpgradeFromVersionOne({
        async createVersionOne() {
          await oldPool.query(`CREATE TABLE "sesame_migrations" ("version" INTEGER PRIMARY KEY, "description" TEXT NOT NULL, "appliedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now())`)
          for (const statement of migrations[0]!.statements(defaultTableNames)) await oldPool.query(statement)
          await oldPool.query(`INSERT INTO "sesame_migrations" ("version", "description") VALUES (1, $1)`, [migrations[0]!.description])
        },
        exec: async (sql) => void (await oldPool.query(sql)),
        migrate: () => migrate(oldPool),
        async tablesAmong(names) {
          const { rows } = await oldPool.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1) ORDER BY 1`, [names])
          return rows.map((r) => r.name)
        },
        adapter: () => PostgresAdapter(oldPool),
      })
    } finally {
      await old.drop()
    }
  })

  it("has foreign keys that cascade, the unique constraints, and an index on every lookup column", async () => {
    await migrate(pool)
    const { rows: keys } = await pool.query<{ table: string; references: string; onDelete: string }>(
      `SELECT c.conrelid::regclass::text AS "table", c.confrelid::regclass::text AS "references", c.confdeltype AS "onDelete"
       FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace WHERE c.contype = 'f' AND ns.nspname = current_schema() ORDER BY 1`,
    )
    expect(keys).toEqual(
      cascadingTables.map((table) => ({ table, references: "sesame_users", onDelete: "c" })),
    )
    const all = await indexes()
    for (const index of lookupIndexes) expect(all).toContainEqual(index)
  })

  it("stores dates with millisecond precision and maps booleans and bigints back to JS types", async () => {
    await migrate(pool)
    const { rows } = await pool.query<{ column: string; type: string; precision: number | null }>(
      `SELECT column_name AS "column", data_type AS "type", datetime_precision AS "precision" FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name IN ('sesame_sessions', 'sesame_authenticators') AND column_name IN ('expires', 'credentialBackedUp', 'counter')
       ORDER BY 1`,
    )
    expect(rows).toEqual([
      { column: "counter", type: "bigint", precision: null },
      { column: "credentialBackedUp", type: "boolean", precision: null },
      { column: "expires", type: "timestamp with time zone", precision: 3 },
    ])
    const adapter = PostgresAdapter(pool)
    const user = await adapter.createUser!({ id: crypto.randomUUID(), email: `ms-${crypto.randomUUID()}@example.com`, emailVerified: new Date("2025-01-02T03:04:05.678Z") })
    expect(user.emailVerified?.toISOString()).toBe("2025-01-02T03:04:05.678Z")
    const big = 2 ** 32 - 1
    const passkey = await adapter.createAuthenticator!({
      credentialID: crypto.randomUUID(),
      userId: user.id,
      providerAccountId: "p",
      credentialPublicKey: "k",
      counter: big,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
    })
    expect(passkey).toMatchObject({ counter: big, credentialBackedUp: true })
  })

  it("keeps signing keys in unbounded text, tied to no user, with millisecond dates", async () => {
    await migrate(pool)
    const { rows } = await pool.query<{ column: string; type: string; nullable: string; precision: number | null }>(
      `SELECT column_name AS "column", data_type AS "type", is_nullable AS "nullable", datetime_precision AS "precision" FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'sesame_signing_keys' ORDER BY ordinal_position`,
    )
    expect(rows).toEqual([
      { column: "id", type: "text", nullable: "NO", precision: null },
      { column: "algorithm", type: "text", nullable: "NO", precision: null },
      { column: "publicKey", type: "text", nullable: "NO", precision: null },
      { column: "privateKey", type: "text", nullable: "NO", precision: null },
      { column: "createdAt", type: "timestamp with time zone", nullable: "NO", precision: 3 },
    ])
    const key = { id: crypto.randomUUID(), algorithm: "RS256", publicKey: "{}", privateKey: "x".repeat(10_000), createdAt: new Date("2025-01-02T03:04:05.678Z") }
    const { store } = PostgresAdapter(pool)
    expect(await store!.create(builtInModels.signingKeys, { ...key })).toEqual(key)
    expect(await store!.findOne(builtInModels.signingKeys, { id: key.id })).toEqual(key)
  })

  it("prints the SQL with the configured names, and refuses unsafe names", async () => {
    expect(schema()).toContain(`CREATE TABLE "sesame_users"`)
    expect(schema()).toContain(`TIMESTAMPTZ(3)`)
    expect(schema({ users: "people" })).toContain(`REFERENCES "people" ("id") ON DELETE CASCADE`)
    expect(schema({ sessions: "app_sessions" })).toContain(`ALTER TABLE "app_sessions" ADD COLUMN "factors" TEXT;`)
    expect(schema()).toContain(`-- 4: create signing keys\nCREATE TABLE "sesame_signing_keys"`)
    expect(schema({ signingKeys: "app_keys" })).toContain(`CONSTRAINT "app_keys_pkey" PRIMARY KEY ("id")`)
    const unsafe = `x"; DROP TABLE y; --`
    expect(() => schema({ signingKeys: unsafe })).toThrow(/tables\.signingKeys/)
    expect(() => schema({ users: unsafe })).toThrow(/identifier/)
    expect(() => PostgresAdapter(pool, { tables: { sessions: unsafe } })).toThrow(/identifier/)
    await expect(migrate(pool, { migrationsTable: unsafe })).rejects.toThrow(/identifier/)
    expect(() => PostgresAdapter(pool, { tables: { users: "u".repeat(49) } })).toThrow(/at most 48/)
  })
})
