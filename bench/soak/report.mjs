/**
 * The soak run's report: the figures (what `--json` prints), the verdict, and the table for people.
 */

/** Memory is judged only on runs this long: a shorter one has not run long enough to show a leak. */
export const memoryJudgedFromSeconds = 60
/**
 * How much the heap's data or the RSS may grow from the start (after warm-up) to the end. The data
 * is heapUsed without compiled code and bytecode: V8 keeps optimising for minutes, and that code
 * grows the heap by a few percent (heap snapshots of a 4-minute run: the growth was code and its
 * deoptimisation data, no object of the app's or Sesame's), where a leak grows the data.
 */
export const memoryTolerance = 0.1

const change = (start, end) => (end - start) / start

/**
 * @param {object} run what run.mjs measured
 * @param {import("./stats.mjs").Stats} run.stats
 */
export function buildReport({ settings, stats, elapsedSeconds, instances }) {
  const latency = stats.latencies()
  const memory = instances.map(({ name, start, end }) => ({
    instance: name,
    start,
    end,
    change: {
      heapUsed: change(start.heapUsed, end.heapUsed),
      heapData: change(start.heapUsed - start.code, end.heapUsed - end.code),
      rss: change(start.rss, end.rss),
    },
  }))
  const serverErrors = instances.reduce((sum, i) => sum + i.serverErrors.length, 0)
  const memoryJudged = settings.duration >= memoryJudgedFromSeconds
  const failures = [
    stats.errors && `${stats.errors} errors`,
    stats.lost && `${stats.lost} sessions lost`,
    stats.wronglyAccepted && `${stats.wronglyAccepted} sessions wrongly accepted`,
    serverErrors && `${serverErrors} lines of server errors`,
    ...instances.filter((i) => !i.start.gc || !i.end.gc).map((i) => `${i.name} could not run a full GC before measuring memory`),
    ...(memoryJudged
      ? memory
          .filter((m) => m.change.heapData > memoryTolerance || m.change.rss > memoryTolerance)
          .map((m) => `${m.instance}'s memory grew more than ${memoryTolerance * 100} %`)
      : []),
  ].filter(Boolean)
  return {
    settings,
    elapsedSeconds,
    requests: latency.overall.count,
    throughput: latency.overall.count / elapsedSeconds,
    latency,
    counts: stats.counts,
    errors: stats.errors,
    lost: stats.lost,
    wronglyAccepted: stats.wronglyAccepted,
    serverErrors,
    messages: [...stats.messages, ...instances.flatMap((i) => i.serverErrors.slice(0, 5).map((line) => `${i.name} logged: ${line}`))],
    memory,
    memoryJudged,
    failures,
    pass: failures.length === 0,
  }
}

const int = (n) => Math.round(n).toLocaleString("en-US")
const ms = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`
const pct = (x) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`

/** The report as a table for people. */
export function formatReport(report) {
  const { settings } = report
  const out = []
  out.push(
    `Sesame soak: ${settings.instances} instances (${settings.handler} handler) sharing PostgreSQL, ${settings.users} virtual users, ` +
      `${settings.duration} s measured after ${settings.warmup} s of warm-up`,
  )
  out.push(`${int(report.requests)} requests in ${report.elapsedSeconds.toFixed(1)} s: ${int(report.throughput)} req/s`)
  out.push("")
  out.push(`${"operation".padEnd(24)}${"count".padStart(10)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}`)
  const row = (name, r) => out.push(`${name.padEnd(24)}${int(r.count).padStart(10)}${ms(r.p50).padStart(10)}${ms(r.p99).padStart(10)}`)
  for (const [kind, r] of Object.entries(report.latency.kinds)) row(kind, r)
  row("all", report.latency.overall)
  out.push("")
  out.push("what the users did (warm-up included):")
  for (const [what, n] of Object.entries(report.counts).sort(([a], [b]) => a.localeCompare(b))) out.push(`  ${what}: ${int(n)}`)
  out.push("")
  out.push(`errors: ${report.errors}   lost: ${report.lost}   wrongly accepted: ${report.wronglyAccepted}   lines of server errors logged: ${report.serverErrors}`)
  for (const message of report.messages) out.push(`  ${message}`)
  out.push("")
  out.push("memory after GC, start → end of the measured time (heapUsed = data + compiled code)")
  for (const { instance, start, end, change } of report.memory) {
    const heap = `heapUsed ${mb(start.heapUsed)} → ${mb(end.heapUsed)} (${pct(change.heapUsed)})`
    const data = `data ${mb(start.heapUsed - start.code)} → ${mb(end.heapUsed - end.code)} (${pct(change.heapData)})`
    const rss = `RSS ${mb(start.rss)} → ${mb(end.rss)} (${pct(change.rss)})`
    out.push(`  ${instance}: ${heap}, of it ${data}; ${rss}`)
  }
  if (!report.memoryJudged) out.push(`(memory is judged on runs of ${memoryJudgedFromSeconds} s or more: not on this one)`)
  out.push("")
  out.push(report.pass ? "summary: PASS" : `summary: FAIL (${report.failures.join("; ")})`)
  return out.join("\n")
}
