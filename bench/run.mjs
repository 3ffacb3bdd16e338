#!/usr/bin/env node
/**
 * The comparison users can trust: Sesame beside @auth/core and better-auth in one run, with the
 * floors (the same work without any library) measured in that run too.
 *
 * - In-process, `GET session` with a JWT cookie, with that cookie among a browser's cookies, with a
 *   database session (in memory), and with no cookie, for the three libraries; the floors are
 *   listed in bench/lib/contenders/floor.mjs. µs per request.
 * - Over HTTP, autocannon with 50 connections against a fresh server process per case and round:
 *   plain node:http, the bridge floor, Sesame's `Auth()` behind the bridge and its `toNodeHandler`
 *   (n/a when the build has none), @auth/core and better-auth behind the same bridge. Requests per
 *   second. With `taskset`, servers (and in-process cases) run on CPU 0, the load on CPU 1.
 * - Every case runs in a process of its own, so no library's JIT state or garbage affects another.
 *   Rounds are interleaved (every case once, then every case again, ...); the tables give the
 *   median of the rounds and their min–max.
 * - Every answer is checked (status 200 and the expected user, or `null` without a cookie; over
 *   HTTP in autocannon's per-response hook). A wrong answer, a non-2xx, a connection error or a
 *   crash makes the case FAIL in the table and the run exit 1. Goals missed do not.
 *
 *   node bench/run.mjs [options]        (on the built packages: `npm run build` first;
 *                                        `npm run bench` builds, then runs this with --write)
 *   --quick            one short round of everything, in seconds: checks that it works, measures nothing
 *   --rounds <n>       interleaved rounds (default 5)
 *   --only <words>     only the cases whose id contains one of these comma-separated words, e.g.
 *                      `--only inproc/sesame,floor` or `--only http` (ids are printed as they run)
 *   --before <dir>     also run Sesame's cases from another checkout built with `npm run build`
 *                      (e.g. a `git worktree` of an older commit), shown as "Sesame (before)"
 *   --write            prepend a section (date, machine, versions, commit, command, tables) to
 *                      bench/RESULTS.md; earlier sections are left as they are. Not with --quick.
 *
 * A full default run takes about 9 minutes on a 2-core machine; run it on a quiet one.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { catalogue, select } from "./lib/cases.mjs"
import { detectPinning, stopAll } from "./lib/child.mjs"
import { gitState, installedVersion, load, machine, sesameVersion } from "./lib/machine.mjs"
import { beforeAfterTable, goals, httpTable, inProcessTable, summarize } from "./lib/report.mjs"
import { prependSection } from "./lib/results-file.mjs"
import { runCase } from "./lib/runner.mjs"

const benchDir = import.meta.dirname
const root = join(benchDir, "..")

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    write: { type: "boolean", default: false },
    only: { type: "string" },
    before: { type: "string" },
    rounds: { type: "string" },
  },
})

const before = args.before === undefined ? undefined : resolve(args.before)
if (before && !existsSync(join(before, "packages", "core", "package.json"))) {
  console.error(`--before ${args.before}: no packages/core/package.json there; give the root of a Sesame checkout built with npm run build.`)
  process.exit(2)
}

const timing = args.quick
  ? { rounds: 1, warmupMs: 10, measureMs: 40, connections: 50, httpWarmupSeconds: 0.2, httpSeconds: 0.3 }
  : { rounds: 5, warmupMs: 400, measureMs: 1000, connections: 50, httpWarmupSeconds: 1, httpSeconds: 5 }
if (args.rounds !== undefined) {
  timing.rounds = Number(args.rounds)
  if (!Number.isInteger(timing.rounds) || timing.rounds < 1) {
    console.error(`--rounds ${args.rounds}: give a whole number of rounds, 1 or more.`)
    process.exit(2)
  }
}

const cases = select(catalogue({ before: before !== undefined }), args.only)
if (cases.length === 0) {
  console.error(`--only ${args.only}: no case id contains any of these words. The ids:\n${catalogue({ before: true }).map((c) => `  ${c.id}`).join("\n")}`)
  process.exit(2)
}

const pinning = detectPinning()
// Through `npm run bench`, the command to record is that one (scripts/bench.mjs adds --write).
const viaNpm = process.env.npm_lifecycle_event === "bench"
const passed = process.argv.slice(2).filter((a) => !(viaNpm && a === "--write"))
const command = viaNpm ? ["npm run bench", ...(passed.length ? ["--", ...passed] : [])].join(" ") : ["node bench/run.mjs", ...passed].join(" ")
const loadAtStart = load()
const estimate = cases.reduce((s, c) => s + (c.kind === "http" ? timing.httpWarmupSeconds + timing.httpSeconds + 1.5 : (timing.warmupMs + timing.measureMs) / 1000 + 0.8), 0) * timing.rounds
console.log(`${cases.length} cases × ${timing.rounds} round(s), about ${Math.ceil(estimate / 60)} min; ${pinning.note}; load average ${loadAtStart}`)

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    stopAll()
    process.exit(130)
  })
}

const results = new Map(cases.map((c) => [c.id, []]))
const unavailable = new Set()
for (let round = 1; round <= timing.rounds; round++) {
  for (const c of cases) {
    if (unavailable.has(c.id)) continue
    const result = await runCase(c, { root, before, pinning, timing })
    results.get(c.id).push(result)
    if (result.unavailable) unavailable.add(c.id)
    const what = result.error
      ? `FAIL: ${result.error.split("\n")[0]}`
      : result.unavailable
        ? `n/a (${result.unavailable})`
        : `${c.kind === "http" ? `${Math.round(result.rps).toLocaleString("en-US")} req/s` : `${result.us.toFixed(1)} µs/request`}, ${result.checked.toLocaleString("en-US")} answers checked${result.wrong ? `, ${result.wrong} WRONG: ${result.first}` : ""}`
    console.log(`[${round}/${timing.rounds}] ${c.id.padEnd(44)} ${what}`)
  }
}

const rows = summarize(cases, results)
const failed = [...rows.values()].filter((r) => r.failed)
const checked = [...rows.values()].reduce((sum, r) => sum + r.checked, 0)
const wrong = [...rows.values()].reduce((sum, r) => sum + r.wrong, 0)
const info = machine()
const versions = [
  `@sesame/core ${sesameVersion(root)} at ${gitState(root)}`,
  `@auth/core ${installedVersion("@auth/core", [benchDir, root])}`,
  `better-auth ${installedVersion("better-auth", [benchDir, root])}`,
  `autocannon ${installedVersion("autocannon", [benchDir, root])}`,
]
const method = [
  `${timing.rounds} interleaved round(s), every case in fresh processes each round;`,
  `in-process ${timing.warmupMs} ms warm-up + ${timing.measureMs} ms measured per case and round, one request at a time;`,
  `over HTTP ${timing.connections} connections, ${timing.httpWarmupSeconds} s warm-up + ${timing.httpSeconds} s measured, a fresh server per case and round; ${pinning.note}.`,
  "Medians of the rounds, with their min–max. Web-standard handlers are served over HTTP through the same bridge (bench/lib/bridge.mjs).",
  "A load generator near 100 % CPU means it, not the server, set the pace of that case.",
].join(" ")
const sections = [
  `Machine: ${info.cpu} (${info.cores} cores), ${info.memoryGiB} GiB, ${info.os}; load average ${loadAtStart} at the start, ${load()} at the end. Node ${info.node}.`,
  `Versions: ${versions.join("; ")}.${before ? ` Before: @sesame/core ${sesameVersion(before)} at ${gitState(before)}, from ${before}.` : ""}`,
  `Command: \`${command}\`. ${method}`,
  ...[
    ["In-process, µs per request (lower is better)", inProcessTable(rows)],
    ["Over HTTP, requests per second (higher is better)", httpTable(rows)],
    ["Before and after", beforeAfterTable(rows)],
  ]
    .filter(([, body]) => body)
    .map(([title, body]) => `### ${title}\n\n${body}`),
  `### Goals\n\n${goals(rows)}`,
  `Answers checked: ${checked.toLocaleString("en-US")}, wrong: ${wrong.toLocaleString("en-US")}; cases failed: ${failed.length === 0 ? "none" : failed.map((r) => r.id).join(", ")}.`,
]
const report = sections.join("\n\n")
console.log(`\n${report}\n`)
for (const row of failed) console.log(`FAIL ${row.id}:\n  ${row.problems.join("\n  ").replaceAll("\n", "\n  ")}`)

if (args.write) {
  if (args.quick) {
    console.log("--quick measures nothing: bench/RESULTS.md is left as it is.")
  } else {
    const file = join(benchDir, "RESULTS.md")
    const date = new Date().toISOString().replace("T", " ").slice(0, 16)
    const old = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark runs\n"
    writeFileSync(file, prependSection(old, `## ${date} UTC, \`${command}\`\n\n${report}`))
    console.log(`Written to bench/RESULTS.md (a new section at the top).`)
  }
}
process.exit(failed.length > 0 ? 1 : 0)
