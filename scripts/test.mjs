#!/usr/bin/env node
/**
 * `npm test`: installs what is missing, builds and type-checks every package, starts the database
 * servers the tests need when they are down, runs the whole Vitest suite, and ends with a plain
 * `N passed, N failed` line (also written to test-artifacts/summary.txt for CI). Arguments are
 * passed to Vitest (`npm test -- packages/core`).
 *
 * The whole suite (no arguments) ends with the soak's fault runs (bench/test/soak.test.ts), in a
 * Vitest run of their own: they restart this machine's PostgreSQL and Redis, which every other
 * test file uses, so nothing else may run beside them. They need root (pg_ctlcluster, Redis's
 * files); without it they are skipped with a note. `npm test -- --soak-faults` runs only them.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { build, ensureChromium, ensureDnsmasq, ensureInstalled, ensureServices, ensureSimpleSamlPhp, root, run, step } from "./lib.mjs"

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
ensureDnsmasq()
ensureSimpleSamlPhp()
if (build() !== 0) finish(0, 1, 1)
step("Type-checking tests")
if (run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json")]) !== 0) {
  console.error("The tests do not type-check: see the errors above.")
  finish(0, 1, 1)
}

step("Checking the database servers (PostgreSQL, MariaDB, Redis)")
if (!(await ensureServices())) finish(0, 1, 1)

const vitest = join(root, "node_modules", "vitest", "vitest.mjs")

/** Runs Vitest with `args`; its counts of passed and failed tests, from its JSON report `reportName`. */
function vitestRun(args, reportName, env = process.env) {
  const report = join(artifacts, reportName)
  // A report left by an earlier run must not stand in for one this run failed to write.
  rmSync(report, { force: true })
  const status = run(process.execPath, [vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args], { env })
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
  return { passed, failed }
}

const args = process.argv.slice(2)
const faultsOnly = args.includes("--soak-faults")
let passed = 0
let failed = 0
if (!faultsOnly) {
  step("Running tests")
  ;({ passed, failed } = vitestRun(args, "vitest.json"))
}
if (faultsOnly || args.length === 0) {
  if (process.getuid?.() === 0) {
    step("Running the soak's fault runs (PostgreSQL and Redis restarted, nothing else running)")
    const faults = vitestRun(["--project", "web", "bench/test/soak.test.ts", "-t", "storage restart"], "vitest-faults.json", { ...process.env, SESAME_SOAK_FAULTS: "1" })
    passed += faults.passed
    failed += faults.failed
  } else {
    console.log("The soak's fault runs restart PostgreSQL and Redis, which needs root: skipped. Run them as root with npm test -- --soak-faults.")
  }
}
finish(passed, failed, failed > 0 ? 1 : 0)
