/**
 * The writes of the password, counter and second-factor methods that must be one statement: an `INSERT` that,
 * meeting a stored row with the same key, updates that row instead. One statement is what makes
 * them safe under concurrency: two `setPassword`s (or `setTwoFactor`s) for one user cannot both insert, and concurrent
 * `incrementCounter`s of one key each add one to the count the other left (the database locks the
 * row between them), where a read followed by a write would lose counts.
 *
 * PostgreSQL and SQLite write it `ON CONFLICT (key) DO UPDATE`, with the incoming row as
 * `excluded`; MySQL and MariaDB `ON DUPLICATE KEY UPDATE`, with the incoming row as `VALUES(col)`.
 * In all three the table's name, qualifying a column, names the stored row.
 *
 * @module
 */
import type { AdapterPassword, AdapterTwoFactor } from "@sesame/core/adapters"
import type { UpdateDialect } from "./update.js"

/** An {@link UpdateDialect} that also says how the dialect writes an upsert. */
export interface UpsertDialect extends UpdateDialect {
  /** `on-conflict` (PostgreSQL, SQLite) or `on-duplicate-key` (MySQL, MariaDB). */
  upsert: "on-conflict" | "on-duplicate-key"
}

/** A statement and its parameters, in order. */
export interface Statement {
  sql: string
  params: unknown[]
}

/** The pieces of an upsert on `table`, whose key is the one column `key`. */
function upsertParts(dialect: UpsertDialect, table: string, key: string) {
  const { quote } = dialect
  const onConflict = dialect.upsert === "on-conflict"
  return {
    /** `ON CONFLICT … DO UPDATE SET` or `ON DUPLICATE KEY UPDATE`. */
    update: onConflict ? `ON CONFLICT (${quote(key)}) DO UPDATE SET` : "ON DUPLICATE KEY UPDATE",
    /** The stored row's value of `column`. */
    stored: (column: string) => `${quote(table)}.${quote(column)}`,
    /** The value of `column` that the INSERT brought. */
    incoming: (column: string) => (onConflict ? `excluded.${quote(column)}` : `VALUES(${quote(column)})`),
    returning: dialect.returning ? " RETURNING *" : "",
    param: dialect.toParameter ?? ((value: unknown) => value),
  }
}

const columnList = (dialect: UpdateDialect, columns: readonly string[]) => columns.map((c) => dialect.quote(c)).join(", ")

/** Inserts the user's password hash, or replaces the one stored (`setPassword`). */
export function setPasswordSql(dialect: UpsertDialect, table: string, password: AdapterPassword): Statement {
  const { quote, placeholder } = dialect
  const { update, incoming, returning, param } = upsertParts(dialect, table, "userId")
  return {
    sql:
      `INSERT INTO ${quote(table)} (${columnList(dialect, ["userId", "hash", "updatedAt"])}) VALUES (${placeholder(1)}, ${placeholder(2)}, ${placeholder(3)}) ` +
      `${update} ${quote("hash")} = ${incoming("hash")}, ${quote("updatedAt")} = ${incoming("updatedAt")}${returning}`,
    params: [password.userId, password.hash, param(password.updatedAt)],
  }
}

/**
 * Inserts the user's second factor, or replaces every field of the one stored (`setTwoFactor`):
 * a null `secret` or `devicesRevokedAt` overwrites the earlier value. The foreign key to the users
 * table refuses an unknown user.
 */
export function setTwoFactorSql(dialect: UpsertDialect, table: string, twoFactor: AdapterTwoFactor): Statement {
  const { quote, placeholder } = dialect
  const { update, incoming, returning, param } = upsertParts(dialect, table, "userId")
  const replaced = ["method", "secret", "enabledAt", "devicesRevokedAt"]
  return {
    sql:
      `INSERT INTO ${quote(table)} (${columnList(dialect, ["userId", ...replaced])}) VALUES (${[1, 2, 3, 4, 5].map(placeholder).join(", ")}) ` +
      `${update} ${replaced.map((c) => `${quote(c)} = ${incoming(c)}`).join(", ")}${returning}`,
    params: [twoFactor.userId, twoFactor.method, twoFactor.secret, param(twoFactor.enabledAt), param(twoFactor.devicesRevokedAt)],
  }
}

/**
 * Adds one to the counter `key` and sets its expiry (`incrementCounter`): a new counter, or one that
 * expired by `now`, starts again at 1. `count` is assigned before `expires` because MySQL evaluates
 * the assignments in order, each seeing the ones before it: the expiry test must read the stored one.
 */
export function incrementCounterSql(dialect: UpsertDialect, table: string, key: string, expires: Date, now: Date): Statement {
  const { quote, placeholder } = dialect
  const { update, stored, incoming, returning, param } = upsertParts(dialect, table, "key")
  const count = `CASE WHEN ${stored("expires")} <= ${placeholder(3)} THEN 1 ELSE ${stored("count")} + 1 END`
  return {
    sql:
      `INSERT INTO ${quote(table)} (${columnList(dialect, ["key", "count", "expires"])}) VALUES (${placeholder(1)}, 1, ${placeholder(2)}) ` +
      `${update} ${quote("count")} = ${count}, ${quote("expires")} = ${incoming("expires")}${returning}`,
    params: [key, param(expires), param(now)],
  }
}
