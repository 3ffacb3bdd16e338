/**
 * What the virtual users count: every request's latency by operation kind (measured phase only),
 * and the failures (whole run, warm-up included: a failure is one whenever it happens).
 */

/** Latencies in buckets 2 % wide: memory stays bounded however long the run, quantiles within 2 %. */
class Histogram {
  static #floorMs = 0.01
  static #step = Math.log(1.02)
  #buckets = new Uint32Array(1024)
  count = 0

  add(ms) {
    const index = ms <= Histogram.#floorMs ? 0 : Math.ceil(Math.log(ms / Histogram.#floorMs) / Histogram.#step)
    this.#buckets[Math.min(index, this.#buckets.length - 1)]++
    this.count++
  }

  /** The upper bound of the bucket holding the `q` quantile, in ms. */
  quantile(q) {
    const rank = Math.max(1, Math.ceil(q * this.count))
    let seen = 0
    for (let i = 0; i < this.#buckets.length; i++) {
      seen += this.#buckets[i]
      if (seen >= rank) return Histogram.#floorMs * Math.exp(i * Histogram.#step)
    }
    return Number.NaN
  }
}

/** How many failure messages the report keeps (the counts are always complete). */
const keptMessages = 20

export class Stats {
  /** Whether latencies and request counts are recorded (false during warm-up and drain). */
  measuring = false
  #kinds = new Map()
  #overall = new Histogram()
  errors = 0
  /** Distinct live sessions that some instance answered `null` for. */
  lost = 0
  /** Distinct ended sessions (or sessions of another user) that some instance still accepted. */
  wronglyAccepted = 0
  messages = []
  /** What the users did, whole run: sign-ins by way, where email links were opened, endings, updates. */
  counts = {}

  request(kind, ms) {
    if (!this.measuring) return
    let histogram = this.#kinds.get(kind)
    if (!histogram) this.#kinds.set(kind, (histogram = new Histogram()))
    histogram.add(ms)
    this.#overall.add(ms)
  }

  count(what) {
    this.counts[what] = (this.counts[what] ?? 0) + 1
  }

  #note(category, message) {
    if (this.messages.length < keptMessages) this.messages.push(`${category}: ${message}`)
  }

  error(message) {
    this.errors++
    this.#note("error", message)
  }

  lose(message) {
    this.lost++
    this.#note("lost", message)
  }

  accept(message) {
    this.wronglyAccepted++
    this.#note("wrongly accepted", message)
  }

  /** Count and p50/p99 (ms) of each kind, and of all requests. */
  latencies() {
    const row = (h) => ({ count: h.count, p50: h.quantile(0.5), p99: h.quantile(0.99) })
    const kinds = Object.fromEntries([...this.#kinds].sort(([a], [b]) => a.localeCompare(b)).map(([kind, h]) => [kind, row(h)]))
    return { kinds, overall: row(this.#overall) }
  }
}
