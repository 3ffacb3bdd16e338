/**
 * Security events: one `security` event, sent through `emit` like the others, for everything an
 * audit log records (sign-ins and their failures, sign-outs, changes to a user's ways in, sessions
 * revoked, and what plugins add: an organization's members). This file is the one place their
 * common fields are made: when, from which IP and user agent, and who acted.
 *
 * - The IP is the core's rule (`http/client-ip.ts`): what the proxies the configuration trusts
 *   say (`trustedProxy`, by default one `X-Forwarded-For` hop with an explicit `trustHost`), else
 *   the peer's address when the caller knows it, else null. A header any client can set is never
 *   believed by default.
 * - The user agent is cut to 256 characters: it is the client's to say, and a log row must not
 *   grow with whatever it sends.
 * - The actor is whoever proved who they are in this request: the user themselves unless the
 *   caller says otherwise (null for a failed sign-in, where nobody did; null for the app's own
 *   code, `setUserFields`).
 *
 * An event never carries a secret, token, code, password or hash: the callers pass names and
 * counts only, and a plugin's `details` are checked to be plain values.
 *
 * @module
 */
import type { ResolvedConfig } from "./config/resolve.js"
import { emit } from "./events.js"

/**
 * The core's security event types. Plugins add their own, prefixed with their name
 * (`organization.member.added`).
 */
export type CoreSecurityEventType =
  | "sign-in"
  | "sign-in.failed"
  | "sign-in.throttled"
  | "sign-out"
  | "user.created"
  | "user.updated"
  | "user.deleted"
  | "password.changed"
  | "two-factor.changed"
  | "passkey.added"
  | "passkey.removed"
  | "account.linked"
  | "account.unlinked"
  | "session.revoked"
  | "sessions.revoked"
  | "rate-limited"

/** The values an event's `details` may hold: nothing nested, nothing secret. */
export type SecurityDetail = string | number | boolean | null | string[]

/**
 * What happened, to whom, by whom, from where. Never a secret, token, code, password or hash.
 *
 * | type | when | `userId` | `provider`, `reason`, `details` |
 * |---|---|---|---|
 * | `sign-in` | a sign-in completed | who signed in | provider; `factors`, `isNewUser` |
 * | `sign-in.failed` | a sign-in attempt failed (once per attempt) | the user when the flow knows it (a password for a stored address, a second factor), else null | provider; reason: the error's code (`credentials`, `unverified`, `throttled` with `retryAfter`, `OAuthCallbackError`, `AccessDenied`, `Verification`, `InvalidCode`, …); `step: "second-factor"` |
 * | `sign-in.throttled` | a failed attempt locked the account out | as `sign-in.failed` | provider; `retryAfter` (seconds) |
 * | `sign-out` | a session ended by signing out | who | |
 * | `user.created`, `user.deleted` | | the user | |
 * | `user.updated` | | the user | `fields`: the names changed (never the values) |
 * | `password.changed` | | the user | `how`: `set`, `changed`, `reset`; `sessionsEnded` |
 * | `two-factor.changed` | | the user | `change`: `enabled`, `disabled`, `recovery-codes`; `method` |
 * | `passkey.added`, `passkey.removed` | | the user | provider |
 * | `account.linked`, `account.unlinked` | | the user | provider |
 * | `session.revoked` | one session revoked | the user | |
 * | `sessions.revoked` | several at once | the user | `count` |
 * | `rate-limited` | a client went over a rate limit (once per client, family and window) | null | `family`, `limit`, `window` (seconds), `retryAfter` |
 */
export interface SecurityEvent {
  type: CoreSecurityEventType | (string & {})
  at: Date
  /** Who acted: the signed-in user, the user signing in, or null (a failed attempt, the app's own code). */
  actorId: string | null
  /** Whose account it is about, or null when no account is known (a failed first factor). */
  userId: string | null
  /** The client's IP by the configuration's rule (`trustedProxy`), null when it is not known. */
  ip: string | null
  /** The request's `User-Agent`, cut to 256 characters; null outside a request. */
  userAgent: string | null
  /** The provider's id, for events about one. */
  provider?: string
  /** Why, for a failure: the error's code. */
  reason?: string
  /** More about it: names, counts and flags only. */
  details?: Record<string, SecurityDetail>
}

