/**
 * An example app as a newcomer starts it: `npm start` in its folder, from a person's shell (no
 * Vitest variables such as NODE_ENV=test, no AUTH_*), in its own process group so that Ctrl-C
 * (SIGINT to the group) reaches npm, the start script and the server alike.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process"
import { freePort } from "./port.js"

/** A started example: where it listens, what it printed so far, and how to stop it. */
export interface StartedExample {
  readonly origin: string
  /** Everything the processes printed, stdout and stderr, so far. */
  output(): string
  /** Ctrl-C, and the wait for the processes to end. */
  stop(): Promise<void>
}

/** What `startExample` needs to know of an example. */
export interface ExampleStart {
  /** The example's folder. */
  readonly dir: string
  /** The line the start script prints once the app listens; its first group is the app's origin. */
  readonly ready: RegExp
  /** `PATH` for the shell, when the framework needs another Node.js first in it. */
  readonly path?: string
  /** How long the build and the start may take, in milliseconds. */
  readonly timeout: number
}

/** Runs `npm start` in `example.dir` on a free port, and resolves once it printed `example.ready`. */
export async function startExample(example: ExampleStart): Promise<StartedExample> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { PORT: String(port) }
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "USER", "npm_config_cache"]) if (process.env[name]) env[name] = process.env[name]
  if (example.path) env.PATH = example.path
  const child: ChildProcess = spawn("npm", ["start"], { cwd: example.dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid!, "SIGINT")
    await exited
  }
  const deadline = Date.now() + example.timeout
  let found: RegExpExecArray | null
  while (!(found = example.ready.exec(output))) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`npm start was not ready in time:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { origin: found[1]!, output: () => output, stop }
}
