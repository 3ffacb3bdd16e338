/** What a recorded run ran on: the machine, Node, every library's exact version, the commits. */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { cpus, loadavg, release, totalmem, type } from "node:os"
import { join } from "node:path"

function osName() {
  try {
    const pretty = /^PRETTY_NAME="?(.*?)"?$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1]
    if (pretty) return `${pretty}, ${type()} ${release()}`
  } catch {
    // No /etc/os-release: not Linux.
  }
  return `${type()} ${release()}`
}

export function machine() {
  const list = cpus()
  return { cpu: list[0]?.model.trim() ?? "unknown CPU", cores: list.length, memoryGiB: Math.round(totalmem() / 2 ** 30), os: osName(), node: process.version }
}

export const load = () => loadavg().map((x) => x.toFixed(2)).join(" / ")

/** The checkout's commit, and whether its tree has changes not committed (read-only git commands). */
export function gitState(dir) {
  try {
    const commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()
    const dirty = execFileSync("git", ["-C", dir, "status", "--porcelain"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() !== ""
    return `${commit}${dirty ? " (dirty: uncommitted changes)" : ""}`
  } catch {
    return "no git commit"
  }
}

/** The version of an installed package, from the first node_modules (of `dirs`) that has it. */
export function installedVersion(name, dirs) {
  for (const dir of dirs) {
    const file = join(dir, "node_modules", name, "package.json")
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version
  }
  return "not installed"
}

export function sesameVersion(dir) {
  return JSON.parse(readFileSync(join(dir, "packages", "core", "package.json"), "utf8")).version
}
