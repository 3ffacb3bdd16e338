/**
 * Runs one case once, in fresh processes: an in-process case in its own process; an HTTP case as a
 * server process and a load-generator process. Returns the case process's report, `{ unavailable }`,
 * or `{ error }` when something broke.
 */
import { join } from "node:path"
import { Child } from "./child.mjs"

const casesDir = join(import.meta.dirname, "..", "cases")

/**
 * @param {{ id: string, kind: string }} c
 * @param {{ root: string, before?: string, pinning: { pinned: boolean }, timing: Record<string, number> }} settings
 */
export function runCase(c, settings) {
  return c.kind === "http" ? runHttp(c, settings) : runInProcess(c, settings)
}

async function runInProcess(c, { root, before, pinning, timing }) {
  const child = new Child(join(casesDir, "inprocess.mjs"), { id: c.id, root, before, warmupMs: timing.warmupMs, measureMs: timing.measureMs }, pinning, 0)
  try {
    return await child.message("result", timing.warmupMs + timing.measureMs + 60_000)
  } catch (error) {
    return { error: [error.message, child.errorOutput].filter(Boolean).join("\n") }
  } finally {
    await child.stop()
  }
}

async function runHttp(c, { root, before, pinning, timing }) {
  const server = new Child(join(casesDir, "server.mjs"), { id: c.id, root, before }, pinning, 0)
  try {
    const ready = await server.message("ready", 60_000)
    if (ready.unavailable) return ready
    const load = new Child(
      join(casesDir, "load.mjs"),
      { ...ready, connections: timing.connections, warmupSeconds: timing.httpWarmupSeconds, seconds: timing.httpSeconds },
      pinning,
      1,
    )
    let result
    try {
      result = await load.message("result", (timing.httpWarmupSeconds + timing.httpSeconds) * 1000 + 60_000)
    } catch (error) {
      return { error: [`load generator: ${error.message}`, load.errorOutput].filter(Boolean).join("\n") }
    } finally {
      await load.stop()
    }
    if (!server.alive) return { error: ["the server exited during the run", server.errorOutput].filter(Boolean).join("\n") }
    return result
  } catch (error) {
    return { error: [`server: ${error.message}`, server.errorOutput].filter(Boolean).join("\n") }
  } finally {
    await server.stop()
  }
}
