/**
 * Each Auth.js adapter on each database it is run on, set up the way an app following the
 * adapter's documentation sets it up: the documented schema (schemas/), the documented driver,
 * the adapter built by its own factory and handed over unchanged. One subject per test file, on a
 * place of its own (places.ts).
 */
import type { Adapter } from "@auth/core/adapters"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import { readFileSync } from "node:fs"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import * as kit from "drizzle-kit/api"
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from "kysely"
import { mariaDbPlace, postgresPlace, sqlitePlace, type Place } from "./places.js"
import * as drizzleMysqlSchema from "./schemas/drizzle-mysql.js"
import * as drizzlePgSchema from "./schemas/drizzle-pg.js"
import * as drizzleSqliteSchema from "./schemas/drizzle-sqlite.js"
import { createKyselySchema, type KyselyDialectName } from "./schemas/kysely.js"
import { rawStore, type DateParam, type RawStore, type TableNames } from "./store.js"

/** An adapter on a database, open: its tables made, the adapter built. */
export interface Subject {
  /** The adapter, as its package's factory made it. */
  adapter: Adapter
  /** Raw reads and writes of its tables. */
  store: RawStore
  close(): Promise<void>
}

/** What the suite knows before opening a subject. */
export interface SubjectSpec {
  /** Which adapter on which database, for the suite's name. */
  name: string
  /** Whether the adapter implements Auth.js's authenticator methods, which passkeys need. */
  passkeys: boolean
  open(): Promise<Subject>
}

const asIs: DateParam = (date) => date

function subject(place: Place, adapter: Adapter, tables: TableNames, dateParam: DateParam, close?: () => Promise<void>): Subject {
  return {
    adapter,
    store: rawStore(place, tables, dateParam),
    async close() {
      await close?.()
      await place.close()
    },
  }
}

// @auth/pg-adapter ------------------------------------------------------------------------------

const pgAdapterTables: TableNames = { users: "users", accounts: "accounts", sessions: "sessions", verificationTokens: "verification_token" }

export const pgAdapterOnPostgres: SubjectSpec = {
  name: "@auth/pg-adapter on PostgreSQL",
  passkeys: false,
  async open() {
    const place = await postgresPlace("pg")
    await place.query(readFileSync(new URL("./schemas/pg-adapter.sql", import.meta.url), "utf8"))
    return subject(place, PostgresAdapter(place.pool()), pgAdapterTables, asIs)
  },
}

// @auth/kysely-adapter --------------------------------------------------------------------------

const kyselyTables: TableNames = { users: "User", accounts: "Account", sessions: "Session", verificationTokens: "VerificationToken" }

async function kyselySubject(place: Place, db: Kysely<object>, dialect: KyselyDialectName, dateParam: DateParam): Promise<Subject> {
  await createKyselySchema(db, dialect)
  // The adapter types its argument as Kysely<Database> (its tables, which the schema has).
  const adapter = KyselyAdapter(db as unknown as Parameters<typeof KyselyAdapter>[0])
  return subject(place, adapter, kyselyTables, dateParam, () => db.destroy())
}

export const kyselyOnPostgres: SubjectSpec = {
  name: "@auth/kysely-adapter on PostgreSQL",
  passkeys: false,
  async open() {
    const place = await postgresPlace("kysely")
    return kyselySubject(place, new Kysely({ dialect: new PostgresDialect({ pool: place.pool() }) }), "postgres", asIs)
  },
}

export const kyselyOnMariaDb: SubjectSpec = {
  name: "@auth/kysely-adapter on MariaDB",
  passkeys: false,
  async open() {
    const place = await mariaDbPlace("kysely")
    return kyselySubject(place, new Kysely({ dialect: new MysqlDialect({ pool: place.pool().pool }) }), "mysql", asIs)
  },
}

export const kyselyOnSqlite: SubjectSpec = {
  name: "@auth/kysely-adapter on SQLite",
  passkeys: false,
  async open() {
    const place = await sqlitePlace("kysely")
    // The adapter writes dates into SQLite as ISO strings (its `format.to`).
    return kyselySubject(place, new Kysely({ dialect: new SqliteDialect({ database: place.open() }) }), "sqlite", (date) => date.toISOString())
  },
}

// @auth/drizzle-adapter -------------------------------------------------------------------------

const drizzleTables: TableNames = { users: "user", accounts: "account", sessions: "session", verificationTokens: "verificationToken", authenticators: "authenticator" }

/**
 * The documented schema as the adapter's second argument ("Passing your own Schemas"), so that
 * the adapter's types check the tables.
 */
function schemaOf<U, A, S, V, K>(tables: { users: U; accounts: A; sessions: S; verificationTokens: V; authenticators: K }) {
  return {
    usersTable: tables.users,
    accountsTable: tables.accounts,
    sessionsTable: tables.sessions,
    verificationTokensTable: tables.verificationTokens,
    authenticatorsTable: tables.authenticators,
  }
}

export const drizzleOnPostgres: SubjectSpec = {
  name: "@auth/drizzle-adapter on PostgreSQL",
  passkeys: true,
  async open() {
    const place = await postgresPlace("drizzle")
    const statements = await kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson({ ...drizzlePgSchema }))
    // drizzle-kit qualifies referenced tables with "public"; here they live in the place's schema.
    for (const statement of statements) await place.query(statement.replaceAll(`"public".`, ""))
    return subject(place, DrizzleAdapter(drizzlePg(place.pool()), schemaOf(drizzlePgSchema)), drizzleTables, asIs)
  },
}

export const drizzleOnMariaDb: SubjectSpec = {
  name: "@auth/drizzle-adapter on MariaDB",
  passkeys: true,
  async open() {
    const place = await mariaDbPlace("drizzle")
    const statements = await kit.generateMySQLMigration(await kit.generateMySQLDrizzleJson({}), await kit.generateMySQLDrizzleJson({ ...drizzleMysqlSchema }))
    for (const statement of statements) await place.query(statement)
    return subject(place, DrizzleAdapter(drizzleMysql(place.pool()), schemaOf(drizzleMysqlSchema)), drizzleTables, asIs)
  },
}

export const drizzleOnSqlite: SubjectSpec = {
  name: "@auth/drizzle-adapter on SQLite",
  passkeys: true,
  async open() {
    const place = await sqlitePlace("drizzle")
    const statements = await kit.generateSQLiteMigration(await kit.generateSQLiteDrizzleJson({}), await kit.generateSQLiteDrizzleJson({ ...drizzleSqliteSchema }))
    for (const statement of statements) await place.query(statement)
    // The schema stores dates as milliseconds (`timestamp_ms`).
    return subject(place, DrizzleAdapter(drizzleSqlite(place.open()), schemaOf(drizzleSqliteSchema)), drizzleTables, (date) => date.getTime())
  },
}
