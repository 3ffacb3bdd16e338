/**
 * Listing users a page at a time (`Adapter.listUsers`, for admin tools): the query's rules, the
 * cursor and the page, written once so that every Sesame adapter keeps them alike.
 *
 * - The order is by email, then id: one total order, so that a page never repeats or skips a user
 *   however many share a prefix. Text compares as the storage compares it (an SQL column's
 *   collation; code units in memory and Redis); the cursor is compared the same way, so paging
 *   holds whatever the collation.
 * - The cursor is the last listed user's email and id, as JSON in base64url. It is a position,
 *   not a secret nor a permission: whoever may list users may start anywhere, and a made-up one
 *   only starts the list elsewhere. What does not decode to one is refused (`TypeError`).
 * - `search` is data, never a pattern: a case-insensitive substring of the email or the name,
 *   trimmed, empty for every user. SQL adapters escape `LIKE`'s wildcards
 *   (`@sesame/sql-common`'s `likeContaining`); the others compare in JavaScript ({@link matchesSearch}).
 *
 * Bad input is a `TypeError`, as the store's contract has it for its callers' mistakes: the
 * checked adapter passes it on as it is (never an `AdapterError`), so that its caller can answer
 * it as bad input rather than as a storage failure.
 *
 * @module
 */
import { base64url, encoder, fromBase64url } from "../crypto/encoding.js"
import type { AdapterUser } from "./types.js"

/** What `listUsers` is asked. */
export interface UserListQuery {
  /** A part of the email or the name to look for, whatever its case (trimmed; empty: every user). */
  search?: string
  /** How many users a page holds at most: 1 to {@link maxUserListLimit}. */
  limit: number
  /** Where the page starts: the `next` of the page before. Absent: the first page. */
  cursor?: string
}

/** A page of users, and the cursor of the next one (null on the last). */
export interface UserListPage {
  users: AdapterUser[]
  next: string | null
}

/** The largest `limit`. */
export const maxUserListLimit = 100
/** The longest `search`, in characters (after trimming): an address is at most 254. */
export const maxUserListSearch = 256

/**
 * A query checked: its `search` trimmed (`""` for every user; its case kept, for SQL's `LOWER` to
 * fold as it folds the columns), the position it starts after.
 */
export interface CheckedUserListQuery {
  search: string
  limit: number
  /** The last user of the page before, or null for the first page. */
  after: { email: string; id: string } | null
}

const strict = new TextDecoder("utf-8", { fatal: true })

/** The cursor of a page whose last user is `user`. */
export function userListCursor(user: Pick<AdapterUser, "email" | "id">): string {
  return base64url(encoder.encode(JSON.stringify([user.email, user.id])))
}

/** The position a cursor holds; a `TypeError` when it is not one that {@link userListCursor} made. */
function readCursor(cursor: unknown): { email: string; id: string } {
  const refuse = (): never => {
    throw new TypeError("listUsers: `cursor` is not one this adapter gave; start again without it.")
  }
  if (typeof cursor !== "string" || cursor.length === 0 || cursor.length > 4096) return refuse()
  const bytes = fromBase64url(cursor)
  if (!bytes) return refuse()
  let value: unknown
  try {
    value = JSON.parse(strict.decode(bytes))
  } catch {
    return refuse()
  }
  if (!Array.isArray(value) || value.length !== 2) return refuse()
  const [email, id] = value as unknown[]
  if (typeof email !== "string" || typeof id !== "string" || email.length === 0 || id.length === 0) return refuse()
  // No database stores U+0000 in text, and PostgreSQL refuses a parameter holding it.
  if (email.includes("\u0000") || id.includes("\u0000")) return refuse()
  return { email, id }
}

/**
 * Checks what every adapter's `listUsers` takes alike, whatever its cursors: `limit` an integer
 * from 1 to 100, `search` a string (trimmed, at most {@link maxUserListSearch} characters, no
 * U+0000), `cursor` a string when given. Returns the trimmed search; throws a `TypeError` naming
 * what is wrong. The checked adapter runs it before calling any adapter.
 */
export function checkUserListLimits(query: unknown): { search: string; limit: number; cursor: string | undefined } {
  if (typeof query !== "object" || query === null) throw new TypeError("listUsers: the query must be an object ({ search?, limit, cursor? }).")
  const { search, limit, cursor } = query as Record<string, unknown>
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxUserListLimit) {
    throw new TypeError(`listUsers: \`limit\` must be an integer from 1 to ${maxUserListLimit}; got ${typeof limit === "number" ? limit : typeof limit}.`)
  }
  if (search !== undefined && typeof search !== "string") throw new TypeError(`listUsers: \`search\` must be a string; got ${typeof search}.`)
  const text = (search ?? "").trim()
  if (text.length > maxUserListSearch) throw new TypeError(`listUsers: \`search\` must be at most ${maxUserListSearch} characters.`)
  if (text.includes("\u0000")) throw new TypeError("listUsers: `search` must not contain U+0000.")
  if (cursor !== undefined && typeof cursor !== "string") throw new TypeError(`listUsers: \`cursor\` must be a string; got ${typeof cursor}.`)
  return { search: text, limit, cursor }
}

/**
 * Checks a `listUsers` query for a Sesame adapter: {@link checkUserListLimits}, and a `cursor`
 * that {@link userListCursor} made. Throws a `TypeError` naming what is wrong.
 */
export function checkUserListQuery(query: unknown): CheckedUserListQuery {
  const { search, limit, cursor } = checkUserListLimits(query)
  return { search, limit, after: cursor === undefined ? null : readCursor(cursor) }
}

/** Whether `user` matches a checked `search`: a part of its email or name, whatever the case. */
export function matchesSearch(user: Pick<AdapterUser, "email" | "name">, search: string): boolean {
  if (search === "") return true
  const part = search.toLowerCase()
  return user.email.toLowerCase().includes(part) || (typeof user.name === "string" && user.name.toLowerCase().includes(part))
}

/** Orders users by email, then id, comparing code units (what memory and Redis keep). */
export function byEmailThenId(a: Pick<AdapterUser, "email" | "id">, b: Pick<AdapterUser, "email" | "id">): number {
  if (a.email !== b.email) return a.email < b.email ? -1 : 1
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1
}

/** Whether `user` comes after the position `after` in that order (code units). */
export function isAfter(user: Pick<AdapterUser, "email" | "id">, after: CheckedUserListQuery["after"]): boolean {
  return after === null || byEmailThenId(user, after) > 0
}

/**
 * The page of `rows`, which are up to `limit + 1` users in order from the page's start: the first
 * `limit`, and a cursor to the next page when there was one more.
 */
export function userListPage(rows: readonly AdapterUser[], limit: number): UserListPage {
  const users = rows.slice(0, limit)
  const last = users[users.length - 1]
  return { users, next: rows.length > limit && last ? userListCursor(last) : null }
}
