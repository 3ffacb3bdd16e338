/**
 * The published packages as users get them: `npm pack` tarballs of the built packages, made once
 * and shared by every newcomer test (Next.js, SolidStart).
 *
 * Vitest runs each test file in its own process, so "once" cannot be a module-level promise: the
 * tarballs are kept in a folder under the system's temporary directory, one folder per package
 * and content digest (package.json, README and every file the tarball ships). A second test file
 * in the same run, or a later run while nothing changed, finds them there; a change to a package
 * gives it a new digest, so a stale tarball is never used. A lock folder serialises the test files
 * that build and pack at the same time; one left by a killed run (its process is gone) is broken.
 *
 * Before packing, the packages are built when their sources changed since the last build
 * (`scripts/build.mjs --if-changed`: a no-op under `npm test`, which builds first), so running one
 * newcomer test by hand after an edit tests the edit.
 *
 * @module
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join, relative } from "node:path"

export const repositoryRoot = join(import.meta.dirname, "..", "..", "..")

/** Where the tarballs are kept between test files and runs: a folder per checkout, so that clones (or worktrees) of different contents never share or remove each other's. */
const cacheRoot = join(tmpdir(), "sesame-newcomer-packs", createHash("sha256").update(repositoryRoot).digest("hex").slice(0, 12))
const lockDir = join(cacheRoot, ".lock")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

interface Manifest {
  name: string
  version: string
  private?: boolean
  files?: string[]
}

interface Workspace {
  /** `packages/core` */
  path: string
  manifest: Manifest
}

/** The publishable packages under packages/, by name. */
function workspaces(): Map<string, Workspace> {
  const found = new Map<string, Workspace>()
  for (const dir of readdirSync(join(repositoryRoot, "packages"))) {
    const file = join(repositoryRoot, "packages", dir, "package.json")
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest
    if (manifest.private !== true) found.set(manifest.name, { path: `packages/${dir}`, manifest })
  }
  return found
}

/** The environment of the commands run here: without the npm_* variables of an enclosing `npm test`, which would change what npm does. */
export function commandEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))), ...extra }
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: commandEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

function* filesBelow(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesBelow(path)
    else if (entry.isFile()) yield path
  }
}

/** SHA-256 over package.json and every file or folder its `files` names: what the tarball is made of. */
function contentDigest(workspace: Workspace): string {
  const dir = join(repositoryRoot, workspace.path)
  const hash = createHash("sha256")
  for (const entry of ["package.json", ...(workspace.manifest.files ?? [])]) {
    if (entry.startsWith("!")) continue
    const path = join(dir, entry)
    if (!existsSync(path)) continue
    for (const file of statSync(path).isDirectory() ? filesBelow(path) : [path]) {
      hash.update(relative(dir, file)).update("\0").update(readFileSync(file)).update("\0")
    }
  }
  return hash.digest("hex").slice(0, 16)
}

/** Whether the lock was left by a process that is gone (a run that was killed), or is older than any build and pack. */
function abandoned(): boolean {
  try {
    const pid = Number(readFileSync(join(lockDir, "pid"), "utf8"))
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ESRCH") return true
      }
    }
    return Date.now() - statSync(lockDir).mtimeMs > 20 * 60_000
  } catch {
    // Taken a moment ago (no pid yet) or released in the meantime.
    return false
  }
}

/** Runs `fn` holding the lock folder, which names its holder's process id. */
async function withLock<T>(fn: () => T): Promise<T> {
  mkdirSync(cacheRoot, { recursive: true })
  const deadline = Date.now() + 25 * 60_000
  for (;;) {
    try {
      mkdirSync(lockDir)
      writeFileSync(join(lockDir, "pid"), String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      if (abandoned()) rmSync(lockDir, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error(`${lockDir} is still held after 25 minutes`)
      else await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    return fn()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

/**
 * Tarballs of the named packages (`"@sesame/core"`, `"@sesame/next"`…), built and packed from this
 * repository: a map from package name to the tarball's absolute path, named as `npm pack` names it
 * (`sesame-core-0.1.0.tgz`). Each package is packed at most once while its content is unchanged.
 */
export async function packedTarballs(names: readonly string[]): Promise<Map<string, string>> {
  const known = workspaces()
  for (const name of names) if (!known.has(name)) throw new Error(`${name} is not a publishable package of this repository`)
  return withLock(() => {
    run(process.execPath, [join(repositoryRoot, "scripts", "build.mjs"), "--if-changed"], repositoryRoot)
    const tarballs = new Map<string, string>()
    const missing: { name: string; dir: string }[] = []
    for (const name of names) {
      const workspace = known.get(name)!
      const stem = `${name.replace(/^@/, "").replace("/", "-")}-${workspace.manifest.version}`
      const dir = join(cacheRoot, `${stem}-${contentDigest(workspace)}`)
      const tarball = join(dir, `${stem}.tgz`)
      if (existsSync(tarball)) tarballs.set(name, tarball)
      else missing.push({ name, dir })
      // Tarballs of earlier contents of this package are of no further use.
      for (const entry of readdirSync(cacheRoot)) {
        if (entry.startsWith(`${stem}-`) && join(cacheRoot, entry) !== dir) rmSync(join(cacheRoot, entry), { recursive: true, force: true })
      }
    }
    // Left by a run killed while packing: nobody else packs while the lock is held.
    for (const entry of readdirSync(cacheRoot)) if (entry.startsWith(".staging-")) rmSync(join(cacheRoot, entry), { recursive: true, force: true })
    if (missing.length > 0) {
      const staging = mkdtempSync(join(cacheRoot, ".staging-"))
      try {
        const args = ["pack", "--json", "--pack-destination", staging]
        for (const { name } of missing) args.push("--workspace", known.get(name)!.path)
        const packed = JSON.parse(run(npm, args, repositoryRoot)) as { name: string; filename: string }[]
        for (const { name, dir } of missing) {
          const entry = packed.find((p) => p.name === name)
          if (!entry) throw new Error(`npm pack did not report ${name}`)
          mkdirSync(dir, { recursive: true })
          renameSync(join(staging, entry.filename), join(dir, entry.filename))
          tarballs.set(name, join(dir, entry.filename))
        }
      } finally {
        rmSync(staging, { recursive: true, force: true })
      }
    }
    return tarballs
  })
}

/**
 * Packs `packages` into the folder `packs` (the guide's `~/sesame-packs`) and checks that the
 * guide's `installLine` names exactly the tarballs that packing made.
 */
export async function packInto(packages: readonly string[], packs: string, installLine: string): Promise<void> {
  const tarballs = await packedTarballs(packages)
  for (const tarball of tarballs.values()) copyFileSync(tarball, join(packs, basename(tarball)))
  const named = [...installLine.matchAll(/~\/sesame-packs\/(\S+\.tgz)/g)].map((m) => m[1]!).sort()
  const made = [...tarballs.values()].map((t) => basename(t)).sort()
  if (named.join(" ") !== made.join(" ")) throw new Error(`The guide installs ${named.join(", ")} but npm pack makes ${made.join(", ")}`)
}
