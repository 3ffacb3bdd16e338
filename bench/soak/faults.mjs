/**
 * The faults a run can inject (`--fault`): a real restart of the server this machine runs, once,
 * bounded (the run fails with a message when it is not back within `boundMs`), timed on the clock
 * the requests are timed on (performance.now()):
 *
 *   started   the restart command starts: the outage may begin from here
 *   down      the first fresh connection that failed (for the report only)
 *   back      the first fresh connection that works after one failed, or after the restart
 *             command returned (whichever comes first: pg_ctlcluster itself polls every 0.5 s,
 *             so it may return a while after the server is back)
 *
 * A fresh connection is tried every `pollMs` from the restart's start until `back`.
 *
 * pg-restart: `pg_ctlcluster --skip-systemctl-redirect <version> main stop` (fast shutdown: every
 * connection is ended), a pause of `pauseMs`, `… main start`, then `SELECT 1` on a new connection
 * until it answers. A plain `restart` is over in about 0.3 s on an idle machine, which the retries
 * of reads absorb whole: no request met it, and the run proved nothing.
 *
 * redis-restart: `redis-cli shutdown save`, a pause of `pauseMs` (so that the instances
 * really meet a server that is not there), then the command `npm test` starts Redis with
 * (scripts/lib.mjs), then PING on a new connection until it answers PONG (not LOADING). This Redis
 * keeps nothing on disk (`--save ""`), so a plain restart would erase every key, and sessions lost
 * that way would say nothing about Sesame. SHUTDOWN SAVE writes all keys to the RDB file as the
 * server exits, with no client able to write in between (unlike DUMP before a SHUTDOWN NOSAVE), and
 * the restarted server loads it from its `--dir` before it answers PING; the file is deleted once
 * it is loaded, so that the machine's Redis keeps nothing on disk again. So the restart loses no
 * key, and a session read as absent after it is one Sesame lost. As a check, the restarted
 * server's log must say it loaded the file ("Done loading RDB, keys loaded: N"); the run stops
 * when it does not, since its sessions would then be gone because of the restart.
 */
