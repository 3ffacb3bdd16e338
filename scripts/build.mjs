#!/usr/bin/env node
// Builds every package under packages/, and the example plugins under examples/plugin-* (packages
// of their own that the demo uses), with tsc (incremental: a no-op when nothing changed), after
// running the package's scripts/generate.mjs when it has one.
// `--check` type-checks without emitting. `--if-changed` (npm start) does nothing when no package's
// sources, config or the lockfile changed since its last successful build: tsc's own incremental
// check still costs a second per package. It also restores the packages' output from the build
// cache when another checkout of this user (a second clone, the start test's fresh copy) built the
// very same inputs: tsc over every package takes minutes on two cores.
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { digestFiles, filesBelow } from "./digest.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const check = process.argv.includes("--check")
const ifChanged = process.argv.includes("--if-changed")
const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
// Paths from the root: packages/core first (the others import it, through its sources, so the
// order only matters for clarity), then the other packages, then the example plugins.
const packages = [
  ...readdirSync(join(root, "packages"))
    .sort((a, b) => (a === "core" ? -1 : b === "core" ? 1 : a.localeCompare(b)))
    .map((name) => join("packages", name)),
  ...readdirSync(join(root, "examples"))
    .filter((name) => name.startsWith("plugin-"))
    .sort()
    .map((name) => join("examples", name)),
].filter((path) => existsSync(join(root, path, "tsconfig.json")))

/** A digest of everything the build reads (but node_modules, which the lockfile stands for). */
function inputsDigest() {
  const paths = [join(root, "package-lock.json"), join(root, "tsconfig.base.json")]
  for (const path of packages) {
    const dir = join(root, path)
    paths.push(join(dir, "package.json"), join(dir, "tsconfig.json"))
    for (const sub of ["src", "scripts"]) if (existsSync(join(dir, sub))) paths.push(...filesBelow(join(dir, sub)))
  }
  return digestFiles(root, paths)
}

const stamp = join(root, "node_modules", ".cache", "sesame-build-inputs")
const built = () => packages.every((path) => existsSync(join(root, path, "dist")))

/**
 * Finished builds by their inputs' digest, shared by this user's checkouts: `SESAME_BUILD_CACHE`,
 * or `sesame/builds` in the user's cache folder. The digest covers every input (sources, configs,
 * the lockfile, Node's version), so an entry is exactly what tsc would write.
 */
const cacheRoot = process.env.SESAME_BUILD_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "sesame", "builds")
/** Entries kept: a few recent builds are enough for checkouts at nearby commits. */
const cacheEntries = 3

function restoreFromCache(digest) {
  const entry = join(cacheRoot, digest)
  if (!existsSync(join(entry, "complete"))) return false
  for (const path of packages) {
    rmSync(join(root, path, "dist"), { recursive: true, force: true })
    cpSync(join(entry, path, "dist"), join(root, path, "dist"), { recursive: true })
  }
  return true
}

/** Best effort: a full disk or a read-only home only costs the next checkout a build. */
function saveToCache(digest) {
  try {
    if (existsSync(join(cacheRoot, digest, "complete"))) return
    const partial = join(cacheRoot, `${digest}.partial-${process.pid}`)
    for (const path of packages) cpSync(join(root, path, "dist"), join(partial, path, "dist"), { recursive: true })
    writeFileSync(join(partial, "complete"), "")
    rmSync(join(cacheRoot, digest), { recursive: true, force: true })
    renameSync(partial, join(cacheRoot, digest))
    const entries = readdirSync(cacheRoot)
      .map((name) => ({ name, time: statSync(join(cacheRoot, name)).mtimeMs }))
      .sort((a, b) => b.time - a.time)
    for (const { name } of entries.slice(cacheEntries)) rmSync(join(cacheRoot, name), { recursive: true, force: true })
  } catch (error) {
    console.warn(`could not keep the build in ${cacheRoot}: ${error.message}`)
  }
}

let failed = false
// Sources first: a package may generate some (core bundles its passkey browser script, which is
// git-ignored), and the digest must cover them as tsc will read them.
for (const path of packages) {
  const generate = join(root, path, "scripts", "generate.mjs")
  if (existsSync(generate) && spawnSync(process.execPath, [generate], { stdio: "inherit" }).status !== 0) {
    console.error(`generating sources failed for ${path}`)
    failed = true
  }
}
const digest = failed ? null : inputsDigest()
if (ifChanged && digest) {
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest && built()) {
    console.log("packages unchanged since the last build")
    process.exit(0)
  }
  if (restoreFromCache(digest)) {
    mkdirSync(dirname(stamp), { recursive: true })
    writeFileSync(stamp, digest)
    console.log(`packages restored from the build cache (${cacheRoot}): another checkout built the same sources`)
    process.exit(0)
  }
}

for (const path of packages) {
  const args = [tsc, "-p", join(root, path, "tsconfig.json")]
  if (check) args.push("--noEmit")
  const result = spawnSync(process.execPath, args, { stdio: "inherit" })
  if (result.status !== 0) {
    console.error(`tsc failed for ${path}`)
    failed = true
  }
}
if (!failed && !check) {
  mkdirSync(dirname(stamp), { recursive: true })
  writeFileSync(stamp, digest)
  saveToCache(digest)
}
process.exit(failed ? 1 : 0)
