/**
 * `@sesame/audit`: the audit log. Every security event Sesame sends (`events.security`: sign-ins
 * and failed attempts, lockouts, sign-outs, password and second-factor changes, passkeys, linked
 * accounts, revoked sessions, deleted users) and every plugin reports (an organization's members)
 * is stored once, with who acted, whose account, when, the IP and the user agent, and never a
 * secret; read by user and time with paging; kept `keepDays`; and forwarded to the app's
 * `onEvent` and, signed, to a webhook.
 *
 * ```ts
 * import { audit } from "@sesame/audit"
 * const config = { adapter, providers, plugins: [audit({ canRead: (user) => user.email === "admin@example.com" })] }
 * // the tables: `npx sesame migrate --plugin`, or `await migrate(db, { models: modelsOf(config) })`
 * ```
 *
 * - `GET <basePath>/audit/me`: the signed-in user's own events (`401` signed out).
 * - `GET <basePath>/audit/events?userId&actorId&type&since&until&cursor&limit`: everyone's, for
 *   the users `canRead` allows (`401` signed out, `403` anyone else).
 * - Server functions: `myAuditLog`, `auditLog`, `deliverAuditWebhooks`.
 *
 * @module
 */
import type { ModuleContext, ModuleRequest, ModuleResponse, SecurityEvent, SesameModule } from "@sesame/core"
import { EventError } from "@sesame/core/errors"
import { auditDeliveryModel, auditEventModel } from "./models.js"
import { resolveOptions, type AuditEntry, type AuditOptions } from "./options.js"
import { AuditQueryError, checkQuery, readPage, type AuditPage, type AuditQuery } from "./query.js"
import { entryOf, eventIds, rowOf } from "./record.js"
import { webhookSender, type DeliveryReport } from "./webhook.js"

export type { AuditEntry, AuditOptions, AuditWebhookOptions } from "./options.js"
export type { AuditPage, AuditQuery } from "./query.js"
export type { DeliveryReport } from "./webhook.js"
export { AuditQueryError } from "./query.js"
export { auditDeliveryModel, auditEventModel } from "./models.js"
export { signature as webhookSignature } from "./webhook.js"

/**
 * The module's server functions (`auth.api.<name>` in the integrations, `callModuleApi` in the
 * core). A type rather than an interface: a module's `api` is a record of functions.
 */
export type AuditApi = {
  /**
   * A page of everyone's log, newest first, filtered by `query`, for a user `canRead` allows; null
   * for anyone else and when signed out. Throws a `TypeError` without `canRead` (nobody may read
   * it then), and `AuditQueryError` for a malformed query.
   */
  auditLog(request: ModuleRequest, query?: AuditQuery): Promise<AuditPage | null>
  /** A page of the signed-in user's own events (`userId`), newest first; null when signed out. */
  myAuditLog(request: ModuleRequest, query?: Pick<AuditQuery, "cursor" | "limit">): Promise<AuditPage | null>
  /**
   * Waits for the deliveries under way, then tries the webhook deliveries that are due: for a
   * scheduled job, so that retries go on when no event comes. Zeros without a `webhook`.
   */
  deliverAuditWebhooks(request: ModuleRequest): Promise<DeliveryReport>
}

/** The module, typed so that `ServerFunctionsOf<Audit>` types an integration's `api`. */
export type Audit = Omit<SesameModule, "api"> & { api: AuditApi }

const unauthorized: ModuleResponse = { status: 401, body: { error: "Unauthorized", message: "Sign in first." } }
const forbidden: ModuleResponse = { status: 403, body: { error: "Forbidden", message: "You may not read the audit log." } }

/** A query's text parameters as the functions take them. */
function fromQuery(query: Readonly<Record<string, string>>, names: readonly string[]): AuditQuery {
  const out: Record<string, unknown> = {}
  for (const name of names) {
    const value = query[name]
    if (value === undefined) continue
    out[name] = name === "limit" ? (/^\d{1,4}$/.test(value) ? Number(value) : NaN) : value
  }
  return out as AuditQuery
}

/** A function's answer as an endpoint's: `400` for a malformed query. */
async function answer(read: () => Promise<AuditPage | null>, refused: ModuleResponse): Promise<ModuleResponse> {
  try {
    const page = await read()
    return page ? { body: page } : refused
  } catch (error) {
    if (error instanceof AuditQueryError) return { status: 400, body: { error: "BadRequest", message: error.message } }
    throw error
  }
}

/**
 * The audit log module, with its options checked now: a mistake (a webhook URL on plain http, a
 * malformed secret) fails where the configuration is written. Add it to `plugins`.
 */
export function audit(options: AuditOptions = {}): Audit {
  const resolved = resolveOptions(options)
  const webhook = resolved.webhook && webhookSender(resolved.webhook, resolved.keepMs)
  const idOf = eventIds()

  /** Stores the event, then hands it on; what fails after the row is stored is logged, never thrown into the flow. */
  async function record(event: SecurityEvent, context: ModuleContext): Promise<void> {
    const store = context.store!
    const row = rowOf(event, resolved.keepMs, idOf)
    await store.create(auditEventModel, row)
    const entry = entryOf(row)
    if (resolved.onEvent) {
      try {
        await resolved.onEvent(entry)
      } catch (error) {
        context.logger.error(new EventError(`audit: onEvent threw on "${entry.type}"; the event is stored.`, { cause: error }))
      }
    }
    if (webhook) {
      try {
        await webhook.enqueue(store, context.logger, entry)
      } catch (error) {
        context.logger.error(new EventError(`audit: the webhook delivery of "${entry.type}" was not stored.`, { cause: error }))
      }
    }
  }

  async function auditLog(request: ModuleRequest, query?: AuditQuery): Promise<AuditPage | null> {
    if (!resolved.canRead) throw new TypeError("audit: `auditLog` reads everyone's events, which only the users `canRead` allows may do; give the option `canRead`.")
    const checked = checkQuery(query)
    const user = await request.user()
    if (!user?.id || (await resolved.canRead(user)) !== true) return null
    return readPage(request.store!, checked)
  }

  async function myAuditLog(request: ModuleRequest, query?: Pick<AuditQuery, "cursor" | "limit">): Promise<AuditPage | null> {
    const { cursor, limit } = query ?? {}
    const user = await request.user()
    if (!user?.id) return null
    return readPage(request.store!, checkQuery({ cursor, limit, userId: user.id }))
  }

  return {
    id: "audit",
    models: [auditEventModel, auditDeliveryModel],
    events: { security: record },
    routes: {
      "GET audit/me": {
        run: (request) => answer(() => myAuditLog(request, fromQuery(request.query, ["cursor", "limit"])), unauthorized),
      },
      "GET audit/events": {
        async run(request) {
          if (!(await request.user())?.id) return unauthorized
          if (!resolved.canRead) return forbidden
          return answer(() => auditLog(request, fromQuery(request.query, ["userId", "actorId", "type", "since", "until", "cursor", "limit"])), forbidden)
        },
      },
    },
    api: {
      auditLog,
      myAuditLog,
      deliverAuditWebhooks: async (request: ModuleRequest) => (webhook ? webhook.deliver(request.store!, request.logger) : { delivered: 0, failed: 0, pending: 0 }),
    },
  }
}

