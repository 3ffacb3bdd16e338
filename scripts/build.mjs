#!/usr/bin/env node
// Builds every package under packages/ with tsc (incremental: a no-op when nothing changed), after
// running the package's scripts/generate.mjs when it has one.
// `--check` type-checks without emitting.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const check = process.argv.includes("--check")
const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
// Core first: the others import it (through its sources, so order only matters for clarity).
const packages = readdirSync(join(root, "packages"))
  .filter((name) => existsSync(join(root, "packages", name, "tsconfig.json")))
  .sort((a, b) => (a === "core" ? -1 : b === "core" ? 1 : a.localeCompare(b)))

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
process.exit(failed ? 1 : 0)
