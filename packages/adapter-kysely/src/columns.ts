/**
 * The columns the adapter reads, table by table (the spec's five, and the app's user fields; the
 * store reads its models' tables itself). It names them rather than selecting `*` because MySQL's
 * dates need a cast: mysql2 turns a `DATETIME` into a `Date` in the pool's time zone (local time
 * unless the app set `timezone`), which the adapter cannot know, so it reads each date as text
 * (`CAST(… AS CHAR)`, `YYYY-MM-DD hh:mm:ss.fff`, stored in UTC) whatever the pool's settings.
 * The lists are records checked against the table types of `tables.ts`, so a column added to one
 * and not the other fails to compile.
 *
 * @module
 */
import type { UserFieldColumn } from "@sesame/sql-common"
import { sql, type AliasedRawBuilder } from "kysely"
import type { DialectName } from "./dialect.js"
import type {
  SesameAccountsTable,
  SesameAuthenticatorsTable,
  SesameSessionsTable,
  SesameUsersTable,
  SesameVerificationTokensTable,
} from "./tables.js"

/** Each column of a table once: the compiler refuses a missing or an unknown one. */
type Every<T> = { readonly [K in keyof T]-?: true }

const every = {
  users: { id: true, name: true, email: true, emailVerified: true, image: true } satisfies Every<SesameUsersTable>,
  accounts: {
    id: true,
    userId: true,
    type: true,
    provider: true,
    providerAccountId: true,
    refresh_token: true,
    access_token: true,
    expires_at: true,
    token_type: true,
    scope: true,
    id_token: true,
    session_state: true,
  } satisfies Every<SesameAccountsTable>,
  sessions: {
    sessionToken: true,
    userId: true,
    expires: true,
    createdAt: true,
    lastUsedAt: true,
    userAgent: true,
    factors: true,
  } satisfies Every<SesameSessionsTable>,
  verificationTokens: { identifier: true, token: true, expires: true } satisfies Every<SesameVerificationTokensTable>,
  authenticators: {
    credentialID: true,
    userId: true,
    providerAccountId: true,
    credentialPublicKey: true,
    counter: true,
    credentialDeviceType: true,
    credentialBackedUp: true,
    transports: true,
    name: true,
    createdAt: true,
  } satisfies Every<SesameAuthenticatorsTable>,
}

/** The role of a table the adapter reads, as `TableNames` names it: `users`, `accounts`, … */
export type Role = keyof typeof every

/** The columns of each table, in the order of its type. */
export const tableColumns = Object.fromEntries(Object.entries(every).map(([role, columns]) => [role, Object.keys(columns)])) as Record<Role, string[]>

/** The columns that hold dates, in every table. */
const dateColumns = new Set(["emailVerified", "expires", "createdAt", "lastUsedAt"])

/** One item of a select list: a column, or a cast column with its name. */
export type Selection = string | AliasedRawBuilder<unknown, string>

/** Column `ref` read as `name`; a MySQL date as its text. */
function selected(dialect: DialectName, ref: string, name: string, date: boolean): Selection {
  if (dialect === "mysql" && date) return sql`CAST(${sql.ref(ref)} AS CHAR)`.as(name)
  return ref === name ? ref : `${ref} as ${name}`
}

/**
 * The select list that reads every column of `role`'s table, qualified by `alias` when given and
 * named with `prefix` before each column (`u_` for the user of a session's row).
 */
export function selection(dialect: DialectName, role: Role, alias?: string, prefix = ""): Selection[] {
  return tableColumns[role].map((column) => selected(dialect, alias ? `${alias}.${column}` : column, prefix + column, dateColumns.has(column)))
}

/**
 * The select list of the app's user fields (`withUserFields`) on the users table, qualified by
 * `alias` when given; in a join (`joined`), each named by its alias there (`u_f0`, …), as
 * `UserTable.toJoinedUser` reads them.
 */
export function userFieldSelection(dialect: DialectName, fields: readonly UserFieldColumn[], alias?: string, joined = false): Selection[] {
  return fields.map((f) => selected(dialect, alias ? `${alias}.${f.column}` : f.column, joined ? f.alias : f.column, f.field.type === "date"))
}
