/**
 * Reading the log: a page of events, newest first, with an opaque cursor for the next.
 *
 * The order is (`at`, `id`) descending; `id` starts with the time too, so events of one millisecond
 * keep one order. The store takes one condition per field and no "or", so the page after a cursor
 * is read in two steps: the rest of the cursor's millisecond (`at` equal, `id` below), then what is
 * older (`at` below). `since` is the lower bound, applied as the rows arrive: they come newest
 * first, so the first older row ends the log.
 *
 * @module
 */
import { op, type Store, type StoredRow, type Where } from "@sesame/core"
import { auditEventModel } from "./models.js"
import type { AuditEntry } from "./options.js"
import { entryOf } from "./record.js"

/** What `auditLog` filters on; every field optional. */
export interface AuditQuery {
  /** Events about this user's account. */
  userId?: string
  /** Events this user (or module, `scim:<connection id>`) made. */
  actorId?: string
  /** One type (`sign-in.failed`, `organization.member.added`). */
  type?: string
  /** From this instant on (inclusive): a `Date` or ISO 8601 text. */
  since?: Date | string
  /** Before this instant (exclusive). */
  until?: Date | string
  /** Where the previous page ended (its `nextCursor`). */
  cursor?: string
  /** Events per page: 1 to 200. Default 50. */
  limit?: number
}

/** A page of the log, newest first; `nextCursor` is null on the last page. */
export interface AuditPage {
  events: AuditEntry[]
  nextCursor: string | null
}

/** A query the log cannot answer (a malformed cursor, date or limit): a `400` at the endpoints. */
export class AuditQueryError extends TypeError {
  override readonly name = "AuditQueryError"
}

const idPattern = /^\d{15}-[0-9a-f]{16}$/

interface Cursor {
  at: Date
  id: string
}

function cursorOf(row: StoredRow): string {
  const json = JSON.stringify({ at: (row.at as Date).getTime(), id: String(row.id) })
  return btoa(json).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

function readCursor(value: unknown): Cursor {
  if (typeof value !== "string" || value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) throw new AuditQueryError("audit: the cursor is malformed.")
  let parsed: unknown
  try {
    parsed = JSON.parse(atob(value.replace(/-/g, "+").replace(/_/g, "/")))
  } catch {
    throw new AuditQueryError("audit: the cursor is malformed.")
  }
  const { at, id } = (parsed ?? {}) as { at?: unknown; id?: unknown }
  if (typeof at !== "number" || !Number.isSafeInteger(at) || typeof id !== "string" || !idPattern.test(id)) throw new AuditQueryError("audit: the cursor is malformed.")
  return { at: new Date(at), id }
}

function instant(name: string, value: unknown): Date | undefined {
  if (value === undefined) return undefined
  const date = value instanceof Date ? value : typeof value === "string" && value.length <= 40 ? new Date(value) : undefined
  if (!date || Number.isNaN(date.getTime())) throw new AuditQueryError(`audit: \`${name}\` must be a date (ISO 8601).`)
  return date
}

function id(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "string" || value.length === 0 || value.length > 255) throw new AuditQueryError(`audit: \`${name}\` must be a non-empty string.`)
  return value
}

/** `query` checked: a `TypeError` (`AuditQueryError`) for anything malformed. */
export function checkQuery(query: unknown): Required<Pick<AuditQuery, "limit">> & { where: Where; since?: Date; until?: Date; cursor?: Cursor } {
  const input = (query ?? {}) as Record<string, unknown>
  if (typeof input !== "object") throw new AuditQueryError("audit: the query must be an object.")
  const limit = input.limit === undefined ? 50 : input.limit
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 200) throw new AuditQueryError("audit: `limit` must be a whole number from 1 to 200.")
  const where: Record<string, string> = {}
  for (const name of ["userId", "actorId", "type"] as const) {
    const value = id(name, input[name])
    if (value !== undefined) where[name] = value
  }
  const since = instant("since", input.since)
  const until = instant("until", input.until)
  return { limit, where, ...(since ? { since } : {}), ...(until ? { until } : {}), ...(input.cursor !== undefined ? { cursor: readCursor(input.cursor) } : {}) }
}

/** One page of the events `query` selects (checked with {@link checkQuery}). */
export async function readPage(store: Store, query: ReturnType<typeof checkQuery>): Promise<AuditPage> {
  const { where, limit, since, until, cursor } = query
  const wanted = limit + 1
  const rows: StoredRow[] = []
  if (cursor) {
    rows.push(...(await store.findMany(auditEventModel, { where: { ...where, at: cursor.at, id: op.lt(cursor.id) }, orderBy: [{ field: "id", direction: "desc" }], limit: wanted })))
  }
  if (rows.length < wanted) {
    const before = cursor?.at ?? until
    rows.push(
      ...(await store.findMany(auditEventModel, {
        where: { ...where, ...(before ? { at: op.lt(before) } : {}) },
        orderBy: [
          { field: "at", direction: "desc" },
          { field: "id", direction: "desc" },
        ],
        limit: wanted - rows.length,
      })),
    )
  }
  const older = since ? rows.findIndex((row) => (row.at as Date).getTime() < since.getTime()) : -1
  const inRange = older === -1 ? rows : rows.slice(0, older)
  const page = inRange.slice(0, limit)
  return { events: page.map(entryOf), nextCursor: inRange.length > limit ? cursorOf(page.at(-1)!) : null }
}
