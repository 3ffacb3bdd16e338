#!/usr/bin/env node
/**
 * The load and soak run (`npm run bench -- soak [options]`, or `node bench/soak/run.mjs [options]`):
 * app instances (bench/soak/server.mjs, on the built packages: `npm run build` first) sharing a
 * PostgreSQL schema of their own (or a Redis key prefix: redis.mjs), and virtual users
 * (workload.mjs) signing in with credentials and email links, checking, updating and ending their
 * sessions on all of them, over loopback. After a warm-up, it measures for `--duration` seconds,
 * then lets each user finish its visit, stops the instances and drops the schema (or deletes the
 * keys). Each instance's memory (after a full GC) is read when the warm-up is over and at the end,
 * both times with no request in flight.
 *
 * With `--fault`, the server the instances store their data in is restarted once, for real, during
 * the measured time (faults.mjs: how, and why the Redis restart loses no key). While it is down,
 * Sesame must answer 503 with Retry-After, which the users wait out and retry (browser.mjs); the
 * report says which requests failed inside and outside the outage, how soon the rate of successful
 * requests came back, and what each instance logged (outage.mjs). The measured time goes on
 * until at least 4 s after the server is back, so that the recovery can be seen.
 *
 *   --duration <s>     measured time (default 60)
 *   --warmup <s>       load before measuring, not measured (default: a quarter of --duration, at most 10)
 *   --instances <n>    app instances (default 3)
 *   --users <n>        concurrent virtual users (default 30)
 *   --handler web|node Auth() through a node:http bridge, or toNodeHandler from @sesame/core/node
 *   --adapter pg|redis where the instances keep their data (default pg)
 *   --database <url>   the PostgreSQL server and database (default $SESAME_TEST_PG_URL or
 *                      postgres://postgres@127.0.0.1:5432/test)
 *   --redis <url>      the Redis server, with --adapter redis (default $SESAME_TEST_REDIS_URL or
 *                      redis://127.0.0.1:6379)
 *   --fault pg-restart|redis-restart
 *                      restart this machine's PostgreSQL (pg_ctlcluster) or Redis once, as root;
 *                      redis-restart implies --adapter redis. Exits 2 when it cannot be done here.
 *   --fault-at <s>     when, in seconds into the measured time (default: half of --duration)
 *   --json             print the report as JSON (progress goes to stderr either way)
 *
 * Exits 1 when a request failed, a session was lost or wrongly accepted, an instance logged an
 * error, or (on runs of 60 s or more) an instance's heap data (heapUsed without compiled code) or
 * RSS grew more than 10 % between the start and the end of the measured time; with --fault, when a
 * visit failed, a session was lost (inside the outage too) or wrongly accepted, a failed request
 * was not a 503 with Retry-After inside the outage window (from the restart to 2 s after the server
 * was back), the rate took more than 2 s to recover, or an instance logged more than 2 lines for
 * the outage or any server error besides them (report.mjs). It also exits 1, saying why, when the
 * restarted server is not back within 30 s.
 *
 *   node bench/soak/run.mjs --duration 12 --warmup 3 --instances 2 --users 10 --fault pg-restart
 *   node bench/soak/run.mjs --duration 12 --warmup 3 --instances 2 --users 10 --fault redis-restart
 */
