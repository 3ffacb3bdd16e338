/**
 * How many sign-in links an address, and a client IP, may request in a window.
 *
 * Without a limit, the sign-in form is a free way to flood someone's inbox from the app's own
 * domain (and to burn its sender reputation). Both counts use fixed windows that start at a key's
 * first hit: simple, and one `INCR` plus `PEXPIRE` in Redis.
 *
 * Keys never hold an address in clear: the address part is its SHA-256, so a shared store (Redis)
 * holds no list of who signs in.
 *
 * The client IP is never taken from a header a client can set unless the app says a proxy it
 * controls sets it: by default, with an explicitly trusted proxy, the last `X-Forwarded-For` entry
 * (the one that proxy appended; entries to its left come from the client and can say anything).
 *
 * @module
 */
import { backend } from "#crypto"
import { toHex } from "../crypto/encoding.js"
import type { RateLimitStore } from "./types.js"

/** The limits of one provider, with defaults applied. */
export interface ResolvedRateLimit {
  perAddress: number | false
  perIp: number | false
  windowMs: number
  store: RateLimitStore
  clientIp: ((request: Request) => string | null | undefined) | undefined
}

export interface MemoryRateLimitStoreOptions {
  /**
   * How many keys to keep at most. When full, expired windows are dropped, then the oldest, so
   * memory stays bounded however many addresses are sprayed at the form. Default 100000.
   */
  maxKeys?: number
}

/**
 * A `RateLimitStore` in this process's memory. Counts are not shared between processes or
 * instances, and are lost on restart.
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000
  const windows = new Map<string, { count: number; resetAt: number }>()

  const makeRoom = (now: number) => {
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key)
    // Map iteration follows insertion order: the first keys are the oldest windows.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }

  return {
    increment(key, windowMs) {
      const now = Date.now()
      let entry = windows.get(key)
      if (!entry || entry.resetAt <= now) {
        windows.delete(key)
        if (windows.size >= maxKeys) makeRoom(now)
        entry = { count: 0, resetAt: now + windowMs }
        windows.set(key, entry)
      }
      entry.count++
      return entry.count
    },
  }
}

/**
 * The store used when a provider names none. It belongs to the process rather than to a
 * configuration, so that a lazy configuration, which builds new providers for every request, still
 * counts across requests.
 */
export const processRateLimitStore: RateLimitStore = memoryRateLimitStore()

/** No real IP is this long: a longer value (from an app's `clientIp`) is cut, not stored whole. */
const maxKeyPart = 100

/**
 * Counts this request against the limits and says whether it is over one of them. Both counts
 * always move, so flooding one address also uses up the sender's IP allowance.
 */
export async function overRateLimit(
  limit: ResolvedRateLimit,
  providerId: string,
  address: string,
  request: Request,
): Promise<boolean> {
  const prefix = `sesame:email:${providerId}`
  const checks: Promise<boolean>[] = []
  if (limit.perAddress !== false) {
    const max = limit.perAddress
    const key = `${prefix}:address:${toHex(await backend.sha256(address))}`
    checks.push(Promise.resolve(limit.store.increment(key, limit.windowMs)).then((count) => count > max))
  }
  const ip = limit.perIp !== false ? limit.clientIp?.(request) : undefined
  if (limit.perIp !== false && ip) {
    const max = limit.perIp
    checks.push(Promise.resolve(limit.store.increment(`${prefix}:ip:${ip.slice(0, maxKeyPart)}`, limit.windowMs)).then((count) => count > max))
  }
  return (await Promise.all(checks)).some(Boolean)
}
