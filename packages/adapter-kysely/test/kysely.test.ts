/**
 * What is particular to the Kysely adapter: which instances it takes, that its schema is the other
 * SQL adapters' (a database migrated by either works with both), table names, plugins, and each
 * dialect's own concerns (MySQL's time zones and error texts, SQLite's foreign keys and single
 * connection).
 */
import KyselyAdapter, {
  defaultTableNames,
  migrate,
  type SesameCountersTable,
  type SesamePasswordsTable,
  type SesameRecoveryCodesTable,
  type SesameSigningKeysTable,
  type SesameTwoFactorsTable,
} from "@sesame/adapter-kysely"
import { builtInModels, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import { mysqlMigrationsTableSql, pgMigrationsTableSql, sqliteMigrationsTableSql, type TableNames } from "@sesame/sql-common"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  MssqlAdapter,
  MssqlIntrospector,
  MssqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteDialect,
} from "kysely"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkUpgradeFromVersionOne } from "../../sql-common/test/shared/upgrade.js"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { tableColumns } from "../src/columns.js"
import { dialectOf } from "../src/dialect.js"
import { dialects, mariaDb, type DialectRun } from "./dialects.js"

const unique = () => crypto.randomUUID().slice(0, 8)

/** The columns of the store's tables, checked against their types as `columns.ts` checks the adapter's. */
const storeTableColumns = {
  passwords: { userId: true, hash: true, updatedAt: true } satisfies Record<keyof SesamePasswordsTable, true>,
  counters: { key: true, count: true, expires: true } satisfies Record<keyof SesameCountersTable, true>,
  twoFactors: { userId: true, method: true, secret: true, enabledAt: true, devicesRevokedAt: true } satisfies Record<keyof SesameTwoFactorsTable, true>,
  recoveryCodes: { userId: true, hash: true } satisfies Record<keyof SesameRecoveryCodesTable, true>,
  signingKeys: { id: true, algorithm: true, publicKey: true, privateKey: true, createdAt: true } satisfies Record<keyof SesameSigningKeysTable, true>,
}
const columnsOf = { ...tableColumns, ...Object.fromEntries(Object.entries(storeTableColumns).map(([role, columns]) => [role, Object.keys(columns)])) } as Record<keyof TableNames, string[]>
const user = (): AdapterUser => ({ id: crypto.randomUUID(), name: "Ada", email: `ada-${unique()}@example.com`, emailVerified: new Date("2025-01-02T03:04:05.678Z"), image: null })

/** A Kysely instance that never connects, on Kysely's adapter `adapter`. */
function offline(adapter: () => PostgresAdapter | MssqlAdapter): Kysely<object> {
  const postgres = adapter() instanceof PostgresAdapter
  return new Kysely({
    dialect: {
      createAdapter: adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new MssqlIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new MssqlQueryCompiler()),
    },
  })
}

