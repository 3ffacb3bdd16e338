/**
 * One HTTP case's load (started by bench/run.mjs, pinned to CPU 1 when `taskset` is there):
 * autocannon with 50 connections, a warm-up run, then the measured run. Every response of both is
 * checked in autocannon's per-response hook (status and body, bench/lib/check.mjs).
 */
import autocannon from "autocannon"
import { Tally } from "../lib/check.mjs"
import { send, spec } from "../lib/protocol.mjs"

const { port, path, headers, expect, connections, warmupSeconds, seconds } = spec()
const tally = new Tally(expect)
let setsCookie = false
const request = {
  method: "GET",
  path,
  headers,
  onResponse(status, body, _context, responseHeaders) {
    if (Object.keys(responseHeaders).some((name) => name.toLowerCase() === "set-cookie")) setsCookie = true
    tally.record(status, body)
  },
}

const run = (duration) => autocannon({ url: `http://127.0.0.1:${port}`, connections, duration, requests: [request] })
const warm = await run(warmupSeconds)
// How busy this process was while measuring: near 100 %, the load generator, not the server, set the pace.
const cpuBefore = process.cpuUsage()
const wallBefore = performance.now()
let main = await run(seconds)
// A run in which no response came back measured nothing (a loaded machine under --quick's 0.3 s):
// it is run again rather than reported as 0 requests/s.
for (let tries = 1; main.requests.total === 0 && tries < 5; tries++) main = await run(seconds)
const cpu = process.cpuUsage(cpuBefore)
await send("result", {
  rps: main.requests.total / main.duration,
  requests: main.requests.total,
  loadCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore),
  errors: warm.errors + main.errors,
  timeouts: warm.timeouts + main.timeouts,
  non2xx: warm.non2xx + main.non2xx,
  setsCookie,
  ...tally.toJSON(),
})
process.exit(0)
