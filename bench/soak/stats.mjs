/**
 * What the virtual users count: every request's latency by operation kind (measured phase only),
 * and the failures (whole run, warm-up included: a failure is one whenever it happens). Besides
 * the visits that failed (`errors`), every failed request is kept with its times (a 503 the user
 * then retried is one, though the visit goes on), and the successful ones are counted per 100 ms
 * of the measured time: with a fault, report.mjs tells what fell inside the outage and how soon
 * the rate came back (see outage.mjs).
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
/** How many failed requests are kept with their times (a run that fails this much fails anyway). */
const keptFailures = 100_000
/** The width of the buckets successful requests are counted in, in ms. */
export const bucketMs = 100

/**
 * An error already counted where it happened (a failed request, a lost session): the visit ends,
 * and the user's loop counts the visit as failed without recording the request a second time.
 */
export class Recorded extends Error {}

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
  /** Failed requests: { label, kind, start, end } (performance.now() times), label like "503" or "302→error=Configuration". */
  failures = []
  /** Failed requests beyond `keptFailures`, counted only. */
  failuresNotKept = 0
  /** Successful requests of the measured time, by 100 ms bucket of their end (performance.now() / bucketMs). */
  successes = new Map()
  /** What the users did, whole run: sign-ins by way, where email links were opened, endings, updates. */
  counts = {}

  request(kind, ms) {
    if (!this.measuring) return
    let histogram = this.#kinds.get(kind)
    if (!histogram) this.#kinds.set(kind, (histogram = new Histogram()))
    histogram.add(ms)
    this.#overall.add(ms)
  }

  /** A request that answered as it should (it counts towards the rate once the storage is back). */
  succeeded(end) {
    if (!this.measuring) return
    const bucket = Math.floor(end / bucketMs)
    this.successes.set(bucket, (this.successes.get(bucket) ?? 0) + 1)
  }

  /** A request that failed: `label` says how ("503", "500", "302→error=Configuration", "200 null"…), `kind` which step. */
  failure(label, kind, { start, end }) {
    if (this.failures.length < keptFailures) this.failures.push({ label, kind, start, end })
    else this.failuresNotKept++
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