/** What the code that saw an event says of it; the rest is filled in by {@link securityEvent}. */
export interface SecurityEventInput {
  type: SecurityEvent["type"]
  userId: string | null
  /** Who acted. Default: `userId` (the user acted on their own account). */
  actorId?: string | null
  provider?: string
  reason?: string
  details?: Record<string, SecurityDetail>
}

/** The request headers an event reads (a `RequestContext`'s, a web `Request`'s). */
export interface EventHeaders {
  get(name: string): string | null
  /** The TCP peer's address, when the caller knows it (a rate limit's refusal). */
  readonly peer?: string | undefined
}

const maxUserAgent = 256
/** No real IP is this long: the header is the client's (or its proxy's) to write. */
const maxIp = 64

/** The event `input` describes, with its time, IP and user agent; `headers` undefined outside a request. */
export function securityEvent(config: Pick<ResolvedConfig, "clientAddress">, headers: EventHeaders | undefined, input: SecurityEventInput): SecurityEvent {
  const ip = headers ? config.clientAddress(headers, headers.peer) : null
  const userAgent = headers?.get("user-agent") ?? null
  return {
    type: input.type,
    at: new Date(),
    actorId: input.actorId === undefined ? input.userId : input.actorId,
    userId: input.userId,
    ip: ip ? ip.slice(0, maxIp) : null,
    userAgent: userAgent ? userAgent.slice(0, maxUserAgent) : null,
    ...(input.provider !== undefined ? { provider: input.provider } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.details !== undefined ? { details: input.details } : {}),
  }
}

/** Sends the `security` event `input` describes (see {@link securityEvent}). */
export async function emitSecurity(config: ResolvedConfig, headers: EventHeaders | undefined, input: SecurityEventInput): Promise<void> {
  await emit(config, "security", securityEvent(config, headers, input))
}

const coreTypes: ReadonlySet<string> = new Set<CoreSecurityEventType>([
  "sign-in",
  "sign-in.failed",
  "sign-in.throttled",
  "sign-out",
  "user.created",
  "user.updated",
  "user.deleted",
  "password.changed",
  "two-factor.changed",
  "passkey.added",
  "passkey.removed",
  "account.linked",
  "account.unlinked",
  "session.revoked",
  "sessions.revoked",
])

const pluginType = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/

/**
 * A plugin's event, checked: a dotted lowercase type that is not one of the core's (a plugin
 * reports its own events, never a sign-in), ids as strings, and `details` of plain values only,
 * so that nothing but names, counts and flags can reach an audit log through it.
 *
 * @throws TypeError naming what is wrong.
 */
export function checkPluginEvent(input: SecurityEventInput): SecurityEventInput {
  const { type, userId, actorId, provider, reason, details } = input ?? ({} as SecurityEventInput)
  if (typeof type === "string" && coreTypes.has(type)) throw new TypeError(`"${type}" is one of Sesame's own security events; a plugin reports its own.`)
  if (typeof type !== "string" || !pluginType.test(type) || type.length > 100) {
    throw new TypeError(`A plugin's security event type is lowercase, dotted and prefixed with its name ("organization.member.added"); got ${JSON.stringify(type)}.`)
  }
  if (userId !== null && typeof userId !== "string") throw new TypeError("A security event's `userId` is a string or null.")
  if (actorId !== undefined && actorId !== null && typeof actorId !== "string") throw new TypeError("A security event's `actorId` is a string or null.")
  if (provider !== undefined && typeof provider !== "string") throw new TypeError("A security event's `provider` is a string.")
  if (reason !== undefined && typeof reason !== "string") throw new TypeError("A security event's `reason` is a string.")
  if (details !== undefined) {
    if (typeof details !== "object" || details === null || Array.isArray(details)) throw new TypeError("A security event's `details` is an object.")
    for (const [key, value] of Object.entries(details)) {
      const plain = value === null || ["string", "number", "boolean"].includes(typeof value) || (Array.isArray(value) && value.every((item) => typeof item === "string"))
      if (!plain) throw new TypeError(`A security event's detail "${key}" must be a string, number, boolean, null or an array of strings.`)
    }
  }
  return { type, userId, ...(actorId !== undefined ? { actorId } : {}), ...(provider !== undefined ? { provider } : {}), ...(reason !== undefined ? { reason } : {}), ...(details !== undefined ? { details: { ...details } } : {}) }
}