import { setTimeout as sleep } from "node:timers/promises"
import { parseArgs } from "node:util"
import { createSchema, defaultDatabase } from "./database.mjs"
import { faultKinds, faultProblem, injectFault } from "./faults.mjs"
import { startInstance } from "./instances.mjs"
import { createPrefix, defaultRedis } from "./redis.mjs"
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
    adapter: { type: "string" },
    database: { type: "string", default: defaultDatabase },
    redis: { type: "string", default: defaultRedis },
    fault: { type: "string" },
    "fault-at": { type: "string" },
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
  // The Redis restart is about the Redis adapter: it implies it.
  adapter: values.adapter ?? (values.fault === "redis-restart" ? "redis" : "pg"),
  fault: values.fault ?? null,
  faultAt: values.fault ? number("fault-at", values["fault-at"] ?? duration / 2, 0) : null,
}
if (settings.handler !== "web" && settings.handler !== "node") usage(`--handler is web or node, not ${settings.handler}`)
if (settings.adapter !== "pg" && settings.adapter !== "redis") usage(`--adapter is pg or redis, not ${settings.adapter}`)
if (settings.fault) {
  if (!faultKinds.includes(settings.fault)) usage(`--fault is ${faultKinds.join(" or ")}, not ${settings.fault}`)
  const needs = settings.fault === "pg-restart" ? "pg" : "redis"
  if (settings.adapter !== needs) usage(`--fault ${settings.fault} restarts the instances' storage: it needs --adapter ${needs}`)
  if (settings.faultAt >= duration) usage(`--fault-at (${settings.faultAt}) must come before the end of --duration (${duration})`)
  const problem = faultProblem(settings.fault, { database: values.database, redis: values.redis })
  if (problem) usage(problem)
} else if (values["fault-at"] !== undefined) usage("--fault-at needs --fault")

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

/** The run's own storage, with the users' accounts: a PostgreSQL schema or a Redis key prefix. */
async function createStorage(emails) {
  if (settings.adapter === "redis") {
    const prefix = await createPrefix(values.redis, emails)
    progress(`Redis key prefix ${prefix.name} created`)
    return { env: prefix.env, drop: prefix.drop, dropped: `keys under ${prefix.name} deleted` }
  }
  const schema = await createSchema(values.database, emails)
  progress(`schema ${schema.name} created and migrated`)
  return { env: { DATABASE_URL: schema.url }, drop: schema.drop, dropped: `schema ${schema.name} dropped` }
}

/** The fault at `faultAt` s into the measured time; resolves with its times, or null when the run was interrupted first. */
async function fault() {
  await wait(settings.faultAt)
  if (interrupt.signal.aborted) return null
  progress(`${settings.fault}: restarting the server`)
  const done = await injectFault(settings.fault, { database: values.database, redis: values.redis })
  progress(`${settings.fault}: the server was back after ${((done.back - done.started) / 1000).toFixed(2)} s`)
  return done
}

async function soak() {
  const ids = Array.from({ length: settings.users }, (_, i) => i + 1)
  const storage = await createStorage(ids.map(userEmail))
  const secret = crypto.randomUUID()
  let instances = []
  try {
    const starting = Array.from({ length: settings.instances }, (_, index) => startInstance({ index, storeEnv: storage.env, secret, handler: settings.handler }))
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
    const injected = settings.fault ? fault() : Promise.resolve(null)
    // A fault that fails (the server not back in time) ends the run at once.
    await Promise.all([wait(settings.duration), injected])
    const restart = await injected
    // Long enough after the server is back to see the recovery (2 s allowed, over 1 s of requests).
    if (restart) await wait(Math.max(0, restart.back + 4_000 - performance.now()) / 1000)
    stats.measuring = false
    const ended = performance.now()
    const elapsedSeconds = (ended - began) / 1000
    progress("stopping: every user finishes its visit")
    await stopMeasured()
    const end = await Promise.all(instances.map(memoryOf))
    for (const instance of instances) if (instance.exited()) stats.error(`${instance.name} exited during the run`)
    return buildReport({
      settings,
      stats,
      elapsedSeconds,
      fault: restart,
      began,
      ended,
      instances: instances.map((instance, i) => ({ name: instance.name, start: start[i], end: end[i], log: instance.log })),
    })
  } finally {
    await Promise.all(instances.map((i) => i.stop()))
    // After a fault that failed, the server may still be down: say so rather than hide why the run stopped.
    await storage.drop().then(
      () => progress(`instances stopped, ${storage.dropped}`),
      (error) => progress(`instances stopped; the run's storage could not be deleted: ${error.message}`),
    )
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
