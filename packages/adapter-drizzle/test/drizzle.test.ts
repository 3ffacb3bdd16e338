/**
 * What the conformance suite does not cover, on each dialect: races between separate
 * connections, an app's own columns, the schema the exported tables make, byte-exact keys,
 * millisecond dates and transaction isolation.
 */
import DrizzleAdapter, { migrate as migrateDrizzle } from "@sesame/adapter-drizzle"
import { sqliteTables } from "@sesame/adapter-drizzle/sqlite"
import { builtInModels, type Adapter, type AdapterUser, type ModelDeclaration } from "@sesame/core/adapters"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { sqliteTable, text } from "drizzle-orm/sqlite-core"
import { migrate } from "@sesame/adapter-sqlite"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import mysql from "mysql2/promise"
import pg from "pg"
import { sqliteCreateSql } from "./create-tables.js"
import { mariaDbRun, postgresRun } from "./services.js"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeSqlite, mariaDb, postgres, sqlite, withTables, type DialectRun } from "./dialects.js"

const runs = await Promise.all([postgres(), mariaDb(), sqlite()])

afterAll(async () => {
  await Promise.all(runs.map((run) => run.close()))
})

const unique = () => crypto.randomUUID().slice(0, 8)
const hour = 3_600_000

function user(overrides: Partial<AdapterUser> = {}): AdapterUser {
  return { id: crypto.randomUUID(), email: `d-${unique()}@example.com`, emailVerified: null, name: "Drizzle", image: null, ...overrides }
}

