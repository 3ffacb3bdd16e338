/**
 * Runs the README's start command as a new user would: in a fresh copy of the repository (the
 * files a clone holds: tracked and new, not ignored ones), with a clean environment, and stops it
 * as Ctrl-C in a terminal does (SIGINT to the whole foreground process group).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readdirSync, readlinkSync } from "node:fs"
import { connect } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** Copies the repository's files (what `git clone` would give, uncommitted changes included) to `target`. */
export function copyRepository(target: string): void {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repositoryRoot, encoding: "utf8" })
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = join(repositoryRoot, file)
    if (!existsSync(from)) continue // deleted, not yet committed
    mkdirSync(dirname(join(target, file)), { recursive: true })
    copyFileSync(from, join(target, file))
  }
}

/** What `npm start` printed once the app answers. */
export interface Banner {
  origin: string
  idpIssuer: string
  smtpPort: number
  /** Acme Corp's identity provider (enterprise SSO) and the local DNS server's port. */
  ssoIssuer: string
  dnsPort: number
}

export interface StartedDemo {
  banner: Banner
  /** Everything printed so far, without terminal colours. */
  output(): string
  /** Ctrl-C: SIGINT to the process group; resolves when npm has exited. */
  interrupt(): Promise<void>
  child: ChildProcess
}

/** The environment of a new user's shell: no AUTH_*, no NODE_ENV=test from Vitest. */
export function cleanEnv(port: number): NodeJS.ProcessEnv {
  const keep = ["PATH", "HOME", "TMPDIR", "LANG", "USER", "npm_config_cache"]
  const env: NodeJS.ProcessEnv = { PORT: String(port), npm_config_prefer_offline: "true", NO_COLOR: "1" }
  for (const name of keep) if (process.env[name]) env[name] = process.env[name]
  return env
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "")

/** `npm start` in `dir`; resolves when the start-up banner is printed. */
export async function npmStart(dir: string, port: number, timeoutMs: number): Promise<StartedDemo> {
  // Its own process group, like a shell's foreground job.
  const child = spawn("npm", ["start"], { cwd: dir, env: cleanEnv(port), stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const interrupt = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGINT")
    return exited
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = plain(output)
    const ready = /Sesame demo: (http:\/\/localhost:\d+)/.exec(text)
    if (ready) {
      const idp = /Sesame Dev IdP at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)
      const smtp = /SMTP smtp:\/\/127\.0\.0\.1:(\d+)/.exec(text)
      const sso = /Acme Corp's identity provider at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)
      const dns = /DNS: 127\.0\.0\.1:(\d+)/.exec(text)
      if (!idp || !smtp || !sso || !dns) throw new Error(`The banner lacks the IdP, the mailbox, Acme's IdP or the DNS server:\n${text}`)
      return { banner: { origin: ready[1]!, idpIssuer: idp[1]!, smtpPort: Number(smtp[1]), ssoIssuer: sso[1]!, dnsPort: Number(dns[1]) }, output: () => plain(output), interrupt, child }
    }
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before the app was ready:\n${text}`)
    if (Date.now() > deadline) {
      await interrupt()
      throw new Error(`npm start was not ready within ${timeoutMs / 1000} s:\n${text}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })
}

/** The processes whose working directory is inside `dir` (read from /proc). */
export function processesIn(dir: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(pid)
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found
}
