/**
 * Shared by the README's commands (`npm start`, `npm test`): they must work on a fresh clone with
 * nothing but Node.js and npm, so they install and build what is missing themselves.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

export function step(message) {
  console.log(`\x1b[1m▶ ${message}\x1b[0m`)
}

/** Runs a command in the foreground; returns its exit status. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options })
  if (result.error) throw result.error
  return result.status ?? 1
}

/** Starts a long-running command; resolves with its exit code. Signals are forwarded. */
export function runForeground(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", ...options })
    const forward = (signal) => child.kill(signal)
    process.on("SIGINT", forward)
    process.on("SIGTERM", forward)
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 130 : 1)))
  })
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = join(root, "node_modules", ".package-lock.json")
  const lock = join(root, "package-lock.json")
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return
  step("Installing dependencies (npm ci; better-sqlite3 compiles from source, about a minute)")
  const status = run(npm, ["ci", "--no-audit", "--no-fund"])
  if (status !== 0) {
    console.error("npm ci failed: see the messages above.")
    process.exit(status)
  }
}

export const chromiumPath = "/usr/bin/chromium"

/** Runs apt-get non-interactively; a machine without apt-get counts as a failure. */
function aptGet(args) {
  try {
    return run("apt-get", args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } })
  } catch {
    return 1
  }
}

/**
 * The browser tests drive Debian's Chromium. When it is missing, installs it with apt-get (as
 * root only: a test command must not stop to ask for a password), or stops with the command to run.
 */
export function ensureChromium() {
  if (existsSync(chromiumPath)) return
  const manual = "Install it, then run the tests again: sudo apt-get update && sudo apt-get install -y chromium"
  if (process.getuid?.() !== 0) {
    console.error(`The browser tests need Chromium at ${chromiumPath}, and it is missing. ${manual}`)
    process.exit(1)
  }
  step("Installing Chromium for the browser tests (apt-get install -y chromium, about 30 s)")
  let status = aptGet(["install", "-y", "chromium"])
  if (status !== 0) {
    // A fresh machine may have no package lists yet.
    step("Refreshing the package lists (apt-get update) and trying again")
    status = aptGet(["update"]) === 0 ? aptGet(["install", "-y", "chromium"]) : 1
  }
  if (status !== 0 || !existsSync(chromiumPath)) {
    console.error(`Installing Chromium failed: see the apt-get messages above. ${manual}`)
    process.exit(1)
  }
}

/** Builds the packages (incremental: quick when nothing changed). */
export function build() {
  step("Building packages")
  const status = run(process.execPath, [join(root, "scripts", "build.mjs")])
  if (status !== 0) {
    console.error("The build failed: see the TypeScript errors above.")
  }
  return status
}