describe.each(runs.map((run) => [run.name, run] as const))("DrizzleAdapter on %s", (_, run: DialectRun) => {
  let adapter: Adapter
  /** The same tables through another database object: another app instance. */
  let elsewhere: Adapter

  beforeAll(async () => {
    const made = await withTables(run)
    adapter = made.adapter
    elsewhere = run.adapter({ tables: made.tables })
  })

  it("twenty concurrent uses of one verification token over two connections: exactly one gets it", async () => {
    const token = { identifier: `v-${unique()}@example.com`, token: unique(), expires: new Date(Date.now() + hour) }
    await adapter.createVerificationToken!(token)
    // Open every pooled connection first, so that the uses below really run side by side.
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? adapter : elsewhere).getUser!("warm-up")))
    const uses = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? adapter : elsewhere).useVerificationToken!(token))
    const results = await Promise.all(uses)
    expect(results.filter((r) => r !== null)).toHaveLength(1)
    expect(await run.raw().verificationToken(token)).toBeNull()
  })

  it("two connections creating the same email at once make one user", async () => {
    const email = `race-${unique()}@example.com`
    const results = await Promise.allSettled([adapter.createUser!(user({ email })), elsewhere.createUser!(user({ email }))])
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
    const [{ n }] = (await run.query(`SELECT COUNT(*) AS n FROM sesame_users WHERE email = ?`, [email])) as [{ n: unknown }]
    expect(Number(n)).toBe(1)
  })

  it("round-trips dates to the millisecond", async () => {
    const created = await adapter.createUser!(user({ emailVerified: new Date(1_700_000_000_123) }))
    expect((await elsewhere.getUser!(created.id))?.emailVerified?.getTime()).toBe(1_700_000_000_123)
    const sessionToken = `s-${unique()}`
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + hour + 7)
    await adapter.createSession!({ sessionToken, userId: created.id, expires, lastUsedAt: new Date(1_700_000_000_999) })
    const found = await elsewhere.getSessionAndUser!(sessionToken)
    expect(found?.session.expires.getTime()).toBe(expires.getTime())
    expect(found?.session.lastUsedAt?.getTime()).toBe(1_700_000_000_999)
  })

  it("compares keys byte for byte: ids, tokens and emails differing only in case are different rows", async () => {
    const owner = await adapter.createUser!(user({ email: `Case-${unique()}@Example.com` }))
    await adapter.createUser!(user({ email: owner.email.toLowerCase() }))
    expect((await adapter.getUserByEmail!(owner.email))?.id).toBe(owner.id)
    const credential = `Cred-${unique()}`
    const base = { userId: owner.id, providerAccountId: "pa", credentialPublicKey: "pk", counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false }
    await adapter.createAuthenticator!({ ...base, credentialID: credential })
    await adapter.createAuthenticator!({ ...base, credentialID: credential.toLowerCase(), counter: 7 })
    expect((await adapter.getAuthenticator!(credential))?.counter).toBe(0)
    const token = { identifier: owner.email, token: `Tok-${unique()}`, expires: new Date(Date.now() + hour) }
    await adapter.createVerificationToken!(token)
    expect(await adapter.useVerificationToken!({ ...token, token: token.token.toLowerCase() })).toBeNull()
    expect(await adapter.useVerificationToken!(token)).toEqual(token)
  })

  it("has the unique keys, the lookup indexes and the cascading foreign keys of the SQLite adapter's schema", async () => {
    const { indexes, cascades } = await run.describe()
    const on = (table: string) => indexes.filter((i) => i.table === table).map(({ unique, columns }) => ({ unique, columns }))
    expect(on("sesame_users")).toContainEqual({ unique: true, columns: ["email"] })
    expect(on("sesame_users")).toContainEqual({ unique: true, columns: ["id"] })
    expect(on("sesame_accounts")).toContainEqual({ unique: true, columns: ["provider", "providerAccountId"] })
    expect(on("sesame_accounts")).toContainEqual({ unique: false, columns: ["userId"] })
    expect(on("sesame_sessions")).toContainEqual({ unique: true, columns: ["sessionToken"] })
    expect(on("sesame_sessions")).toContainEqual({ unique: false, columns: ["userId"] })
    expect(on("sesame_verificationTokens")).toContainEqual({ unique: true, columns: ["identifier", "token"] })
    expect(on("sesame_authenticators")).toContainEqual({ unique: true, columns: ["credentialID"] })
    expect(on("sesame_authenticators")).toContainEqual({ unique: false, columns: ["userId"] })
    expect(on("sesame_passwords")).toContainEqual({ unique: true, columns: ["userId"] })
    expect(on("sesame_counters")).toContainEqual({ unique: true, columns: ["key"] })
    expect(on("sesame_two_factors")).toContainEqual({ unique: true, columns: ["userId"] })
    expect(on("sesame_recovery_codes")).toContainEqual({ unique: true, columns: ["userId", "hash"] })
    expect(on("sesame_signing_keys")).toContainEqual({ unique: true, columns: ["id"] })
    expect(cascades.filter((c) => c.startsWith("sesame_")).sort()).toEqual([
      "sesame_accounts.userId",
      "sesame_authenticators.userId",
      "sesame_passwords.userId",
      "sesame_recovery_codes.userId",
      "sesame_sessions.userId",
      "sesame_two_factors.userId",
    ])
  })

  it("works with an app's users table that adds a column, under other table names", async () => {
    const names = renamedTables
    const tables = run.extendedTables(names)
    await run.create(tables)
    const app = run.adapter({ tables })
    type Member = AdapterUser & { role: string }
    const admin = (await app.createUser!({ ...user(), role: "admin" } as Member)) as Member
    expect(admin.role).toBe("admin")
    const member = (await app.createUser!(user())) as Member
    expect(member.role).toBe("member")
    expect(((await app.updateUser!({ id: member.id, role: "owner" } as Partial<Member> & { id: string })) as Member).role).toBe("owner")
    expect(((await app.getUserByEmail!(admin.email)) as Member).role).toBe("admin")
    const account = { userId: admin.id, type: "oidc" as const, provider: "idp", providerAccountId: `sub-${unique()}` }
    await app.linkAccount!(account)
    expect(((await app.getUserByAccount!(account)) as Member).role).toBe("admin")
    const sessionToken = `s-${unique()}`
    await app.createSession!({ sessionToken, userId: admin.id, expires: new Date(Date.now() + hour) })
    expect(((await app.getSessionAndUser!(sessionToken))?.user as Member).role).toBe("admin")
    // Sesame's own models go to the renamed tables the adapter was given.
    const { passwords, twoFactors, recoveryCodes } = builtInModels
    const password = { userId: admin.id, hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date(1_700_000_000_123) }
    await app.store!.create(passwords, password)
    await app.store!.create(twoFactors, { userId: admin.id, method: "email", secret: null, enabledAt: new Date(1_700_000_000_123), devicesRevokedAt: null })
    await app.store!.create(recoveryCodes, { userId: admin.id, hash: "a".repeat(64) })
    const raw = run.raw(names)
    expect(await raw.password!(admin.id)).toEqual(password)
    expect(await raw.recoveryCodes!(admin.id)).toEqual(["a".repeat(64)])
    await app.deleteUser!(admin.id)
    expect(await raw.password!(admin.id)).toBeNull()
    expect(await raw.twoFactor!(admin.id)).toBeNull()
    expect(await raw.recoveryCodes!(admin.id)).toEqual([])
    expect(await raw.account(account)).toBeNull()
    expect(await raw.session(sessionToken)).toBeNull()
    // The default tables were not touched.
    expect(await adapter.getUserByEmail!(admin.email)).toBeNull()
  })

  it("rejects a broken rule with the driver's error, which names no parameter (tokens stay out of logs)", async () => {
    const owner = await adapter.createUser!(user())
    const account = { userId: owner.id, type: "oauth" as const, provider: "github", providerAccountId: `gh-${unique()}`, access_token: "gho_secret-access-token" }
    await adapter.linkAccount!(account)
    const error = (await Promise.resolve(adapter.linkAccount!(account)).then(
      () => null,
      (e: unknown) => e,
    )) as Error
    expect(error).toBeInstanceOf(Error)
    const everything = `${error.message} ${error.stack} ${JSON.stringify(error)} ${String((error as { cause?: unknown }).cause ?? "")}`
    expect(everything).not.toContain("secret-access-token")
  })

  it("keeps a transaction's writes from other connections until it commits", async () => {
    const input = user()
    await adapter.transaction!(async (tx) => {
      const created = await tx.createUser!(input)
      await tx.linkAccount!({ userId: created.id, type: "oauth", provider: "github", providerAccountId: `gh-${unique()}` })
      expect(await run.raw().user(input.id)).toBeNull()
    })
    expect(await elsewhere.getUser!(input.id)).toMatchObject({ email: input.email })
  })
})

