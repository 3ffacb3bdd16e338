/**
 * An event as a row, and back. Only the `SecurityEvent`'s fields are stored, whatever else an
 * object may carry, and a `details` key named like a secret (`password`, `secret`, `token`, `code`,
 * `hash`, in any case or as part of a longer name) is dropped: the core and the plugins never put
 * one there, and this keeps a mistake out of a log that outlives it.
 *
 * @module
 */
import type { SecurityDetail, SecurityEvent, StoredRow } from "@sesame/core"
import type { AuditEntry } from "./options.js"

const secretName = /password|secret|token|code|hash/i

/** `details` without keys named like a secret, and with plain values only. */
export function cleanDetails(details: SecurityEvent["details"]): Record<string, SecurityDetail> | null {
  if (!details || typeof details !== "object") return null
  const kept: Record<string, SecurityDetail> = {}
  for (const [key, value] of Object.entries(details)) {
    if (secretName.test(key)) continue
    const plain = value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    if (plain) kept[key] = value
    else if (Array.isArray(value)) kept[key] = value.filter((item): item is string => typeof item === "string")
  }
  return Object.keys(kept).length > 0 ? kept : null
}

/**
 * Makes the log's ids, which sort as the events were recorded: the time in milliseconds (fixed
 * width), then a count within that millisecond (4 hex digits: a sign-in records several events in
 * one), then 12 random hex digits, so that instances recording at once never collide.
 */
export function eventIds(): (at: Date) => string {
  let last = -1
  let count = 0
  return (at) => {
    const ms = at.getTime()
    count = ms === last ? Math.min(count + 1, 0xffff) : 0
    last = Math.max(ms, last)
    const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("")
    return `${String(ms).padStart(15, "0")}-${count.toString(16).padStart(4, "0")}${random}`
  }
}

const text = (value: unknown, max: number): string | null => (typeof value === "string" && value.length > 0 ? value.slice(0, max) : null)

/** The row `event` is stored as, kept for `keepMs`, with its id from `idOf` ({@link eventIds}). */
export function rowOf(event: SecurityEvent, keepMs: number, idOf: (at: Date) => string): StoredRow {
  const at = event.at instanceof Date && !Number.isNaN(event.at.getTime()) ? event.at : new Date()
  const details = cleanDetails(event.details)
  return {
    id: idOf(at),
    at,
    type: String(event.type).slice(0, 200),
    actorId: text(event.actorId, 255),
    userId: text(event.userId, 255),
    ip: text(event.ip, 64),
    userAgent: text(event.userAgent, 256),
    provider: text(event.provider, 255),
    reason: text(event.reason, 255),
    details,
    expires: new Date(at.getTime() + keepMs),
  }
}

/** A stored row as the log's readers get it. */
export function entryOf(row: StoredRow): AuditEntry {
  const optional = (name: string) => (typeof row[name] === "string" ? (row[name] as string) : undefined)
  const provider = optional("provider")
  const reason = optional("reason")
  const details = row.details && typeof row.details === "object" && !Array.isArray(row.details) ? (row.details as Record<string, SecurityDetail>) : undefined
  return {
    id: String(row.id),
    type: String(row.type),
    at: row.at as Date,
    actorId: optional("actorId") ?? null,
    userId: optional("userId") ?? null,
    ip: optional("ip") ?? null,
    userAgent: optional("userAgent") ?? null,
    ...(provider !== undefined ? { provider } : {}),
    ...(reason !== undefined ? { reason } : {}),
    ...(details !== undefined ? { details } : {}),
  }
}

