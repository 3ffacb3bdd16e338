/**
 * What a run's failed requests, request rate and instances' logs say about a fault (faults.mjs):
 * which failures fell inside the outage, how soon the service recovered, what was logged.
 *
 * The outage window runs from the restart's start to "database back" (the first fresh connection
 * that works) plus `graceMs`: an instance learns that the server is back on its next connection
 * attempt, and a request already answered 503 waits its Retry-After, so a failure up to 2 s later is
 * still the outage's. A failed request is inside when its time (sent to answered) meets the window.
 *
 * secondsToRecover: from "back" to the start of the first full second (searched in steps of 100 ms)
 * in which no request failed and at least `recoveredShare` of the pre-fault rate of successful
 * requests (measured from the start of the measured time to the restart) succeeded. So it counts
 * both a service that still answers errors and one that answers nothing. null when no such second
 * came before the measured time ended.
 */
import { linesBetween } from "./logs.mjs"
import { bucketMs } from "./stats.mjs"

export const graceMs = 2_000
/** The share of the pre-fault rate of successful requests that counts as recovered. */
export const recoveredShare = 0.5
/** The window the recovered rate is measured over. */
const recoveryWindowMs = 1_000

/** How many requests succeeded from `from` to `to` (ms, performance.now()), by 100 ms bucket. */
function successesBetween(successes, from, to) {
  let sum = 0
  for (let bucket = Math.floor(from / bucketMs); bucket < Math.floor(to / bucketMs); bucket++) sum += successes.get(bucket) ?? 0
  return sum
}

/** Failed requests by "label kind", each split into inside and outside the window (all outside with no fault). */
export function failedRequests(failures, window) {
  const byKind = {}
  for (const { label, kind, start, end } of failures) {
    const key = `${label} ${kind}`
    const counts = (byKind[key] ??= { inside: 0, outside: 0 })
    if (window && start <= window.to && end >= window.from) counts.inside++
    else counts.outside++
  }
  return Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => a.localeCompare(b)))
}

/**
 * @param {object} run
 * @param {{ kind: string, command: string, started: number, commandDone: number, back: number, notes: object }} run.fault
 * @param {import("./stats.mjs").Stats} run.stats
 * @param {number} run.began the measured time's start (performance.now())
 * @param {number} run.ended its end
 * @param {{ name: string, log: { at: number, line: string }[] }[]} run.instances
 */
export function analyseFault({ fault, stats, began, ended, instances }) {
  const window = outageWindow(fault)
  const seconds = (t) => Number(((t - began) / 1000).toFixed(3))
  const preFaultSeconds = (fault.started - began) / 1000
  const preFaultRate = preFaultSeconds > 0 ? successesBetween(stats.successes, began, fault.started) / preFaultSeconds : 0
  const needed = preFaultRate * recoveredShare * (recoveryWindowMs / 1000)
  const failedAt = stats.failures.map((f) => f.end)

  let secondsToRecover = null
  for (let t = Math.floor(fault.back / bucketMs) * bucketMs; t + recoveryWindowMs <= ended; t += bucketMs) {
    const to = t + recoveryWindowMs
    if (failedAt.some((at) => at >= t && at < to)) continue
    if (successesBetween(stats.successes, t, to) < needed) continue
    secondsToRecover = Number((Math.max(0, t - fault.back) / 1000).toFixed(3))
    break
  }

  // From the restart to the end of the measured time: an instance should print the outage's first
  // line and its "available again" line, nothing else.
  const logLines = Object.fromEntries(instances.map((i) => [i.name, linesBetween(i.log, fault.started, ended)]))
  return {
    kind: fault.kind,
    command: fault.command,
    outage: {
      restartStartedAt: seconds(fault.started),
      firstFailedConnectionAt: seconds(fault.down),
      commandReturnedAt: seconds(fault.commandDone),
      backAt: seconds(fault.back),
      seconds: Number(((fault.back - fault.started) / 1000).toFixed(3)),
      windowEndsAt: seconds(window.to),
      graceSeconds: graceMs / 1000,
    },
    ...fault.notes,
    preFaultThroughput: preFaultRate,
    secondsToRecover,
    recoveryRule: `the first full second after "back" with no failed request and at least ${recoveredShare * 100} % of the pre-fault rate of successful requests`,
    logLinesDuringOutage: Object.fromEntries(Object.entries(logLines).map(([name, lines]) => [name, lines.length])),
    logDuringOutage: Object.fromEntries(Object.entries(logLines).map(([name, lines]) => [name, lines.slice(0, 10)])),
  }
}

/** The outage window (performance.now() times) failed requests are judged against. */
export const outageWindow = (fault) => ({ from: fault.started, to: fault.back + graceMs })
