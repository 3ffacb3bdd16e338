/**
 * The soak run's report: the figures (what `--json` prints), the verdict, and the table for people.
 *
 * A run with a fault (`--fault`) passes when the outage was the short "try again" it must be: no
 * session lost (a live session read as absent counts inside the outage too) or wrongly accepted,
 * no visit failed, every failed request a 503 (with Retry-After, leaving the session cookie alone)
 * inside the outage window, the rate back within `maxSecondsToRecover`, and at most
 * `maxOutageLines` lines logged per instance for the outage (its first line and its "available
 * again"). See outage.mjs for the window and the recovery rule.
 */
import { analyseFault, failedRequests, graceMs, outageWindow } from "./outage.mjs"
import { serverErrorLines } from "./logs.mjs"

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

/** How long after the storage is back the requests may still fail or be slow to come back. */
export const maxSecondsToRecover = 2
/** Lines an instance may log for one outage: when it begins and when it ends. */
export const maxOutageLines = 2
/** How many kinds of failed request a failure message names. */
const namedKinds = 5

/**
 * @param {object} run what run.mjs measured
 * @param {import("./stats.mjs").Stats} run.stats
 */
export function buildReport({ settings, stats, elapsedSeconds, instances, fault, began, ended }) {
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
  const errorLines = instances.map((i) => ({ name: i.name, lines: serverErrorLines(i.log, { faultRun: Boolean(fault) }) }))
  const serverErrors = errorLines.reduce((sum, i) => sum + i.lines.length, 0)
  const faultReport = fault ? analyseFault({ fault, stats, began, ended, instances }) : null
  const failed = failedRequests(stats.failures, fault ? outageWindow(fault) : null)
  const failedCount = Object.values(failed).reduce((sum, c) => sum + c.inside + c.outside, 0) + stats.failuresNotKept
  const listKinds = (rows) =>
    rows
      .sort(([, a], [, b]) => b - a)
      .slice(0, namedKinds)
      .map(([kind, n]) => `${n} × ${kind}`)
      .join(", ")
  const memoryJudged = settings.duration >= memoryJudgedFromSeconds
  const failures = [
    stats.errors && `${stats.errors} errors`,
    stats.lost && `${stats.lost} sessions lost`,
    stats.wronglyAccepted && `${stats.wronglyAccepted} sessions wrongly accepted`,
    serverErrors && `${serverErrors} lines of server errors`,
    ...(fault ? faultFailures(faultReport, failed, listKinds) : [failedCount && `${failedCount} failed requests (${listKinds(Object.entries(failed).map(([k, c]) => [k, c.outside]))})`]),
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
    failedRequests: failed,
    fault: faultReport,
    messages: [...stats.messages, ...errorLines.flatMap((i) => i.lines.slice(0, 5).map((line) => `${i.name} logged: ${line}`))],
    memory,
    memoryJudged,
    failures,
    pass: failures.length === 0,
  }
}

/** Why a fault run fails, beyond errors, lost and wrongly accepted sessions and server errors. */
function faultFailures(fault, failed, listKinds) {
  // A failure that is not a plain 503 (one without Retry-After, or that cleared the cookie, is not) or fell outside the window.
  const wrong = Object.entries(failed).flatMap(([kind, c]) => {
    const plain503 = kind.startsWith("503 ") && !/^503 (?:without|cleared)/.test(kind)
    return [
      [`${kind} (inside)`, plain503 ? 0 : c.inside],
      [`${kind} (outside)`, c.outside],
    ].filter(([, n]) => n > 0)
  })
  const wrongCount = wrong.reduce((sum, [, n]) => sum + n, 0)
  const tooManyLines = Object.entries(fault.logLinesDuringOutage).filter(([, n]) => n > maxOutageLines)
  return [
    wrongCount && `${wrongCount} failed requests were not a 503 inside the outage window (${graceMs / 1000} s after the server was back): ${listKinds(wrong)}`,
    fault.secondsToRecover === null && "the requests did not recover before the measured time ended",
    fault.secondsToRecover > maxSecondsToRecover && `the requests took ${fault.secondsToRecover} s to recover after the server was back (at most ${maxSecondsToRecover})`,
    ...tooManyLines.map(([name, n]) => `${name} logged ${n} lines during the outage (at most ${maxOutageLines})`),
  ]
}

const int = (n) => Math.round(n).toLocaleString("en-US")
const ms = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`
const pct = (x) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`

/** The fault's lines of the table. */
function formatFault(fault) {
  const { outage } = fault
  const s = (t) => `${t.toFixed(2)} s`
  const recovered = fault.secondsToRecover === null ? "did not recover before the measured time ended" : `recovered ${s(fault.secondsToRecover)} after the server was back`
  const out = [
    `fault: ${fault.kind} (${fault.command})`,
    `  restart started at ${s(outage.restartStartedAt)} of the measured time, first failed connection at ${s(outage.firstFailedConnectionAt)}, ` +
      `command returned at ${s(outage.commandReturnedAt)}, server back at ${s(outage.backAt)}:`,
    `  ${s(outage.seconds)} from the restart to back (window to ${s(outage.windowEndsAt)}, with ${outage.graceSeconds} s of grace)`,
    `  ${recovered} (${fault.recoveryRule}; pre-fault ${int(fault.preFaultThroughput)} req/s)`,
  ]
  if (fault.keysLoaded !== undefined) {
    out.push(`  the restarted Redis loaded the ${fault.keysLoaded} keys saved at its shutdown (${fault.keysExpiredOnLoad} had expired); ${fault.keysAtBack} when it answered`)
  }
  out.push(`  lines logged from the restart to the end of the measured time (at most ${maxOutageLines} per instance):`)
  for (const [name, n] of Object.entries(fault.logLinesDuringOutage)) {
    out.push(`    ${name}: ${n}`)
    for (const line of fault.logDuringOutage[name]) out.push(`      ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`)
  }
  return out
}

/** The report as a table for people. */
export function formatReport(report) {
  const { settings } = report
  const out = []
  out.push(
    `Sesame soak: ${settings.instances} instances (${settings.handler} handler) sharing ${settings.adapter === "redis" ? "Redis" : "PostgreSQL"}, ${settings.users} virtual users, ` +
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
  if (report.fault) out.push(...formatFault(report.fault), "")
  const failedKinds = Object.entries(report.failedRequests)
  out.push(report.fault ? "failed requests (inside / outside the outage window):" : "failed requests:")
  if (failedKinds.length === 0) out.push("  none")
  for (const [kind, c] of failedKinds) out.push(`  ${kind.padEnd(48)}${report.fault ? `${int(c.inside).padStart(8)} /${int(c.outside).padStart(6)}` : int(c.outside).padStart(8)}`)
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
