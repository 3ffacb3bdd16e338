/**
 * One in-process case, in a process of its own (started by bench/run.mjs): sets the case up, runs
 * it for the warm-up, then for the measured time, one request after another, and reports µs per
 * request. Every answer, warm-up included, is checked (bench/lib/check.mjs); each request builds
 * its Request and reads and checks the body, floors included.
 */
import { target } from "../lib/cases.mjs"
import { Tally } from "../lib/check.mjs"
import { origin } from "../lib/fixture.mjs"
import { send, spec } from "../lib/protocol.mjs"

const { id, root, before, warmupMs, measureMs } = spec()
const t = await target(id, { root, before })
if (t.unavailable) {
  await send("result", { unavailable: t.unavailable })
  process.exit(0)
}

const tally = new Tally(t.expect)
let setsCookie = false
const url = `${origin}${t.path}`
const op =
  t.op ??
  (async () => {
    const response = await t.handler(new Request(url, { headers: t.nextHeaders?.() ?? t.headers }))
    if (response.headers.has("set-cookie")) setsCookie = true
    return { status: response.status, body: await response.text() }
  })

/** Runs `op` in batches for about `ms`; returns the operations done and the time they took. */
async function run(ms) {
  let ops = 0
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    for (let i = 0; i < 50; i++) {
      const { status, body } = await op()
      tally.record(status, body)
    }
    ops += 50
    now = performance.now()
  }
  return { ops, ms: now - start }
}

await run(warmupMs)
const measured = await run(measureMs)
await send("result", { us: (measured.ms * 1000) / measured.ops, ops: measured.ops, setsCookie, headerBytes: t.headers?.cookie?.length ?? 0, ...tally.toJSON() })
// A library's timers must not keep the process alive.
process.exit(0)
