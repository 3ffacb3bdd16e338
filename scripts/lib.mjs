/**
 * Shared by the README's commands (`npm start`, `npm test`): they must work on a fresh clone with
 * nothing but Node.js and npm, so they install and build what is missing themselves.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { connect } from "node:net"
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

/** A Japanese font, so that the screenshots of the pages in Japanese show text rather than boxes. */
const japaneseFont = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"

/**
 * Makes sure `path` exists, installing Debian's `packages` with apt-get when it does not (as root
 * only: a test command must not stop to ask for a password), or stops with the command to run.
 * `needs` says which tests need it; `what` names it.
 */
function ensureDebianPackage(path, packages, { what, needs, note = "" }) {
  if (existsSync(path)) return
  const manual = `Install it, then run the tests again: sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`
  if (process.getuid?.() !== 0) {
    console.error(`${needs} need ${what} at ${path}, and it is missing. ${manual}`)
    process.exit(1)
  }
  step(`Installing ${what} for ${needs.toLowerCase()} (apt-get install -y ${packages.join(" ")}${note})`)
  let status = aptGet(["install", "-y", ...packages])
  if (status !== 0) {
    // A fresh machine may have no package lists yet.
    step("Refreshing the package lists (apt-get update) and trying again")
    status = aptGet(["update"]) === 0 ? aptGet(["install", "-y", ...packages]) : 1
  }
  if (status !== 0 || !existsSync(path)) {
    console.error(`Installing ${what} failed: see the apt-get messages above. ${manual}`)
    process.exit(1)
  }
}

/**
 * The browser tests drive Debian's Chromium, installed when missing ({@link ensureDebianPackage}).
 * As root, a missing Japanese font is installed too (fonts-ipafont-gothic); without it only the
 * Japanese screenshots suffer, so it is never a reason to stop.
 */
export function ensureChromium() {
  if (!existsSync(japaneseFont) && process.getuid?.() === 0 && existsSync(chromiumPath)) {
    step("Installing a Japanese font for the page screenshots (apt-get install -y fonts-ipafont-gothic)")
    aptGet(["install", "-y", "fonts-ipafont-gothic"])
  }
  ensureDebianPackage(chromiumPath, ["chromium", "fonts-ipafont-gothic"], { what: "Chromium", needs: "The browser tests", note: ", about 30 s" })
}

export const dnsmasqPath = "/usr/sbin/dnsmasq"

/** The tests of verified domains (packages/organizations) answer DNS with a real dnsmasq on a loopback port. */
export function ensureDnsmasq() {
  ensureDebianPackage(dnsmasqPath, ["dnsmasq-base"], { what: "dnsmasq", needs: "The verified-domain tests" })
}

/** What the SAML tests (packages/sso) run as their IdP under `php -S`: SimpleSAMLphp, and PHP modules it needs but does not pull in. */
const simpleSamlPhpPaths = ["/usr/share/simplesamlphp/www/index.php", "/usr/lib/php/20220829/dom.so", "/usr/lib/php/20220829/mbstring.so"]

/** The SAML tests sign in at a real SimpleSAMLphp. */
export function ensureSimpleSamlPhp() {
  for (const path of simpleSamlPhpPaths) {
    ensureDebianPackage(path, ["simplesamlphp", "php8.2-xml", "php8.2-mbstring"], { what: "SimpleSAMLphp", needs: "The SAML tests" })
  }
}

/**
 * Builds the packages (incremental: quick when nothing changed). `ifChanged` skips even tsc's own
 * check when no input changed since the last build (for npm start; npm test always runs tsc).
 */
export function build({ ifChanged = false } = {}) {
  step("Building packages")
  const status = run(process.execPath, [join(root, "scripts", "build.mjs"), ...(ifChanged ? ["--if-changed"] : [])])
  if (status !== 0) {
    console.error("The build failed: see the TypeScript errors above.")
  }
  return status
}

/**
 * The database servers the tests run against, each with the command that starts it on this kind
 * of machine (no systemd: servers are started by hand).
 */
export const services = [
  { name: "PostgreSQL", port: 5432, start: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start" },
  { name: "MariaDB", port: 3306, start: "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd" },
  {
    name: "Redis",
    port: 6379,
    start: 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
  },
]

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    const done = (open) => {
      socket.destroy()
      resolve(open)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
  })
}

async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await portOpen(port)) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return false
}

/**
 * Makes sure PostgreSQL, MariaDB and Redis are listening on their loopback ports: a server that is
 * down is started with its command; one that still does not answer makes this return false after
 * printing the command to run by hand.
 */
export async function ensureServices(list = services) {
  let ok = true
  for (const service of list) {
    if (await portOpen(service.port)) continue
    step(`Starting ${service.name} (nothing listens on 127.0.0.1:${service.port})`)
    spawnSync("sh", ["-c", service.start], { stdio: "inherit" })
    if (await waitForPort(service.port, 30_000)) continue
    console.error(`${service.name} is not running on 127.0.0.1:${service.port} and could not be started. Start it with:\n  ${service.start}`)
    ok = false
  }
  return ok
}