describe("DrizzleAdapter on SQLite: one connection shared by concurrent requests", () => {
  const run = runs[2]!

  it("holds the adapter's other statements back while a transaction is open", async () => {
    const adapter = run.adapter({ tables: run.tables() })
    const input = user()
    const seen: string[] = []
    let outside: Promise<unknown> | undefined
    await adapter.transaction!(async (tx) => {
      await tx.createUser!(input)
      // Another request on the same connection, while this transaction is open: it must not see
      // the uncommitted user (nor could its writes be allowed to join this transaction).
      outside = Promise.resolve(adapter.getUserByEmail!(input.email)).then((found) => seen.push(found ? "outside: found" : "outside: none"))
      await new Promise((resolve) => setImmediate(resolve))
      seen.push("transaction: commits")
    })
    await outside
    expect(seen).toEqual(["transaction: commits", "outside: found"])
  })

  it("switches foreign keys on for its connection, since cascades and references rest on them", async () => {
    const connection = new Database(":memory:")
    connection.pragma("foreign_keys = OFF")
    DrizzleAdapter(drizzle(connection))
    expect(connection.pragma("foreign_keys", { simple: true })).toBe(1)
    connection.close()
  })

  it("refuses tables of another dialect, and objects that are no Drizzle database", async () => {
    const connection = new Database(":memory:")
    const { pgTables } = await import("@sesame/adapter-drizzle/pg")
    expect(() => DrizzleAdapter(drizzle(connection), { tables: { users: pgTables().users } })).toThrow(/tables\.users is not a SQLite table/)
    expect(() => DrizzleAdapter(connection as never)).toThrow(/expected a Drizzle database/)
    connection.close()
  })

  it("rolls back when the transaction throws, and the connection stays usable", async () => {
    const adapter = run.adapter({ tables: run.tables() })
    const input = user()
    await expect(
      adapter.transaction!(async (tx) => {
        await tx.createUser!(input)
        throw new Error("changed my mind")
      }),
    ).rejects.toThrow("changed my mind")
    expect(await adapter.getUser!(input.id)).toBeNull()
    expect((await adapter.createUser!(input)).id).toBe(input.id)
  })
})

