/**
 * `@sesame/adapter-redis`: Sesame's adapter for Redis on ioredis.
 *
 * ```ts
 * import { Redis } from "ioredis"
 * import RedisAdapter from "@sesame/adapter-redis"
 * const adapter = RedisAdapter(new Redis(process.env.REDIS_URL!), { prefix: "myapp:auth:" })
 * ```
 *
 * Every method is one call of one Lua script (see `lua/`), which Redis runs with nothing in
 * between: unique emails, provider accounts and credential ids hold under any concurrency, a
 * verification token is used once, a recovery code too, concurrent increments of a counter each
 * count, a user's deletion takes its accounts, sessions, authenticators, password, second factor
 * and recovery codes with it, and a write touching
 * several keys is never seen (or left) half done. Sessions and counters expire in Redis at their
 * `expires`. Transactions work by optimistic replay (see
 * `transaction.ts`).
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { operations } from "./operations.js"
import { batchRunner } from "./run.js"
import { runTransaction } from "./transaction.js"

export { keys } from "./keys.js"
export { TransactionConflict } from "./run.js"

export interface RedisAdapterOptions {
  /** Prepended to every key the adapter writes (after the client's own `keyPrefix`, if any). Default `"sesame:"`. */
  prefix?: string
  /**
   * Seconds a verification token is kept after its `expires`, so that a link followed late is
   * told it expired rather than that it is unknown. Default 3600. The token is refused either way.
   */
  verificationTokenGrace?: number
  /**
   * Receives the client's `error` events (connection refused, reset…). When omitted and the client
   * has no `error` listener, the adapter adds one that ignores them: ioredis retries on its own,
   * and each command that finally fails rejects its adapter call, which Sesame logs.
   */
  onError?: (error: Error) => void
}

const ignore = () => {}

function checkOptions(options: RedisAdapterOptions): { prefix: string; verificationTokenGraceMs: number } {
  const prefix = options.prefix ?? "sesame:"
  if (typeof prefix !== "string") throw new TypeError(`RedisAdapter: options.prefix must be a string; got ${typeof prefix}.`)
  const grace = options.verificationTokenGrace ?? 3600
  if (!Number.isFinite(grace) || grace < 0) {
    throw new TypeError(`RedisAdapter: options.verificationTokenGrace must be a number of seconds, 0 or more; got ${String(grace)}.`)
  }
  return { prefix, verificationTokenGraceMs: Math.round(grace * 1000) }
}

/**
 * The Redis adapter. `client` is an ioredis `Redis` client, used as it is (its connection options,
 * retries and offline queue decide how an outage looks: by default a command waits for the
 * connection to come back, then fails after 20 retries).
 */
export default function RedisAdapter(client: Redis, options: RedisAdapterOptions = {}): Adapter {
  const checked = checkOptions(options)
  // ioredis adds its `keyPrefix` to the keys a command declares, but the script declares none
  // (it builds its keys), so the client's prefix is put in front of the adapter's here.
  const prefix = (client.options.keyPrefix ?? "") + checked.prefix
  const { verificationTokenGraceMs } = checked
  // An `error` event with no listener is reported by ioredis on the console for every reconnect
  // attempt; the failures that matter reach Sesame as rejected calls.
  if (options.onError) client.on("error", options.onError)
  else if (client.listenerCount("error") === 0) client.on("error", ignore)
  const run = batchRunner(client, prefix)
  const settings = { verificationTokenGraceMs }
  return {
    ...operations((operation) => run("keep", [operation], []), settings),
    transaction: (fn) => runTransaction(run, settings, fn),
  }
}
