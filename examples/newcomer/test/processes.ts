/**
 * Commands run the way a newcomer runs them in a terminal: a clean environment (none of the
 * test runner's variables: no `NODE_ENV=test`, no `AUTH_*`), and servers in a process group of
 * their own, stopped as a whole (npm, the framework's CLI and its workers) when the test is done.
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { artifactsDir, freePort } from "@sesame/testing"
import { expect } from "vitest"

/**
 * The environment of a new user's shell, plus `extra`: what the test runner set is left out, but
 * not what the machine gives every shell to reach the network: the certificate authorities of a
 * TLS-inspecting proxy (without `NODE_EXTRA_CA_CERTS` there, npm's fetches fail with
 * SELF_SIGNED_CERT_IN_CHAIN as soon as a package is not in its cache) and the proxies themselves.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const network = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"]
  const keep = ["PATH", "HOME", "TMPDIR", "LANG", "USER", "npm_config_cache", ...network]
  const env: NodeJS.ProcessEnv = { NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" }
  for (const name of keep) if (process.env[name]) env[name] = process.env[name]
  return { ...env, ...extra }
}

/** Runs a shell command line to its end in `cwd`; throws with its output when it fails. Returns the seconds it took. */
export function runLine(line: string, cwd: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now()
  const result = spawnSync("sh", ["-c", line], { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`${line} failed (${result.status}) in ${cwd}:\n${result.stdout}\n${result.stderr}`)
  return (performance.now() - started) / 1000
}

/** Held by the process that runs an `npm install` of the newcomer tests (its pid inside). */
const npmLock = join(tmpdir(), "sesame-newcomer-npm.lock")

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * `runLine` for an `npm install`, one at a time across the test processes. Two installs that fill
 * the shared npm cache at once can each read what the other half-wrote (CI has seen
 * `ERESOLVE … Found: solid-js@undefined` when the Next.js and SolidStart newcomer tests installed
 * side by side), so each waits for the other. A lock left by a process that died is taken over.
 * A version the cache's metadata does not know yet is looked up online (see below).
 */
export function npmInstall(line: string, cwd: string, env: NodeJS.ProcessEnv): number {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + 20 * 60_000
  for (;;) {
    try {
      mkdirSync(npmLock)
      writeFileSync(join(npmLock, "pid"), String(process.pid))
      break
    } catch {
      let owner = Number.NaN
      try {
        owner = Number(readFileSync(join(npmLock, "pid"), "utf8"))
      } catch {
        // Being written, or being removed.
      }
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(npmLock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`Waited 20 minutes for ${npmLock}; remove it if no test is running.`)
      Atomics.wait(pause, 0, 0, 500)
    }
  }
  try {
    try {
      return runLine(line, cwd, env)
    } catch (error) {
      // `--prefer-offline` trusts the cache's package metadata, which may predate a release that a
      // newer package in it already requires (CI saw `ETARGET … @babel/generator@^7.29.17`, a
      // version the registry had). Only a fresh look at the registry settles that: once, online.
      if (!line.includes("--prefer-offline") || !/\bETARGET\b/.test(String(error))) throw error
      return runLine(line.replace("--prefer-offline", "--prefer-online"), cwd, env)
    }
  } finally {
    rmSync(npmLock, { recursive: true, force: true })
  }
}

export interface Server {
  /** Everything the server printed so far, without terminal colours. */
  output(): string
  /** Ends the whole process group (SIGTERM, then SIGKILL after ten seconds); resolves once the command has exited. */
  stop(): Promise<void>
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "")

/**
 * Starts the shell command line `line` in `cwd`, in a process group of its own, and resolves once
 * `http://127.0.0.1:<port><readyPath>` answers (any status). Throws with the output when the
 * command exits first or nothing answers within `timeoutMs`.
 */
export async function startServer(line: string, cwd: string, env: NodeJS.ProcessEnv, port: number, readyPath: string, timeoutMs: number): Promise<Server> {
  const child: ChildProcess = spawn("sh", ["-c", line], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name)
    } catch {
      // The group is gone already.
    }
  }
  const stop = async () => {
    signal("SIGTERM")
    const killer = setTimeout(() => signal("SIGKILL"), 10_000)
    await exited
    clearTimeout(killer)
    // npm may exit before the server it started: make sure nothing of the group is left.
    signal("SIGKILL")
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${line} exited (${child.exitCode ?? child.signalCode}):\n${plain(output)}`)
    try {
      await fetch(`http://127.0.0.1:${port}${readyPath}`, { signal: AbortSignal.timeout(timeoutMs) })
      break
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`${line} did not answer on port ${port} within ${timeoutMs / 1000} s:\n${plain(output)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  return { output: () => plain(output), stop }
}

/** The servers of one test file: {@link keptServers}. */
export interface KeptServers {
  /** {@link startServer} with the file's ready path, allowing three minutes. */
  start(line: string, cwd: string, env: NodeJS.ProcessEnv, port: number): Promise<Server>
  /** Stops the server and keeps what it printed in test-artifacts/<suite>/<label>.log; returns it. */
  stop(server: Server, label: string): Promise<string>
  /** Runs `work` against the server, then stops it as {@link KeptServers.stop} does, whether `work` threw or not. */
  during<T>(server: Server, label: string, work: () => Promise<T>): Promise<{ result: T; output: string }>
  /** Stops the servers a failed test left running (for `afterAll`). */
  stopAll(): Promise<void>
}

/** The servers of one test file, each ready once `readyPath` answers, their output kept beside the screenshots. */
export function keptServers(suite: string, readyPath: string): KeptServers {
  const running = new Set<Server>()
  return {
    async start(line, cwd, env, port) {
      const server = await startServer(line, cwd, env, port, readyPath, 180_000)
      running.add(server)
      return server
    },
    async stop(server, label) {
      await server.stop()
      running.delete(server)
      mkdirSync(join(artifactsDir, suite), { recursive: true })
      writeFileSync(join(artifactsDir, suite, `${label}.log`), server.output())
      return server.output()
    },
    async during(server, label, work) {
      let result: Awaited<ReturnType<typeof work>>
      try {
        result = await work()
      } finally {
        await this.stop(server, label)
      }
      return { result, output: server.output() }
    },
    async stopAll() {
      for (const server of running) await server.stop()
      running.clear()
    },
  }
}

/**
 * Starts a server as `launch(port)` says, with `.env.local` (`envFile`) hidden when the secret is
 * the missing setting (the server must not find it by itself), reads the session once at
 * `sessionPath` (the session endpoint under the guide's base path), stops it, and checks the
 * refusal: a 500, and a `[sesame][error]` line that names `missing`.
 */
export async function expectRefusedWithout(
  missing: "AUTH_SECRET" | "AUTH_URL",
  envFile: string,
  launch: (port: number) => Promise<Server>,
  stop: (server: Server) => Promise<string>,
  sessionPath = "/api/auth/session",
): Promise<void> {
  if (missing === "AUTH_SECRET") renameSync(envFile, `${envFile}.off`)
  let status: number
  let output: string
  try {
    const port = await freePort()
    const server = await launch(port)
    try {
      status = (await fetch(`http://127.0.0.1:${port}${sessionPath}`)).status
    } finally {
      output = await stop(server)
    }
  } finally {
    if (missing === "AUTH_SECRET") renameSync(`${envFile}.off`, envFile)
  }
  expect(status, missing).toBe(500)
  expect(output.split("\n").filter((line) => line.startsWith("[sesame][error]") && line.includes(missing)).length, output).toBeGreaterThan(0)
}

