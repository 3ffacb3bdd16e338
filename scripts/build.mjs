#!/usr/bin/env node
// Builds every package under packages/ with tsc (incremental: a no-op when nothing changed), after
// running the package's scripts/generate.mjs when it has one.
// `--check` type-checks without emitting. `--if-changed` (npm start) does nothing when no package's
// sources, config or the lockfile changed since its last successful build: tsc's own incremental
// check still costs a second per package.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const check = process.argv.includes("--check")
const ifChanged = process.argv.includes("--if-changed")
const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
// Core first: the others import it (through its sources, so order only matters for clarity).
const packages = readdirSync(join(root, "packages"))
  .filter((name) => existsSync(join(root, "packages", name, "tsconfig.json")))
  .sort((a, b) => (a === "core" ? -1 : b === "core" ? 1 : a.localeCompare(b)))

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (entry.isFile()) yield path
  }
}

/** A digest of everything the build reads (but node_modules, which the lockfile stands for). */
function inputsDigest() {
  const hash = createHash("sha256").update(process.version)
  const add = (path) => existsSync(path) && hash.update(relative(root, path)).update("\0").update(readFileSync(path)).update("\0")
  for (const path of ["package-lock.json", "tsconfig.base.json"]) add(join(root, path))
  for (const name of packages) {
    const dir = join(root, "packages", name)
    for (const file of ["package.json", "tsconfig.json"]) add(join(dir, file))
    for (const sub of ["src", "scripts"]) if (existsSync(join(dir, sub))) for (const path of files(join(dir, sub))) add(path)
  }
  return hash.digest("hex")
}

const stamp = join(root, "node_modules", ".cache", "sesame-build-inputs")
const digest = ifChanged ? inputsDigest() : null
const built = () => packages.every((name) => existsSync(join(root, "packages", name, "dist")))
if (digest && existsSync(stamp) && readFileSync(stamp, "utf8") === digest && built()) {
  console.log("packages unchanged since the last build")
  process.exit(0)
}

let failed = false
for (const name of packages) {
  // A package may generate sources first (core bundles its passkey browser script).
  const generate = join(root, "packages", name, "scripts", "generate.mjs")
  if (existsSync(generate) && spawnSync(process.execPath, [generate], { stdio: "inherit" }).status !== 0) {
    console.error(`generating sources failed for packages/${name}`)
    failed = true
    continue
  }
  const args = [tsc, "-p", join(root, "packages", name, "tsconfig.json")]
  if (check) args.push("--noEmit")
  const result = spawnSync(process.execPath, args, { stdio: "inherit" })
  if (result.status !== 0) {
    console.error(`tsc failed for packages/${name}`)
    failed = true
  }
}
if (!failed && !check) {
  mkdirSync(dirname(stamp), { recursive: true })
  // Read again: a generate step may have written into src (core's passkey script).
  writeFileSync(stamp, inputsDigest())
}
process.exit(failed ? 1 : 0)