import { execFile, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import pg from "pg"
import { portOpen, services } from "../../scripts/lib.mjs"
import { connect } from "./redis.mjs"

export const faultKinds = ["pg-restart", "redis-restart"]
/** How long a restart may take, from its command to the first working connection. */
export const boundMs = 30_000
const pollMs = 50
/** The deliberate gap between a server's shutdown and its start: a shutdown alone takes milliseconds. */
const pauseMs = 2_000
/** How `npm test` starts Redis: the restart uses the very same command. */
const redisStart = services.find((s) => s.name === "Redis").start
/** Where that command's Redis reads its RDB file at start, and where it logs. */
const redisRdb = join(/--dir (\S+)/.exec(redisStart)[1], "dump.rdb")
const redisLog = /--logfile (\S+)/.exec(redisStart)[1]
const localHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1", ""])

const run = promisify(execFile)
const onPath = (command) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0

/** The PostgreSQL version this machine runs (its one directory under /etc/postgresql), or why not. */
function postgresVersion() {
  let versions = []
  try {
    versions = readdirSync("/etc/postgresql")
  } catch {}
  return versions.length === 1 ? { version: versions[0] } : { problem: `expected one PostgreSQL version under /etc/postgresql, found ${versions.length ? versions.join(", ") : "none"}` }
}

/**
 * Why `kind` cannot be injected on this machine (a message that says what to do instead), or
 * null. Checked before the run starts anything.
 */
export function faultProblem(kind, { database, redis }) {
  const root = process.getuid?.() === 0
  if (kind === "pg-restart") {
    const host = new URL(database).hostname
    if (!localHosts.has(host)) return `--fault pg-restart restarts this machine's PostgreSQL, but --database is on ${host}: run it against the local server (postgres://postgres@127.0.0.1:5432/test)`
    if (!onPath("pg_ctlcluster")) return "--fault pg-restart needs pg_ctlcluster (Debian's postgresql-common): apt-get install -y postgresql-common, or restart PostgreSQL by hand during a plain run"
    const { problem } = postgresVersion()
    if (problem) return `--fault pg-restart: ${problem}`
    if (!root) return "--fault pg-restart restarts PostgreSQL with pg_ctlcluster, which needs root: run the soak as root (sudo node bench/soak/run.mjs …)"
    return null
  }
  if (kind === "redis-restart") {
    const { hostname, port } = new URL(redis)
    if (!localHosts.has(hostname) || (port || "6379") !== "6379") return `--fault redis-restart restarts this machine's Redis on 127.0.0.1:6379, but --redis is ${redis}`
    if (!onPath("redis-cli") || !onPath("redis-server")) return "--fault redis-restart needs redis-cli and redis-server: apt-get install -y redis-server"
    if (!root) return `--fault redis-restart writes Redis's RDB file to ${redisRdb} and restarts Redis as root: run the soak as root (sudo node bench/soak/run.mjs …)`
    return null
  }
  return `--fault is ${faultKinds.join(" or ")}, not ${kind}`
}

/**
 * Tries `probe` (a fresh connection) every `pollMs` from now, while `commandReturned()` tells when
 * (if yet) the restart's command returned: resolves with `down`, `back` (see above) and what the
 * probe that worked resolved with. Throws `message` past `deadline`, or once `stopped()`.
 */
async function watchOutage(probe, { commandReturned, stopped }, deadline, message) {
  let down = null
  let last
  for (;;) {
    const tried = performance.now()
    const worked = await probe().then(
      (value) => ({ value }),
      (error) => void (last = error),
    )
    const returned = commandReturned()
    if (worked && (down !== null || (returned !== null && tried >= returned))) return { down, back: performance.now(), value: worked.value }
    if (!worked && down === null) down = tried
    if (stopped()) throw new Error("stopped")
    if (performance.now() > deadline) throw new Error(`${message}${last ? ` (last: ${last.message})` : ""}`)
    await sleep(pollMs)
  }
}

/**
 * Runs `restart` (the commands; resolves once the last one returned) while watching the server with
 * `probe`; resolves with the times once the server is back.
 */
async function restartWatched(restart, probe, message) {
  const started = performance.now()
  const deadline = started + boundMs
  let returnedAt = null
  let failed = false
  const commands = restart(deadline).then(
    () => void (returnedAt = performance.now()),
    (error) => {
      failed = true
      throw error
    },
  )
  const watched = watchOutage(probe, { commandReturned: () => returnedAt, stopped: () => failed }, deadline, message)
  // The commands' failure says more than the watcher's.
  await commands.catch((error) => {
    watched.catch(() => {})
    throw error
  })
  const { down, back, value } = await watched
  return { started, down: down ?? back, commandDone: returnedAt, back, value }
}

/** Runs `attempt` every `pollMs` until it resolves; returns the time it first did. Throws `message` past `deadline`. */
async function pollUntil(attempt, deadline, message) {
  for (;;) {
    try {
      await attempt()
      return performance.now()
    } catch (error) {
      if (performance.now() > deadline) throw new Error(`${message} (last: ${error.message})`)
    }
    await sleep(pollMs)
  }
}

/** Runs a command with what is left of the bound; its failure says what it printed. */
async function command(file, args, deadline) {
  try {
    return await run(file, args, { timeout: Math.max(1, Math.round(deadline - performance.now())) })
  } catch (error) {
    const why = error.killed ? `did not finish within ${boundMs / 1000} s` : `failed: ${(error.stderr || error.message).trim()}`
    throw new Error(`${file} ${args.join(" ")} ${why}`)
  }
}

async function restartPostgres({ database }) {
  const { version } = postgresVersion()
  const cluster = ["--skip-systemctl-redirect", version, "main"]
  const probe = async () => {
    const client = new pg.Client({ connectionString: database, connectionTimeoutMillis: 1_000 })
    client.on("error", () => {})
    try {
      await client.connect()
      await client.query("SELECT 1")
    } finally {
      await client.end().catch(() => {})
    }
  }
  const times = await restartWatched(
    async (deadline) => {
      await command("pg_ctlcluster", [...cluster, "stop", "--mode", "fast"], deadline)
      await sleep(pauseMs)
      await command("pg_ctlcluster", [...cluster, "start"], deadline)
    },
    probe,
    `PostgreSQL did not accept connections within ${boundMs / 1000} s of the restart`,
  )
  const commands = `pg_ctlcluster ${cluster.join(" ")}`
  return { kind: "pg-restart", command: `${commands} stop --mode fast; ${pauseMs / 1000} s; ${commands} start`, ...times, notes: {} }
}

async function restartRedis({ redis }) {
  const { hostname, port } = new URL(redis)
  const host = hostname.replace(/^\[|\]$/g, "") || "127.0.0.1"
  const before = await connect(redis)
  const [, dir] = await before.config("GET", "dir")
  const [, file] = await before.config("GET", "dbfilename")
  before.disconnect()
  let logFrom = 0

  const restart = async (deadline) => {
    // Answers nothing when it works (the server closes the connection as it exits); when the save
    // fails, Redis refuses to exit, which the wait below reports.
    const shutdown = await command("redis-cli", ["-h", host, "-p", port || "6379", "shutdown", "save"], deadline)
    await pollUntil(
      async () => {
        if (await portOpen(Number(port || 6379), 200)) throw new Error("still listening")
      },
      deadline,
      `Redis did not shut down (redis-cli said: ${(shutdown.stdout + shutdown.stderr).trim() || "nothing"})`,
    )
    // The server that starts next reads its RDB file from the start command's --dir.
    const saved = join(dir, file)
    if (saved !== redisRdb) {
      copyFileSync(saved, redisRdb)
      unlinkSync(saved)
    }
    await sleep(pauseMs)
    logFrom = existsSync(redisLog) ? statSync(redisLog).size : 0
    // Returns once the server has forked into the background (--daemonize yes).
    await command("sh", ["-c", redisStart], deadline)
  }
  const probe = async () => {
    const client = await connect(redis)
    try {
      // LOADING until the RDB file is read: only then is the server back.
      await client.ping()
      return await client.dbsize()
    } finally {
      client.disconnect()
    }
  }
  const { value: keysAtBack, ...times } = await restartWatched(restart, probe, `Redis did not answer PING within ${boundMs / 1000} s of the restart (${redisStart})`)
  // Loaded: this Redis keeps nothing on disk, as before the restart.
  if (existsSync(redisRdb)) unlinkSync(redisRdb)
  const loaded = /Done loading RDB, keys loaded: (\d+), keys expired: (\d+)/.exec(readFileSync(redisLog, "utf8").slice(logFrom))
  if (!loaded) throw new Error(`the restarted Redis did not load the keys saved at its shutdown (no "Done loading RDB" in ${redisLog}): every session is gone because of the restart, which says nothing about Sesame`)
  return {
    kind: "redis-restart",
    command: `redis-cli shutdown save; ${pauseMs / 1000} s; ${redisStart}`,
    ...times,
    notes: { keysLoaded: Number(loaded[1]), keysExpiredOnLoad: Number(loaded[2]), keysAtBack },
  }
}

/** Injects `kind` now; resolves with its times once the server is back, or rejects with why not (within `boundMs`). */
export function injectFault(kind, settings) {
  return kind === "pg-restart" ? restartPostgres(settings) : restartRedis(settings)
}
