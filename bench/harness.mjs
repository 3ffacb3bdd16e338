/**
 * A small benchmark harness: warm-up, then rounds that alternate between the contenders (so
 * drift of the machine affects both alike), each round timed for a fixed duration. Reports the
 * median round. Never used by tests to assert on time.
 */

/** Runs `fn` repeatedly for about `ms` milliseconds; returns microseconds per operation. */
async function round(fn, ms) {
  let ops = 0
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    for (let i = 0; i < 50; i++) await fn()
    ops += 50
    now = performance.now()
  }
  return ((now - start) * 1000) / ops
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/**
 * @param {string} title
 * @param {{ name: string, fn: () => Promise<unknown> }[]} contenders the first is the reference of the ratio column
 * @param {{ rounds?: number, roundMs?: number, warmupMs?: number }} options
 */
export async function compare(title, contenders, { rounds = 7, roundMs = 400, warmupMs = 600 } = {}) {
  for (const c of contenders) await round(c.fn, warmupMs)
  const samples = contenders.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of contenders.entries()) samples[i].push(await round(c.fn, roundMs))
  }
  const results = contenders.map((c, i) => ({ name: c.name, us: median(samples[i]) }))
  const [ours] = results
  console.log(`\n${title}`)
  console.log(`${"library".padEnd(14)}${"ops/s".padStart(12)}${"µs/op".padStart(12)}${"vs sesame".padStart(12)}`)
  for (const r of results) {
    const ratio = r.us / ours.us
    console.log(`${r.name.padEnd(14)}${Math.round(1e6 / r.us).toLocaleString("en-US").padStart(12)}${r.us.toFixed(1).padStart(12)}${`${ratio.toFixed(1)}×`.padStart(12)}`)
  }
  return results
}

/** `--quick` runs short rounds: to check the script works, not to measure. */
export function options() {
  return process.argv.includes("--quick") ? { rounds: 1, roundMs: 20, warmupMs: 20 } : {}
}
