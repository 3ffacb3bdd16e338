/**
 * The `rateLimit` option: limits on how many requests one client makes to the endpoints, per
 * family of routes, and their defaults (the one place for them).
 *
 * @module
 */
import type { CounterStore } from "../password/counters.js"
import type { RateLimitFamily } from "../modules/route.js"

/** At most `max` requests in each `window` of seconds, per client and family. */
export interface RateLimitRule {
  max: number
  /** Seconds. */
  window: number
}

/** The `rateLimit` option. */
export interface RateLimitOptions {
  /**
   * Whether the limits apply. Default: in production (`NODE_ENV=production`) only, so that a
   * development server's reloads and a test suite's bursts are not refused; `true` applies them
   * everywhere.
   */
  enabled?: boolean
  /** Each family's limit, replacing its default; `false` leaves the family unlimited. */
  rules?: Partial<Record<RateLimitFamily, RateLimitRule | false>>
  /**
   * Where the counts are kept: `"memory"` (this process; the default), `"adapter"` (the adapter's
   * store, `sesame_counters`: shared by every instance, one write per request), or a counter store
   * of your own (`storeCounters(redisAdapter(client).store)` from `@sesame/core/password` keeps them
   * in Redis while the rest is in a database).
   */
  store?: "memory" | "adapter" | CounterStore
  /**
   * How many leading bits of an IPv6 address make one client: a home or an office gets a whole
   * `/64` (or more), so counting single addresses would let one client rotate through millions.
   * Default 64.
   */
  ipv6Prefix?: number
}

/** The `rateLimit` option of `AuthConfig` (through `registry.ts`). */
export interface RateLimitConfig {
  /**
   * Limits on how many requests one client (its IP address, see `trustedProxy`) makes to the
   * endpoints, per family of routes: over the limit, `429 Too Many Requests` with `Retry-After`
   * and a `rate-limited` security event. See `docs/features/rate-limits.md` for the table of
   * families. `false` turns them off.
   */
  rateLimit?: RateLimitOptions | false
}

/**
 * The families' defaults: requests per client per minute. A family is a kind of work, so that a
 * burst of one kind (guessing passwords) never uses up another's room (reading the session).
 */
export const defaultRateLimits: Readonly<Record<RateLimitFamily, RateLimitRule>> = {
  // A single-page app reads the session on every focus; a NAT puts an office behind one address.
  session: { max: 600, window: 60 },
  pages: { max: 300, window: 60 },
  // Each attempt costs a password hash, a code check or a provider's round trip.
  "sign-in": { max: 30, window: 60 },
  callback: { max: 60, window: 60 },
  // Each request may send an email.
  email: { max: 10, window: 60 },
  account: { max: 60, window: 60 },
  // Machine-to-machine APIs (SCIM, an authorization server's token endpoint): clients that batch.
  services: { max: 600, window: 60 },
}