describe("DrizzleAdapter on SQLite: the schema of @sesame/adapter-sqlite", () => {
  const columns = (db: Database.Database, table: string) =>
    (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string; notnull: number; pk: number }[]).map(({ name, type, notnull, pk }) => ({ name, type, notnull, pk }))

  it("has the same tables, columns, indexes and foreign keys", async () => {
    const fromDrizzle = new Database(":memory:")
    for (const statement of await sqliteCreateSql(sqliteTables())) fromDrizzle.exec(statement)
    const fromAdapter = new Database(":memory:")
    migrate(fromAdapter)
    for (const table of [
      "sesame_users",
      "sesame_accounts",
      "sesame_sessions",
      "sesame_verificationTokens",
      "sesame_authenticators",
      "sesame_passwords",
      "sesame_counters",
      "sesame_two_factors",
      "sesame_recovery_codes",
      "sesame_signing_keys",
    ]) {
      expect(columns(fromDrizzle, table)).toEqual(columns(fromAdapter, table))
    }
    const facts = (db: Database.Database) => {
      const { indexes, cascades } = describeSqlite(db)
      return { indexes: indexes.filter((i) => i.table.startsWith("sesame_") && i.table !== "sesame_migrations").map((i) => JSON.stringify(i)).sort(), cascades: cascades.sort() }
    }
    expect(facts(fromDrizzle)).toEqual(facts(fromAdapter))
  })

  it("works on a database that @sesame/adapter-sqlite created", async () => {
    const connection = new Database(":memory:")
    migrate(connection)
    const adapter = DrizzleAdapter(drizzle(connection))
    const created = await adapter.createUser!(user({ emailVerified: new Date(1_700_000_000_123) }))
    await adapter.createSession!({ sessionToken: "s", userId: created.id, expires: new Date(1_800_000_000_000) })
    expect((await adapter.getSessionAndUser!("s"))?.user).toEqual(created)
    // And what it wrote reads back through the SQLite adapter's own mapping.
    expect(connection.prepare(`SELECT "emailVerified", "expires" FROM sesame_users JOIN sesame_sessions ON "userId" = sesame_users.id`).get()).toEqual({
      emailVerified: 1_700_000_000_123,
      expires: 1_800_000_000_000,
    })
  })
})

// Which table a name goes to is decided before any dialect's SQL, so SQLite stands for the three.
describe("DrizzleAdapter on SQLite: a declared model's table given as a Drizzle table", () => {
  it("is the model's table, in migrate and in the store, under the Drizzle table's name", async () => {
    const connection = new Database(":memory:")
    migrate(connection)
    const db = drizzle(connection)
    const model: ModelDeclaration = {
      name: "drizzleRenamedNote",
      table: "plugin_notes",
      primaryKey: "id",
      fields: { id: { type: "string" }, userId: { type: "string", references: { model: "user" } }, title: { type: "string" } },
    }
    const notes = sqliteTable("app_notes", { id: text("id").primaryKey(), userId: text("userId").notNull(), title: text("title").notNull() })
    const tables = { ...sqliteTables(), drizzleRenamedNote: notes }
    expect(await migrateDrizzle(db, { models: [model], tables })).toEqual({ created: ["app_notes"], altered: [] })
    const adapter = DrizzleAdapter(db, { tables })
    const owner = await adapter.createUser!(user())
    await adapter.store!.create(model, { id: "n", userId: owner.id, title: "Hello" })
    expect(connection.prepare(`SELECT "id", "title" FROM app_notes`).all()).toEqual([{ id: "n", title: "Hello" }])
    expect(connection.prepare(`SELECT name FROM sqlite_master WHERE name = 'plugin_notes'`).all()).toEqual([])
    connection.close()
  })
})

describe("a server that is not there", () => {
  // Port 9 (discard) is closed on this machine.
  it("rejects the adapter's calls with the driver's error", async () => {
    const pgPool = new pg.Pool({ host: "127.0.0.1", port: 9, user: "postgres", connectionTimeoutMillis: 1000 })
    await expect(DrizzleAdapter(drizzlePg(pgPool)).getUser!("someone")).rejects.toThrow(/ECONNREFUSED/)
    await pgPool.end()
    const mysqlPool = mysql.createPool({ host: "127.0.0.1", port: 9, user: "root", connectTimeout: 1000 })
    await expect(DrizzleAdapter(drizzleMysql(mysqlPool)).createUser!(user())).rejects.toThrow(/ECONNREFUSED/)
    await mysqlPool.end()
  })

  it("makes the tests' own setup name the command that starts the server", async () => {
    await expect(postgresRun(9)).rejects.toThrow(/Start it with:\n {2}pg_ctlcluster/)
    await expect(mariaDbRun(9)).rejects.toThrow(/Start it with:\n {2}start-stop-daemon --start/)
  })
})
