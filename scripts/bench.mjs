#!/usr/bin/env node
/** `npm run bench`: builds, then runs every benchmark in bench/ (Sesame and @auth/core side by side). */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { build, ensureInstalled, root, run, step } from "./lib.mjs"

ensureInstalled()
if (build() !== 0) process.exit(1)
let status = 0
for (const file of readdirSync(join(root, "bench")).filter((f) => /^[a-z].*\.mjs$/.test(f) && f !== "harness.mjs").sort()) {
  step(`bench/${file}`)
  status ||= run(process.execPath, [join(root, "bench", file), ...process.argv.slice(2)])
}
process.exit(status)
