/**
 * What a run saw: statuses per configuration, runs and sessions started per scenario, and the
 * requests that broke a property (all counted, the first ones kept in full to print).
 */
import type { ScenarioName } from "./scenarios.js"

export interface Failure {
  target: string
  scenario: ScenarioName
  index: number
  problems: string[]
  request: string
  answer: string
}

/** Failures kept in full; the rest are only counted. */
const keptFailures = 10

export class Tally {
  readonly statuses = new Map<string, Map<number, number>>()
  readonly scenarios = new Map<ScenarioName, { runs: number; sessionsStarted: number }>()
  readonly problems = new Map<string, number>()
  readonly failures: Failure[] = []
  failureCount = 0

  scenarioRun(name: ScenarioName): void {
    this.scenario(name).runs++
  }

  answer(target: string, scenario: ScenarioName, status: number, startedSession: boolean): void {
    const counts = this.statuses.get(target) ?? new Map<number, number>()
    counts.set(status, (counts.get(status) ?? 0) + 1)
    this.statuses.set(target, counts)
    if (startedSession) this.scenario(scenario).sessionsStarted++
  }

  failure(failure: Failure): void {
    this.failureCount++
    for (const problem of failure.problems) {
      const key = `${failure.target}: ${problem}`
      this.problems.set(key, (this.problems.get(key) ?? 0) + 1)
    }
    if (this.failures.length < keptFailures) this.failures.push(failure)
  }

  /** Answers of `target` with a status in [from, to). */
  count(target: string, from: number, to: number): number {
    let n = 0
    for (const [status, c] of this.statuses.get(target) ?? []) if (status >= from && status < to) n += c
    return n
  }

  sessionsStarted(scenario: ScenarioName): number {
    return this.scenarios.get(scenario)?.sessionsStarted ?? 0
  }

  /** The lines printed at the end of a run. */
  summary(): string[] {
    const lines: string[] = []
    for (const [target, counts] of this.statuses) {
      lines.push(`${target}: ${JSON.stringify(Object.fromEntries([...counts].sort(([a], [b]) => a - b)))}`)
    }
    lines.push(`scenarios (runs / sessions started): ${[...this.scenarios].map(([name, s]) => `${name} ${s.runs}/${s.sessionsStarted}`).join(", ")}`)
    if (this.problems.size) lines.push(`problems: ${JSON.stringify(Object.fromEntries(this.problems), null, 1)}`)
    return lines
  }

  /** The failures kept, printable. */
  report(): string {
    return this.failures.map((f) => `#${f.index} on ${f.target} (${f.scenario}): ${f.problems.join("; ")}\n${f.request}\n  -> ${f.answer}`).join("\n\n")
  }

  private scenario(name: ScenarioName) {
    let entry = this.scenarios.get(name)
    if (!entry) this.scenarios.set(name, (entry = { runs: 0, sessionsStarted: 0 }))
    return entry
  }
}