/**
 * The guide's start line `line` without the secret (its `--env-file=.env.local`), then without its
 * `AUTH_URL=…`, the two settings the guides' deploy steps say are needed: each server, started by
 * `launch`, must refuse as {@link expectRefusedWithout} checks.
 */
export async function expectRefusedWithoutEither(
  line: string,
  envFile: string,
  launch: (line: string, port: number) => Promise<Server>,
  stop: (server: Server, label: string) => Promise<string>,
  sessionPath: string,
): Promise<void> {
  const without = { AUTH_SECRET: line.replace(" --env-file=.env.local", ""), AUTH_URL: line.replace(/ ?AUTH_URL=\S+/, "") }
  for (const missing of ["AUTH_SECRET", "AUTH_URL"] as const) {
    expect(without[missing], missing).not.toBe(line)
    await expectRefusedWithout(missing, envFile, (port) => launch(without[missing], port), (server) => stop(server, `start-without-${missing}`), sessionPath)
  }
}

/** The `[sesame][warn]` lines of a server's output, but the wrong password's (a visitor's error, logged as a warning). */
export function sesameWarnings(output: string): string[] {
  return output.split("\n").filter((line) => /\[sesame\]\[warn\] (?!CredentialsSignin\b)/.test(line))
}

/**
 * What a development server run without `AUTH_SECRET` must show, as the guides say: no Sesame
 * error, the development secret in the app's `node_modules/.cache/sesame`, readable by its owner
 * only, and one warning for the run.
 */
export function expectDevelopmentSecret(appDir: string, output: string): void {
  expect(output, output).not.toContain("[sesame][error]")
  expect(statSync(join(appDir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
  expect(sesameWarnings(output), output).toEqual([expect.stringMatching(/\[sesame\]\[warn\] missing-secret-development\b/)])
}

/** What a production server with its settings must show of Sesame: no error, and no warning but the wrong password's. */
export function expectQuietProduction(output: string): void {
  expect(output, output).not.toContain("[sesame][error]")
  expect(sesameWarnings(output), output).toEqual([])
}
