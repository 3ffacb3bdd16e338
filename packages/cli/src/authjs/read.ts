/**
 * Reading an Auth.js database: which of its tables are there, and the few columns the check
 * needs. Auth.js's adapters name their tables differently, so the check looks for each known
 * layout (or takes `--tables`); the columns are the same in all of them, Auth.js's models
 * (`userId`, `emailVerified`, `sessionToken`, `expires`, …).
 *
 * Nothing here writes: the connection is a {@link ReadOnlyDatabase}, and only SELECTs are sent.
 *
 * @module
 */
import { identifier, readDate, type Row } from "@sesame/sql-common"
import type { ReadOnlyDatabase } from "../dialects.js"
import { CliError, usageError } from "../errors.js"

/** The tables of an Auth.js database, by role. */
export interface AuthjsTables {
  users: string
  accounts: string
  sessions?: string
  verificationTokens?: string
  authenticators?: string
}

export type AuthjsRole = keyof AuthjsTables

export const authjsRoles: readonly AuthjsRole[] = ["users", "accounts", "sessions", "verificationTokens", "authenticators"]

/** A layout of Auth.js tables: the names one family of Auth.js adapters gives them, each role's candidates in order. */
interface Layout {
  /** Who makes these tables, for the report. */
  by: string
  names: Record<AuthjsRole, readonly string[]>
}

/**
 * The default table names of Auth.js's adapters: `@auth/pg-adapter`'s schema.sql (TypeORM's,
 * D1's and most hand-written schemas name theirs alike, with `verification_tokens`); the models of
 * `@auth/kysely-adapter` and `@auth/prisma-adapter`; the tables of `@auth/drizzle-adapter`.
 */
const layouts: readonly Layout[] = [
  {
    by: "@auth/pg-adapter",
    names: {
      users: ["users"],
      accounts: ["accounts"],
      sessions: ["sessions"],
      verificationTokens: ["verification_token", "verification_tokens"],
      authenticators: ["authenticators"],
    },
  },
  {
    by: "@auth/kysely-adapter or @auth/prisma-adapter",
    names: { users: ["User"], accounts: ["Account"], sessions: ["Session"], verificationTokens: ["VerificationToken"], authenticators: ["Authenticator"] },
  },
  {
    by: "@auth/drizzle-adapter",
    names: { users: ["user"], accounts: ["account"], sessions: ["session"], verificationTokens: ["verificationToken"], authenticators: ["authenticator"] },
  },
]

/** One user, as the check needs it. */
export interface AuthjsUser {
  id: string
  email: string | null
  /** Whether `emailVerified` holds a date. */
  verified: boolean
}

/** Everything the check reads. */
export interface AuthjsData {
  tables: AuthjsTables
  /** Whose default names these are, when they were found rather than given. */
  layout?: string
  users: AuthjsUser[]
  accounts: { userId: string; provider: string; type: string }[]
  /** Absent without a sessions table (an app with JWT sessions only may have none). */
  sessions?: { token: string; expires: Date }[]
  verificationTokens?: { identifier: string; expires: Date }[]
  authenticators?: { userId: string }[]
}

/** The tables to read: the layout found in the database, with `given` (from `--tables`) over it. */
export function findTables(present: readonly string[], given: Partial<AuthjsTables>): { tables: AuthjsTables; layout?: string } {
  const has = new Set(present)
  const found = layouts.filter((l) => l.names.users.some((n) => has.has(n)))
  if (found.length > 1 && !given.users) {
    const names = found.map((l) => l.names.users[0]).join(", ")
    throw usageError(`This database has several tables that could be Auth.js's users (${names}): name the ones to read with --tables users=…,accounts=…,sessions=…`)
  }
  const layout = given.users ? layouts.find((l) => l.names.users.includes(given.users!)) : found[0]
  const pick = (role: AuthjsRole) => given[role] ?? layout?.names[role].find((n) => has.has(n))
  const users = pick("users")
  if (!users) {
    throw new CliError(
      `No Auth.js tables here: none of ${layouts.map((l) => l.names.users[0]).join(", ")} exists. Check --url (PostgreSQL: the search_path), or name the tables with --tables users=…,accounts=…`,
    )
  }
  const tables: Partial<AuthjsTables> = {}
  for (const role of authjsRoles) {
    const name = pick(role)
    if (!name) continue
    if (!has.has(name)) throw new CliError(`No table ${name} (Auth.js's ${role}) in this database: check the name given to --tables.`)
    tables[role] = identifier(`--tables ${role}`, name, 64)
  }
  if (!tables.accounts) throw new CliError(`There is a users table (${users}) but no accounts table beside it: name it with --tables accounts=…`)
  return { tables: tables as AuthjsTables, ...(!given.users && layout ? { layout: layout.by } : {}) }
}

/** Runs a SELECT, saying which table lacks a column when the database says so. */
async function select(db: ReadOnlyDatabase, table: string, role: AuthjsRole, columns: readonly string[]): Promise<Row[]> {
  const sql = `SELECT ${columns.map((c) => db.quote(c)).join(", ")} FROM ${db.quote(table)}`
  try {
    return await db.query(sql)
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown }
    const message = typeof e.message === "string" ? e.message : String(error)
    if (e.code === "42703" || e.code === "ER_BAD_FIELD_ERROR" || /no such column/i.test(message)) {
      throw new CliError(
        `The table ${table} lacks a column of Auth.js's ${role} (${columns.join(", ")}): ${message}. Is it Auth.js's? Name the right one with --tables ${role}=…`,
      )
    }
    throw error
  }
}

/** A stored date, or a clear error naming where it was. */
function date(value: unknown, table: string, column: string): Date | null {
  try {
    return readDate(value)
  } catch {
    throw new CliError(`Cannot read the date ${JSON.stringify(String(value))} in ${table}.${column}.`)
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value))

/** Reads what the check needs from the Auth.js tables of `db`. */
export async function readAuthjs(db: ReadOnlyDatabase, given: Partial<AuthjsTables>): Promise<AuthjsData> {
  const { tables, layout } = findTables(await db.tables(), given)
  const users = (await select(db, tables.users, "users", ["id", "email", "emailVerified"])).map((r) => ({
    id: text(r.id),
    email: typeof r.email === "string" && r.email !== "" ? r.email : null,
    verified: date(r.emailVerified, tables.users, "emailVerified") !== null,
  }))
  const accounts = (await select(db, tables.accounts, "accounts", ["userId", "provider", "type"])).map((r) => ({
    userId: text(r.userId),
    provider: text(r.provider),
    type: text(r.type),
  }))
  const data: AuthjsData = { tables, ...(layout ? { layout } : {}), users, accounts }
  if (tables.sessions) {
    data.sessions = (await select(db, tables.sessions, "sessions", ["sessionToken", "expires"])).map((r) => ({
      token: text(r.sessionToken),
      expires: date(r.expires, tables.sessions!, "expires") ?? new Date(0),
    }))
  }
  if (tables.verificationTokens) {
    data.verificationTokens = (await select(db, tables.verificationTokens, "verificationTokens", ["identifier", "expires"])).map((r) => ({
      identifier: text(r.identifier),
      expires: date(r.expires, tables.verificationTokens!, "expires") ?? new Date(0),
    }))
  }
  if (tables.authenticators) {
    data.authenticators = (await select(db, tables.authenticators, "authenticators", ["userId"])).map((r) => ({ userId: text(r.userId) }))
  }
  return data
}
