/**
 * The adapter's options, and their checks: `RedisAdapter` and `migrate` read the prefix and the
 * tables alike, so that both find the same keys.
 *
 * @module
 */

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
  /**
   * The table of a declared model, by model name, instead of the model's `table`: the part of
   * its keys that names it (`model:<table>:<key>`). A plain identifier.
   */
  tables?: Readonly<Record<string, string>>
}

export interface CheckedOptions {
  prefix: string
  verificationTokenGraceMs: number
  tables: Readonly<Record<string, string>>
}

/** The options with their defaults; a `TypeError` naming `caller` and the option when one makes no sense. */
export function checkOptions(options: RedisAdapterOptions, caller: string): CheckedOptions {
  const prefix = options.prefix ?? "sesame:"
  if (typeof prefix !== "string") throw new TypeError(`${caller}: options.prefix must be a string; got ${typeof prefix}.`)
  const grace = options.verificationTokenGrace ?? 3600
  if (!Number.isFinite(grace) || grace < 0) {
    throw new TypeError(`${caller}: options.verificationTokenGrace must be a number of seconds, 0 or more; got ${String(grace)}.`)
  }
  const tables = options.tables ?? {}
  for (const [name, table] of Object.entries(tables)) {
    // Rows' keys are `model:<table>:<key>`: a colon in the table would blur where it ends.
    if (typeof table !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(table)) {
      throw new TypeError(`${caller}: options.tables.${name} must be a plain identifier; got ${JSON.stringify(table)}.`)
    }
  }
  return { prefix, verificationTokenGraceMs: Math.round(grace * 1000), tables }
}
