#!/usr/bin/env node
/**
 * `npm test`: installs what is missing, builds and type-checks every package, starts the database
 * servers the tests need when they are down, runs the whole Vitest suite, and ends with a plain
 * `N passed, N failed` line (also written to test-artifacts/summary.txt for CI). Arguments are
 * passed to Vitest (`npm test -- packages/core`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { build, ensureChromium, ensureInstalled, ensureServices, root, run, step } from "./lib.mjs"

const artifacts = join(root, "test-artifacts")
mkdirSync(artifacts, { recursive: true })
const summaryFile = join(artifacts, "summary.txt")

function finish(passed, failed, status) {
  const line = `${passed} passed, ${failed} failed`
  writeFileSync(summaryFile, `${line}\n`)
  console.log(line)
  process.exit(status)
}

ensureInstalled()
ensureChromium()
if (build() !== 0) finish(0, 1, 1)
step("Type-checking tests")
if (run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json")]) !== 0) {
  console.error("The tests do not type-check: see the errors above.")
  finish(0, 1, 1)
}

step("Checking the database servers (PostgreSQL, MariaDB, Redis)")
if (!(await ensureServices())) finish(0, 1, 1)

step("Running tests")
const report = join(artifacts, "vitest.json")
const vitest = join(root, "node_modules", "vitest", "vitest.mjs")
const status = run(process.execPath, [
  vitest,
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
])
let passed = 0
let failed = 0
try {
  const results = JSON.parse(readFileSync(report, "utf8"))
  passed = results.numPassedTests
  failed = results.numFailedTests
  // A file that fails without a failed test (it did not load, or a hook threw) is a failure too.
  failed += results.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length
} catch {
  failed = Math.max(1, failed)
}
// Vitest can also fail outside any file (an unhandled error): never report that as all green.
if (status !== 0 && failed === 0) failed = 1
finish(passed, failed, status !== 0 || failed > 0 ? 1 : 0)
