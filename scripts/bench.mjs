#!/usr/bin/env node
/**
 * `npm run bench`: builds, then runs the comparison (bench/run.mjs with `--write`: Sesame beside
 * @auth/core and better-auth, its tables prepended to bench/RESULTS.md) and bench/password-timing.mjs.
 * Extra arguments go to the comparison (`npm run bench -- --quick`, `-- --only http`); `--quick`
 * also to the timing script. `npm run bench -- soak [options]` runs bench/soak/run.mjs instead.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { build, ensureInstalled, root, run, step } from "./lib.mjs"

const args = process.argv.slice(2)
ensureInstalled()
if (build() !== 0) process.exit(1)

if (args[0] === "soak") {
  const soak = join(root, "bench", "soak", "run.mjs")
  if (!existsSync(soak)) {
    console.error("bench/soak/run.mjs is not in this checkout.")
    process.exit(1)
  }
  process.exit(run(process.execPath, [soak, ...args.slice(1)]))
}

step("bench/run.mjs: Sesame, @auth/core and better-auth side by side")
let status = run(process.execPath, [join(root, "bench", "run.mjs"), "--write", ...args])
step("bench/password-timing.mjs")
status ||= run(process.execPath, [join(root, "bench", "password-timing.mjs"), ...args.filter((a) => a === "--quick")])
process.exit(status)
