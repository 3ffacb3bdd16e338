#!/usr/bin/env node
/**
 * The load and soak run (`npm run bench -- soak [options]`, or `node bench/soak/run.mjs [options]`):
 * app instances (bench/soak/server.mjs, on the built packages: `npm run build` first) sharing a
 * PostgreSQL schema of their own, and virtual users (workload.mjs) signing in with credentials and
 * email links, checking, updating and ending their sessions on all of them, over loopback. After a
 * warm-up, it measures for `--duration` seconds, then lets each user finish its visit, stops the
 * instances and drops the schema. Each instance's memory (after a full GC) is read when the
 * warm-up is over and at the end, both times with no request in flight.
 *
 *   --duration <s>     measured time (default 60)
 *   --warmup <s>       load before measuring, not measured (default: a quarter of --duration, at most 10)
 *   --instances <n>    app instances (default 3)
 *   --users <n>        concurrent virtual users (default 30)
 *   --handler web|node Auth() through a node:http bridge, or toNodeHandler from @sesame/core/node
 *   --database <url>   the PostgreSQL server and database (default $SESAME_TEST_PG_URL or
 *                      postgres://postgres@127.0.0.1:5432/test)
 *   --json             print the report as JSON (progress goes to stderr either way)
 *
 * Exits 1 when a request failed, a session was lost or wrongly accepted, an instance logged an
 * error, or (on runs of 60 s or more) an instance's heap data (heapUsed without compiled code) or
 * RSS grew more than 10 % between the start and the end of the measured time.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { parseArgs } from "node:util"
import { createSchema, defaultDatabase } from "./database.mjs"
import { startInstance } from "./instances.mjs"
import { buildReport, formatReport } from "./report.mjs"
import { Stats } from "./stats.mjs"
import { userEmail, virtualUser } from "./workload.mjs"

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    warmup: { type: "string" },
    instances: { type: "string", default: "3" },
    users: { type: "string", default: "30" },
    handler: { type: "string", default: "web" },
    database: { type: "string", default: defaultDatabase },
    json: { type: "boolean", default: false },
  },
})
const usage = (message) => {
  console.error(`[soak] ${message}`)
  process.exit(2)
}
const number = (name, value, min) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n < min) usage(`--${name} must be a number of at least ${min}, not ${value}`)
  return n
}
const duration = number("duration", values.duration, 1)
const settings = {
  duration,
  warmup: number("warmup", values.warmup ?? Math.min(10, duration / 4), 0),
  instances: Math.floor(number("instances", values.instances, 1)),
  users: Math.floor(number("users", values.users, 1)),
  handler: values.handler,
}
if (settings.handler !== "web" && settings.handler !== "node") usage(`--handler is web or node, not ${settings.handler}`)

const progress = (line) => console.error(`[soak] ${line}`)

/** Ctrl-C ends the run early; the instances are still stopped and the schema dropped. */
const interrupt = new AbortController()
process.once("SIGINT", () => interrupt.abort())
const wait = (seconds) => sleep(seconds * 1000, undefined, { signal: interrupt.signal }).catch(() => {})

/** heapUsed (and how much of it is compiled code) and RSS of an instance, after a full GC. */
async function memoryOf(instance) {
  const response = await fetch(`${instance.origin}/app/memory`, { signal: AbortSignal.timeout(15_000) })
  if (!response.ok) throw new Error(`${instance.name} answered ${response.status} for its memory`)
  return response.json()
}

async function soak() {
  const ids = Array.from({ length: settings.users }, (_, i) => i + 1)
  const schema = await createSchema(values.database, ids.map(userEmail))
  progress(`schema ${schema.name} created and migrated`)
  const secret = crypto.randomUUID()
  let instances = []
  try {
    const starting = Array.from({ length: settings.instances }, (_, index) => startInstance({ index, databaseUrl: schema.url, secret, handler: settings.handler }))
    const started = await Promise.allSettled(starting)
    instances = started.filter((s) => s.status === "fulfilled").map((s) => s.value)
    const failed = started.find((s) => s.status === "rejected")
    if (failed) throw failed.reason
    progress(`${instances.length} instances listening: ${instances.map((i) => i.origin).join(", ")}`)

    const stats = new Stats()
    /** Every user visits until `stop()`, which resolves once each has finished its visit. */
    const startPhase = (name) => {
      let running = true
      const users = ids.map((id) => virtualUser({ id, phase: name, instances, stats, running: () => running }))
      return () => ((running = false), Promise.all(users))
    }
    // Memory is read with no request in flight (between phases), so that it shows what stays.
    const stopWarmUp = startPhase("warm-up")
    await wait(settings.warmup)
    await stopWarmUp()
    const start = await Promise.all(instances.map(memoryOf))
    progress(`warmed up for ${settings.warmup} s; measuring for ${settings.duration} s`)
    stats.measuring = true
    const began = performance.now()
    const stopMeasured = startPhase("measured")
    await wait(settings.duration)
    stats.measuring = false
    const elapsedSeconds = (performance.now() - began) / 1000
    progress("stopping: every user finishes its visit")
    await stopMeasured()
    const end = await Promise.all(instances.map(memoryOf))
    for (const instance of instances) if (instance.exited()) stats.error(`${instance.name} exited during the run`)
    return buildReport({
      settings,
      stats,
      elapsedSeconds,
      instances: instances.map((instance, i) => ({
        name: instance.name,
        start: start[i],
        end: end[i],
        serverErrors: instance.log.filter((line) => line.trim() && !line.startsWith("[sesame][warn]")),
      })),
    })
  } finally {
    await Promise.all(instances.map((i) => i.stop()))
    await schema.drop()
    progress(`instances stopped, schema ${schema.name} dropped`)
  }
}

const report = await soak().catch((error) => {
  progress(`the run could not go on: ${error.message}`)
  process.exit(1)
})
if (interrupt.signal.aborted) {
  progress("interrupted")
  process.exit(130)
}
console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report))
process.exit(report.pass ? 0 : 1)
