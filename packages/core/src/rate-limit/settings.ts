/**
 * The `rateLimit` option checked, with its defaults: whether the limits apply, each family's rule,
 * where the counts are kept.
 *
 * @module
 */
import type { FeatureInput } from "../modules/feature.js"
import type { RateLimitFamily } from "../modules/route.js"
import { isProduction } from "../config/env.js"
import { memoryCounterStore, storeCounters, type CounterStore } from "../password/counters.js"
import { defaultRateLimits, type RateLimitOptions, type RateLimitRule } from "./options.js"

/** The rate limits of a configuration that has them on. */
export interface ResolvedRateLimit {
  readonly rules: Readonly<Record<RateLimitFamily, RateLimitRule | false>>
  readonly store: CounterStore
  readonly ipv6Prefix: number
  /**
   * Whether the app asked for the limits (a `rateLimit` object) rather than getting them by
   * default: only then is a client the limits cannot tell apart worth a warning.
   */
  readonly asked: boolean
}

/**
 * This process's counts, shared by every configuration in it: a lazy configuration, made anew
 * for each request, still counts across requests. Bounded: when full, the keys least recently
 * counted go first.
 */
const processStore = memoryCounterStore({ maxKeys: 100_000 })

const longestWindow = 24 * 60 * 60

function checkRule(family: string, rule: unknown): RateLimitRule | false {
  if (rule === false) return false
  const { max, window } = (rule ?? {}) as Partial<RateLimitRule>
  if (typeof rule !== "object" || !Number.isInteger(max) || max! < 1 || !Number.isInteger(window) || window! < 1 || window! > longestWindow) {
    throw new TypeError(`\`rateLimit.rules["${family}"]\` must be false or { max, window }: whole numbers, at least 1, the window in seconds up to a day.`)
  }
  return { max: max!, window: window! }
}

function checkStore(store: RateLimitOptions["store"], input: FeatureInput): CounterStore {
  if (store === undefined || store === "memory") return processStore
  if (store === "adapter") {
    if (!input.adapter?.store) throw new TypeError('`rateLimit.store: "adapter"` needs an adapter with a store (`store`), where the counts are kept in `sesame_counters`.')
    return storeCounters(input.adapter.store)
  }
  if (typeof store === "object" && store !== null && typeof store.incrementCounter === "function") return store
  throw new TypeError('`rateLimit.store` must be "memory", "adapter" or a counter store (`incrementCounter`, `getCounter`, `deleteCounter`).')
}

/** The rate limits of `input`'s configuration; undefined when they are off. */
export function resolveRateLimit(input: FeatureInput): ResolvedRateLimit | undefined {
  const option = input.config.rateLimit
  if (option === false) return undefined
  if (option !== undefined && (typeof option !== "object" || option === null)) throw new TypeError("`rateLimit` must be an object, or false.")
  const options = option ?? {}
  if (!(options.enabled ?? isProduction(input.env))) return undefined
  const given = options.rules ?? {}
  for (const family of Object.keys(given)) {
    if (!Object.hasOwn(defaultRateLimits, family)) throw new TypeError(`\`rateLimit.rules\` has "${family}", which is no family: ${Object.keys(defaultRateLimits).join(", ")}.`)
  }
  const rules = Object.fromEntries(
    Object.entries(defaultRateLimits).map(([family, rule]) => [family, Object.hasOwn(given, family) ? checkRule(family, given[family as RateLimitFamily]) : rule]),
  ) as Record<RateLimitFamily, RateLimitRule | false>
  const ipv6Prefix = options.ipv6Prefix ?? 64
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 16 || ipv6Prefix > 128) throw new TypeError("`rateLimit.ipv6Prefix` must be a whole number from 16 to 128.")
  return Object.freeze({ rules: Object.freeze(rules), store: checkStore(options.store, input), ipv6Prefix, asked: option !== undefined })
}