describe("which instances it takes", () => {
  it("refuses a Kysely instance on another dialect, and what is not a Kysely instance, with a TypeError", async () => {
    const mssql = offline(() => new MssqlAdapter())
    expect(() => KyselyAdapter(mssql)).toThrow(TypeError)
    expect(() => KyselyAdapter(mssql)).toThrow(/KyselyAdapter: the Kysely instance's dialect \(a MssqlAdapter\) is not supported; use PostgreSQL/)
    await expect(migrate(mssql)).rejects.toThrow(/migrate: the Kysely instance's dialect \(a MssqlAdapter\) is not supported/)
    const pool = new pg.Pool()
    expect(() => KyselyAdapter(pool as never)).toThrow(/KyselyAdapter: expected a Kysely instance \(new Kysely\(\{ dialect \}\)\), got a BoundPool/)
    expect(() => KyselyAdapter(undefined as never)).toThrow(/expected a Kysely instance \(new Kysely\(\{ dialect \}\)\), got undefined/)
    // A connection string's password stays out of the message.
    expect(() => KyselyAdapter("postgres://app:hunter2@db/app" as never)).toThrow(/got a string\.$/)
    await pool.end()
  })

  it("takes a third party's dialect built on one of Kysely's adapters, as the dialect of that adapter", async () => {
    // Third-party dialects (PGlite, Neon, libSQL…) extend Kysely's adapter classes.
    class ThirdPartyAdapter extends PostgresAdapter {}
    expect(dialectOf(offline(() => new ThirdPartyAdapter()), "test").name).toBe("postgres")
    expect(typeof KyselyAdapter(offline(() => new ThirdPartyAdapter())).createUser).toBe("function")
    const sqlite = new Kysely({ dialect: new SqliteDialect({ database: new Database(":memory:") }) })
    expect(dialectOf(sqlite, "test").name).toBe("sqlite")
    await sqlite.destroy()
  })
})

describe.each(dialects)("on $name", ({ open }) => {
  let run: DialectRun
  /** The current schema version. */
  let latest: number
  beforeAll(async () => {
    run = await open()
    latest = Math.max(...run.migrations.map((m) => m.version))
  })
  afterAll(() => run.close())

  it("migrate is idempotent, also when three runs start at once", async () => {
    // Three instances, as three app instances would have. On SQLite, three runs on one instance: a
    // process keeps one connection to a file (better-sqlite3 waits for a lock by blocking the
    // thread, so two connections of one process that both hold transactions across awaits would
    // wait for each other forever).
    const sqlite = run.name === "SQLite" ? run.kysely() : undefined
    const results = await Promise.all([1, 2, 3].map(() => migrate(sqlite ?? run.kysely())))
    const all = run.migrations.map(({ version, description }) => ({ version, description }))
    expect(results.flatMap((r) => r.applied).sort((a, b) => a.version - b.version)).toEqual(all)
    expect(results.map((r) => r.version)).toEqual([latest, latest, latest])
    expect(await migrate(run.kysely())).toEqual({ applied: [], version: latest })
    expect(await run.exec(`SELECT version, description FROM sesame_migrations ORDER BY version`)).toEqual(all)
  })

  it("implements every method the dialect's own adapter does", () => {
    expect(Object.keys(KyselyAdapter(run.kysely())).sort()).toEqual(Object.keys(run.nativeAdapter()).sort())
  })

  it("SesameDatabase lists every column of the tables migrate creates", async () => {
    await migrate(run.kysely())
    const tables = (await run.kysely().introspection.getTables()).filter((table) => table.schema === run.schema)
    for (const [role, name] of Object.entries(defaultTableNames) as [keyof TableNames, string][]) {
      const table = tables.find((candidate) => candidate.name === name)
      expect(table?.columns.map((column) => column.name).sort(), name).toEqual([...columnsOf[role]].sort())
    }
  })

  it("works on a database the dialect's own adapter migrated, and that adapter on one the Kysely adapter migrated", async () => {
    // Both directions, side by side: the default tables migrated by the other adapter first, the
    // renamed ones by this one first.
    await run.nativeMigrate()
    expect(await migrate(run.kysely())).toEqual({ applied: [], version: latest })
    const renamed = { tables: renamedTables, migrationsTable: "app_migrations" }
    expect((await migrate(run.kysely(), renamed)).version).toBe(latest)
    expect(await run.nativeMigrate(renamed)).toEqual({ applied: [], version: latest })

    for (const tables of [{}, renamedTables]) {
      const kysely = KyselyAdapter(run.kysely(), { tables })
      const native = run.nativeAdapter(tables)
      for (const [writer, reader] of [
        [kysely, native],
        [native, kysely],
      ] as [Adapter, Adapter][]) {
        const ada = await writer.createUser!(user())
        const session = { sessionToken: crypto.randomUUID(), userId: ada.id, expires: new Date(Date.now() + 86_400_000), factors: ["password" as const, "totp" as const] }
        await writer.createSession!(session)
        // Sesame's own models, through each adapter's store, on the tables the migrations made.
        const { passwords, recoveryCodes, signingKeys } = builtInModels
        const password = { userId: ada.id, hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", updatedAt: new Date("2025-01-02T03:04:05.678Z") }
        await writer.store!.create(passwords, password)
        for (const hash of ["a".repeat(64), "b".repeat(64)]) await writer.store!.create(recoveryCodes, { userId: ada.id, hash })
        expect(await reader.getSessionAndUser!(session.sessionToken)).toEqual({ session: expect.objectContaining(session), user: ada })
        expect(await reader.store!.findOne(passwords, { userId: ada.id })).toEqual(password)
        expect(await reader.store!.delete(recoveryCodes, { userId: ada.id, hash: "a".repeat(64) })).toBe(1)
        expect(await writer.store!.count(recoveryCodes, { userId: ada.id })).toBe(1)
        const key = { id: crypto.randomUUID(), algorithm: "EdDSA", publicKey: `{"kty":"OKP"}`, privateKey: "eyJ.a.b.c.d", createdAt: new Date("2025-01-02T03:04:05.678Z") }
        await writer.store!.create(signingKeys, key)
        expect(await reader.store!.findMany(signingKeys)).toContainEqual(key)
      }
    }
  })

  it("upgrades a database at version 1 to the current version, keeping its rows", async () => {
    const fresh = await open()
    const db = fresh.kysely()
    const dialect = dialectOf(db, "test")
    const logTable = { postgres: pgMigrationsTableSql, mysql: mysqlMigrationsTableSql, sqlite: sqliteMigrationsTableSql }[dialect.name]
    try {
      await checkUpgradeFromVersionOne({
        async createVersionOne() {
          await fresh.exec(logTable("sesame_migrations"))
          for (const statement of dialect.migrations[0]!.statements(defaultTableNames)) await fresh.exec(statement)
          await fresh.exec(`INSERT INTO sesame_migrations (version, description, ${dialect.statements.quote("appliedAt")}) VALUES (1, 'version one', ${dialect.name === "sqlite" ? "0" : "CURRENT_TIMESTAMP"})`)
        },
        exec: async (sql) => void (await fresh.exec(sql)),
        migrate: () => migrate(db),
        async tablesAmong(names) {
          const tables = (await db.introspection.getTables()).filter((table) => table.schema === fresh.schema)
          return tables.map((table) => table.name).filter((name) => names.includes(name)).sort()
        },
        adapter: () => KyselyAdapter(db),
      })
    } finally {
      await fresh.close()
    }
  })

  it("runs its statements, and migrate, without the instance's plugins (CamelCasePlugin would rename its columns)", async () => {
    const db = run.kysely([new CamelCasePlugin()])
    // Tables of their own, so that migrate really writes its record (`appliedAt`).
    const tables = Object.fromEntries(Object.entries(renamedTables).map(([role, name]) => [role, name.replace("app_", "camel_")]))
    expect((await migrate(db, { tables, migrationsTable: "camel_migrations" })).version).toBe(latest)
    const adapter = KyselyAdapter(db, { tables })
    const ada = await adapter.createUser!(user())
    const session = await adapter.createSession!({ sessionToken: crypto.randomUUID(), userId: ada.id, expires: new Date(Date.now() + 86_400_000) })
    expect(await adapter.getSessionAndUser!(session.sessionToken)).toEqual({ session, user: ada })
  })

  it("refuses table names that are not plain identifiers, or too long for the dialect", async () => {
    const db = run.kysely()
    const unsafe = `x"; DROP TABLE y; --`
    expect(() => KyselyAdapter(db, { tables: { sessions: unsafe } })).toThrow(/tables\.sessions must be a plain SQL identifier/)
    await expect(migrate(db, { tables: { users: unsafe } })).rejects.toThrow(/tables\.users must be a plain SQL identifier/)
    await expect(migrate(db, { migrationsTable: unsafe })).rejects.toThrow(/migrationsTable must be a plain SQL identifier/)
    expect(() => KyselyAdapter(db, { tables: { users: "u".repeat(run.maxNameLength) } })).not.toThrow()
    expect(() => KyselyAdapter(db, { tables: { users: "u".repeat(run.maxNameLength + 1) } })).toThrow(`at most ${run.maxNameLength} characters`)
  })
})

describe("on MariaDB", () => {
  let run: DialectRun
  let adapter: Adapter
  beforeAll(async () => {
    run = await mariaDb()
    const db = run.kysely()
    await migrate(db)
    adapter = KyselyAdapter(db)
  })
  afterAll(() => run.close())

  it("stores dates in UTC whatever the pool's time zone, and reads them back exactly", async () => {
    const ada = await adapter.createUser!(user())
    expect(ada.emailVerified?.toISOString()).toBe("2025-01-02T03:04:05.678Z")
    expect(await run.exec("SELECT CAST(`emailVerified` AS CHAR) AS `at` FROM `sesame_users` WHERE `id` = ?", [ada.id])).toEqual([{ at: "2025-01-02 03:04:05.678" }])
    expect(await adapter.getUser!(ada.id)).toEqual(ada)
    expect(await run.nativeAdapter().getUser!(ada.id)).toEqual(ada)
  })

  it("a delete that returns its row returns it to one of concurrent callers, as DELETE … RETURNING does, every time", async () => {
    const ada = await adapter.createUser!(user())
    const winners: number[] = []
    for (let round = 0; round < 10; round++) {
      const session = await adapter.createSession!({ sessionToken: crypto.randomUUID(), userId: ada.id, expires: new Date(Date.now() + 86_400_000) })
      const results = await Promise.all(Array.from({ length: 10 }, () => adapter.deleteSession!(session.sessionToken)))
      if (results.some((result) => result && result.sessionToken !== session.sessionToken)) throw new Error("a delete returned another session")
      winners.push(results.filter(Boolean).length)
    }
    expect(winners).toEqual(Array(10).fill(1))
  })

  it("rejects with the driver's error, whose statement has placeholders instead of the values (OAuth tokens)", async () => {
    const ada = await adapter.createUser!(user())
    const account = { userId: ada.id, type: "oauth" as const, provider: "github", providerAccountId: `gh-${unique()}`, access_token: `gho_${unique()}secret` }
    await adapter.linkAccount!(account)
    const error = (await Promise.resolve(adapter.linkAccount!(account)).catch((e: unknown) => e)) as { code?: string; sql?: string; message: string }
    expect(error.code).toBe("ER_DUP_ENTRY")
    expect(error.sql).toMatch(/^insert into `sesame_accounts` .* values \(\?, \?, \?/)
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(account.access_token)
  })
})

describe("on SQLite", () => {
  const file = join(mkdtempSync(join(tmpdir(), "sesame-kysely-")), "auth.db")
  const connection = new Database(file)
  // Readers do not block the writer, and a writer does not wait for readers.
  connection.pragma("journal_mode = WAL")
  const db = new Kysely({ dialect: new SqliteDialect({ database: connection }) })
  beforeAll(() => migrate(db))
  afterAll(() => db.destroy())

  it("switches foreign keys on before its first statement, also when that is a transaction", async () => {
    // better-sqlite3 opens connections with them on; SQLite's default, and other drivers', is off.
    const withoutForeignKeys = () => {
      const connection = new Database(file)
      connection.pragma("foreign_keys = OFF")
      return KyselyAdapter(new Kysely({ dialect: new SqliteDialect({ database: connection }) }))
    }
    const orphan = () => ({ sessionToken: crypto.randomUUID(), userId: "nobody", expires: new Date(Date.now() + 86_400_000) })
    await expect(withoutForeignKeys().createSession!(orphan())).rejects.toThrow(/FOREIGN KEY constraint failed/)
    await expect(withoutForeignKeys().transaction!((tx) => Promise.resolve(tx.createSession!(orphan())))).rejects.toThrow(/FOREIGN KEY constraint failed/)
  })

  it("takes the write lock when a transaction begins: one that reads first is not failed by another connection's write", async () => {
    const adapter = KyselyAdapter(db)
    const ada = await adapter.createUser!(user())
    // Another process, in effect, that does not wait for locks.
    const other = new Database(file, { timeout: 0 })
    let refused: unknown
    await adapter.transaction!(async (tx) => {
      await tx.getUser!(ada.id)
      try {
        other.prepare(`UPDATE "sesame_users" SET "name" = 'Other' WHERE "id" = ?`).run(ada.id)
      } catch (error) {
        refused = error
      }
      await tx.updateUser!({ id: ada.id, name: "Ada Lovelace" })
    })
    other.close()
    expect(refused).toMatchObject({ code: "SQLITE_BUSY" })
    expect((await adapter.getUser!(ada.id))?.name).toBe("Ada Lovelace")
  })

  it("holds the instance's other statements while a transaction is open: none joins it, or is rolled back with it", async () => {
    const adapter = KyselyAdapter(db)
    const [inside, outside] = [user(), user()]
    let opened!: () => void
    const isOpen = new Promise<void>((resolve) => (opened = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const rolledBack = adapter.transaction!(async (tx) => {
      await tx.createUser!(inside)
      opened()
      await released
      throw new Error("roll back")
    })
    await isOpen
    const created = Promise.resolve(adapter.createUser!(outside))
    release()
    await expect(rolledBack).rejects.toThrow("roll back")
    await created
    expect(await adapter.getUser!(inside.id)).toBeNull()
    expect(await adapter.getUser!(outside.id)).toEqual(outside)
  })
})
