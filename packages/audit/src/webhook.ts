/**
 * Forwarding events as webhooks, in the Standard Webhooks format
 * (https://www.standardwebhooks.com/): a POST of JSON `{ type, timestamp, data }` with the headers
 * `webhook-id` (the delivery's id, the same at every attempt, for the receiver to ignore a repeat),
 * `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` keyed with the secret's bytes).
 *
 * Every delivery is stored first (the outbox, `auditDeliveryModel`), then tried: in the
 * background of the event that made it, again on later events once due, and whenever the app calls
 * `deliverAuditWebhooks()` (a scheduled job). A retry thus survives a restart, and an instance
 * claims an attempt with a conditional update of its count, so that two instances never send one
 * attempt twice. A failure is an answer other than 2xx (a redirect included: it is never followed),
 * a network error or the timeout; the next attempt waits `retryDelay`, then twice as long each
 * time. Once `retries` are used up the delivery is kept as `failed` and logged.
 *
 * @module
 */
import { op, type ModuleContext, type Store, type StoredRow } from "@sesame/core"
import { EventError } from "@sesame/core/errors"
import { auditDeliveryModel } from "./models.js"
import type { AuditEntry, ResolvedWebhook } from "./options.js"

type Logger = ModuleContext["logger"]

/** What one run of deliveries did, and how many are still waiting. */
export interface DeliveryReport {
  delivered: number
  failed: number
  pending: number
}

const day = 86_400_000
/** Deliveries tried in one run: a run is in a request's background, it must end. */
const batch = 25

function base64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
}

/** The `webhook-signature` header for one attempt: `v1,<base64 HMAC-SHA256>`. */
export async function signature(key: Uint8Array, id: string, timestamp: number, body: string): Promise<string> {
  const hmac = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  return `v1,${base64(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(`${id}.${timestamp}.${body}`)))}`
}

/** The webhook sender of one module: the outbox's writes and attempts, and the runs still going. */
export function webhookSender(webhook: ResolvedWebhook, keepMs: number) {
  const running = new Set<Promise<unknown>>()
  const delay = (attempts: number) => Math.min(webhook.retryDelayMs * 2 ** (attempts - 1), day)

  /** One attempt of `row`, claimed first; whether it was delivered, failed for good, or is to be retried (null: another instance has it). */
  async function attempt(store: Store, logger: Logger, row: StoredRow): Promise<"delivered" | "failed" | "retry" | null> {
    const attempts = Number(row.attempts) + 1
    const now = Date.now()
    // The claim: nobody else may count this attempt, and a crash mid-attempt leaves it due again later.
    const claimed = await store.update(auditDeliveryModel, { id: String(row.id), status: "pending", attempts: Number(row.attempts) }, { attempts, nextAttemptAt: new Date(now + webhook.timeoutMs + delay(attempts)) })
    if (claimed !== 1) return null
    const id = String(row.id)
    const body = String(row.body)
    const timestamp = Math.floor(now / 1000)
    let problem: string | null
    try {
      const response = await fetch(webhook.url, {
        method: "POST",
        headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": await signature(webhook.key, id, timestamp, body) },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(webhook.timeoutMs),
      })
      await response.body?.cancel().catch(() => {})
      problem = response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`
    } catch (error) {
      problem = error instanceof Error ? error.name : "error"
    }
    if (problem === null) {
      await store.update(auditDeliveryModel, { id }, { status: "delivered", lastError: null })
      return "delivered"
    }
    if (attempts > webhook.retries) {
      await store.update(auditDeliveryModel, { id }, { status: "failed", lastError: problem })
      logger.error(new EventError(`audit: the webhook delivery ${id} failed ${attempts} times (last: ${problem}); it is kept as failed.`))
      return "failed"
    }
    await store.update(auditDeliveryModel, { id }, { nextAttemptAt: new Date(Date.now() + delay(attempts)), lastError: problem })
    logger.debug("audit: webhook delivery failed, to be retried", { id, attempts, problem })
    return "retry"
  }

  /** Tries the deliveries that are due, oldest first. */
  async function deliverDue(store: Store, logger: Logger): Promise<DeliveryReport> {
    const report = { delivered: 0, failed: 0, pending: 0 }
    const due = await store.findMany(auditDeliveryModel, {
      where: { status: "pending", nextAttemptAt: op.lte(new Date()) },
      orderBy: [{ field: "nextAttemptAt", direction: "asc" }],
      limit: batch,
    })
    for (const row of due) {
      const outcome = await attempt(store, logger, row)
      if (outcome === "delivered") report.delivered++
      else if (outcome === "failed") report.failed++
    }
    report.pending = await store.count(auditDeliveryModel, { status: "pending" })
    return report
  }

  /** Runs `work` in the background of the event (never the flow's failure), kept so that `settle` can wait for it. */
  function inBackground(work: Promise<unknown>, logger: Logger): void {
    const tracked = work.catch((error) => logger.error(new EventError("audit: delivering webhooks failed.", { cause: error })))
    running.add(tracked)
    void tracked.finally(() => running.delete(tracked))
  }

  return {
    /** Stores `entry`'s delivery, then tries what is due (this one and earlier ones) in the background. */
    async enqueue(store: Store, logger: Logger, entry: AuditEntry): Promise<void> {
      const now = new Date()
      await store.create(auditDeliveryModel, {
        id: `msg_${entry.id}`,
        eventId: entry.id,
        body: JSON.stringify({ type: entry.type, timestamp: entry.at.toISOString(), data: entry }),
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
        expires: new Date(now.getTime() + keepMs),
      })
      inBackground(deliverDue(store, logger), logger)
    },
    /** Waits for the background runs, then tries what is due. */
    async deliver(store: Store, logger: Logger): Promise<DeliveryReport> {
      while (running.size > 0) await Promise.allSettled([...running])
      return deliverDue(store, logger)
    },
  }
}

export type WebhookSender = ReturnType<typeof webhookSender>
