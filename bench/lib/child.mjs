/**
 * Case processes: started with `node` (under `taskset -c <cpu>` when pinning is possible), their
 * `@@bench` line awaited, their stderr kept for the report when they fail.
 */
import { spawn, spawnSync } from "node:child_process"
import { availableParallelism } from "node:os"
import { receive } from "./protocol.mjs"

/** Whether processes can be pinned: `taskset` works and there are two CPUs. */
export function detectPinning() {
  if (availableParallelism() < 2) return { pinned: false, note: "not pinned (fewer than 2 CPUs)" }
  const probe = spawnSync("taskset", ["-c", "1", "true"])
  if (probe.error || probe.status !== 0) return { pinned: false, note: "not pinned (no working `taskset`)" }
  return { pinned: true, note: "pinned with `taskset`: servers and in-process cases on CPU 0, the load generator on CPU 1" }
}

/** The case processes running now, so that an interrupted run ends them (see `stopAll`). */
const running = new Set()

/** Ends every case process still running: for a run that is interrupted. */
export function stopAll() {
  for (const child of running) child.process.kill("SIGTERM")
}

export class Child {
  stdout = ""
  stderr = ""

  /**
   * @param {string} script
   * @param {unknown} spec passed as the one argument, in JSON
   * @param {{ pinned: boolean }} pinning
   * @param {number} cpu
   */
  constructor(script, spec, pinning, cpu) {
    const args = [script, JSON.stringify(spec)]
    // taskset execs node, so the child's pid is node's own.
    this.process = pinning.pinned
      ? spawn("taskset", ["-c", String(cpu), process.execPath, ...args], { stdio: ["ignore", "pipe", "pipe"] })
      : spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
    running.add(this)
    this.exited = new Promise((resolve) =>
      this.process.on("close", (code, signal) => {
        running.delete(this)
        resolve({ code, signal })
      }),
    )
    this.process.stdout.setEncoding("utf8").on("data", (chunk) => {
      this.stdout += chunk
      this.onOutput?.()
    })
    // Only the end of stderr is reported; a chatty library must not grow it without bound.
    this.process.stderr.setEncoding("utf8").on("data", (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-4000)
    })
  }

  /** The child's `@@bench <kind>` message; rejects when it exits first or takes longer than `ms`. */
  message(kind, ms) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms)
      const finish = (error, value) => {
        clearTimeout(timer)
        this.onOutput = undefined
        if (error) reject(error)
        else resolve(value)
      }
      this.onOutput = () => {
        const value = receive(this.stdout, kind)
        if (value !== undefined) finish(undefined, value)
      }
      this.onOutput()
      this.exited.then(({ code, signal }) => {
        const value = receive(this.stdout, kind)
        finish(value === undefined ? new Error(`exited (${signal ?? `code ${code}`}) without an answer`) : undefined, value)
      })
    })
  }

  /** Ends the child (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  async stop() {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill("SIGTERM")
      const timer = setTimeout(() => this.process.kill("SIGKILL"), 5000)
      await this.exited
      clearTimeout(timer)
    }
    return this.exited
  }

  get alive() {
    return this.process.exitCode === null && this.process.signalCode === null
  }

  /** The end of stderr, for a failure's report. */
  get errorOutput() {
    return this.stderr.trim().split("\n").slice(-6).join("\n")
  }
}
