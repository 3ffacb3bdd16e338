#!/usr/bin/env node
// Builds every package under packages/, and the example plugins under examples/plugin-* (packages
// of their own that the demo uses), with tsc (incremental: a no-op when nothing changed), after
// running the package's scripts/generate.mjs when it has one.
// `--check` type-checks without emitting. `--if-changed` (npm start) does nothing when no package's
// sources, config or the lockfile changed since its last successful build: tsc's own incremental
// check still costs a second per package.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { digestFiles, filesBelow } from "./digest.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const check = process.argv.includes("--check")
const ifChanged = process.argv.includes("--if-changed")
const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
// Core first: the others import it (through its sources, so order only matters for clarity).
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
const digest = ifChanged ? inputsDigest() : null
const built = () => packages.every((path) => existsSync(join(root, path, "dist")))
if (digest && existsSync(stamp) && readFileSync(stamp, "utf8") === digest && built()) {
  console.log("packages unchanged since the last build")
  process.exit(0)
}

let failed = false
for (const path of packages) {
  // A package may generate sources first (core bundles its passkey browser script).
  const generate = join(root, path, "scripts", "generate.mjs")
  if (existsSync(generate) && spawnSync(process.execPath, [generate], { stdio: "inherit" }).status !== 0) {
    console.error(`generating sources failed for ${path}`)
    failed = true
    continue
  }
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
  // Read again: a generate step may have written into src (core's passkey script).
  writeFileSync(stamp, inputsDigest())
}
process.exit(failed ? 1 : 0)
