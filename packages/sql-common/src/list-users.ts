/**
 * `listUsers` in SQL, for every dialect: one statement per page, keyset-paged.
 *
 * The page starts after the cursor's (email, id) and is ordered by email, then id, in the column's
 * collation, which the comparisons use too, so pages neither repeat nor skip a user. The users
 * table's unique index on `email` serves both: a page without a search reads about `limit` rows
 * of the index from the cursor on. A search is a part of the email or the name, matched with
 * `LIKE` on both sides lowered (`LOWER`, as the database folds case: SQLite only folds ASCII):
 * no B-tree index serves a `%…%` pattern, so a page with a search reads the table from the cursor
 * on until it has `limit + 1` matches, or to its end. That is the cost of a search box over a
 * few hundred thousand users, not a millions-of-users full-text search.
 *
 * The search is bound as a parameter and its `LIKE` wildcards are escaped ({@link likeContaining}),
 * so `%`, `_` and the escape character match themselves: a search is data, never a pattern.
 *
 * @module
 */
import type { CheckedUserListQuery } from "@sesame/core/adapters"
import { quote } from "./store/names.js"
import type { SqlDialect } from "./store/types.js"

/** The escape character of the `LIKE` patterns {@link likeContaining} makes (`ESCAPE '!'`): one that no dialect's string literals treat specially, unlike `\`. */
export const likeEscape = "!"

/** The `LIKE` pattern of text containing `part` as it is: `%part%`, with `%`, `_` and `!` escaped by `!`. */
export function likeContaining(part: string): string {
  return `%${part.replace(/[!%_]/g, (c) => likeEscape + c)}%`
}

/** A statement and its parameters. */
export interface SqlStatement {
  sql: string
  params: unknown[]
}

/**
 * The `SELECT` of one page of `listUsers` on the users table `table`: `limit + 1` rows at most
 * (the one more says whether there is a next page), every column (`*`, read as `getUser` reads
 * them).
 */
export function listUsersSql(dialect: SqlDialect, table: string, query: CheckedUserListQuery): SqlStatement {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100) throw new TypeError("listUsers: `limit` must be an integer from 1 to 100.")
  const q = (name: string) => quote(dialect, name)
  const params: unknown[] = []
  const param = (value: unknown) => {
    params.push(value)
    return dialect === "pg" ? `$${params.length}` : "?"
  }
  const where: string[] = []
  if (query.after) {
    // `>=` first: the index on email gives the range, the rest picks up after the cursor's id.
    const email = param(query.after.email)
    where.push(`${q("email")} >= ${email} AND (${q("email")} > ${param(query.after.email)} OR ${q("id")} > ${param(query.after.id)})`)
  }
  if (query.search !== "") {
    const like = (column: string) => `LOWER(${q(column)}) LIKE LOWER(${param(likeContaining(query.search))}) ESCAPE '${likeEscape}'`
    where.push(`(${like("email")} OR ${like("name")})`)
  }
  const filter = where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""
  // `limit` is a checked integer (1 to 100): written as a literal, since MySQL's prepared `LIMIT ?` takes no JavaScript number.
  return { sql: `SELECT * FROM ${q(table)}${filter} ORDER BY ${q("email")}, ${q("id")} LIMIT ${query.limit + 1}`, params }
}
