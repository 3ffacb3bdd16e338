/**
 * The module's options, checked once, when the configuration is written: a mistake fails there,
 * not at the first event. Every default is here.
 *
 * @module
 */
import type { SecurityEvent, User } from "@sesame/core"
import type { AdapterUser } from "@sesame/core/adapters"

/** Where events are forwarded as signed webhooks (see {@link AuditOptions.webhook}). */
export interface AuditWebhookOptions {
  /** The receiver: https, or http on a loopback host (a local forwarder). Checked here; redirects are never followed. */
  url: string
  /** The signing secret in the Standard Webhooks form, `whsec_<base64>` (at least 24 bytes once decoded). */
  secret: string
  /** Attempts after the first before a delivery is kept as `failed`. Default 5. */
  retries?: number
  /**
   * Seconds before the first retry; each next one waits twice as long (30 s, 1 min, 2 min, 4 min,
   * 8 min by default), at most a day. Default 30.
   */
  retryDelay?: number
  /** Seconds an attempt may take before it counts as failed. Default 10. */
  timeout?: number
}

/** The options of {@link audit}. */
export interface AuditOptions {
  /** Days an event is kept; after that it no longer exists (the store's time to live). Default 365. */
  keepDays?: number
  /**
   * Who may read everyone's log (`auditLog`, `GET <basePath>/audit/events`): an administrator.
   * Without it, nobody may; `myAuditLog` needs no permission (a user reads their own events).
   */
  canRead?: (user: User | AdapterUser) => boolean | Promise<boolean>
  /** Each event once it is stored, for the app to forward (a SIEM, a queue). A throw is logged; the flow goes on. */
  onEvent?: (event: AuditEntry) => void | Promise<void>
  /** Each event POSTed as a signed webhook, retried with backoff (see {@link AuditWebhookOptions}). */
  webhook?: AuditWebhookOptions
}

/** An event as the log keeps it: the core's `SecurityEvent` and its id in the log. */
export interface AuditEntry extends SecurityEvent {
  id: string
}

/** The options with their defaults, checked. */
export interface ResolvedAuditOptions {
  keepMs: number
  canRead: AuditOptions["canRead"]
  onEvent: AuditOptions["onEvent"]
  webhook: ResolvedWebhook | undefined
}

export interface ResolvedWebhook {
  url: URL
  /** The secret's bytes (what follows `whsec_`, decoded). */
  key: Uint8Array
  retries: number
  retryDelayMs: number
  timeoutMs: number
}

const day = 86_400_000

function invalid(message: string): TypeError {
  return new TypeError(`audit: ${message}`)
}

function wholeNumber(option: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`\`${option}\` must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}.`)
  }
  return value
}

/** The core's rule of a loopback host (`localhost` and its subdomains, 127.0.0.0/8, `[::1]`). */
const isLoopback = (host: string) => host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]"

/**
 * The receiver's URL, refused unless it is https, or http on a loopback host: an event names users
 * and their addresses, which must not cross a network in clear. No credentials in the URL (they
 * would reach logs), no fragment.
 */
export function webhookUrl(value: unknown): URL {
  const url = typeof value === "string" && URL.canParse(value) ? new URL(value) : undefined
  if (!url) throw invalid("`webhook.url` must be an absolute URL.")
  const local = url.protocol === "http:" && isLoopback(url.hostname)
  if (url.protocol !== "https:" && !local) throw invalid(`\`webhook.url\` must be https (http only on a loopback host); got ${url.protocol}//${url.host}.`)
  if (url.username || url.password) throw invalid("`webhook.url` must not carry credentials; the signature authenticates the sender.")
  if (url.hash) throw invalid("`webhook.url` must not have a fragment.")
  return url
}

/** The bytes of a `whsec_<base64>` secret. */
export function webhookKey(value: unknown): Uint8Array {
  const encoded = typeof value === "string" && value.startsWith("whsec_") ? value.slice("whsec_".length) : undefined
  if (!encoded || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw invalid("`webhook.secret` must be `whsec_` followed by base64 (the Standard Webhooks form).")
  const key = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))
  if (key.length < 24) throw invalid("`webhook.secret` must hold at least 24 bytes once decoded.")
  return key
}

/** Checks `options` and applies the defaults. Throws a `TypeError` naming the option. */
export function resolveOptions(options: AuditOptions = {}): ResolvedAuditOptions {
  if (typeof options !== "object" || options === null) throw invalid("the options must be an object.")
  if (options.canRead !== undefined && typeof options.canRead !== "function") throw invalid("`canRead` must be a function.")
  if (options.onEvent !== undefined && typeof options.onEvent !== "function") throw invalid("`onEvent` must be a function.")
  const { webhook } = options
  if (webhook !== undefined && (typeof webhook !== "object" || webhook === null)) throw invalid("`webhook` must be an object with `url` and `secret`.")
  return Object.freeze({
    keepMs: wholeNumber("keepDays", options.keepDays, 365, 1, 36_500) * day,
    canRead: options.canRead,
    onEvent: options.onEvent,
    webhook: webhook && {
      url: webhookUrl(webhook.url),
      key: webhookKey(webhook.secret),
      retries: wholeNumber("webhook.retries", webhook.retries, 5, 0, 20),
      retryDelayMs: wholeNumber("webhook.retryDelay", webhook.retryDelay, 30, 0, 86_400) * 1000,
      timeoutMs: wholeNumber("webhook.timeout", webhook.timeout, 10, 1, 60) * 1000,
    },
  })
}
