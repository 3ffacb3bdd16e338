/**
 * Keeps the benchmark scripts working: runs each with --quick and checks what it prints.
 * Measures nothing and asserts no timing.
 */
import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const dir = join(import.meta.dirname, "..")
const all = readdirSync(dir).filter((f) => /^[a-z].*\.mjs$/.test(f) && f !== "harness.mjs")
/** Timing scripts compare two of Sesame's own answers (no other library has the flow); the rest compare with @auth/core. */
const timing = all.filter((f) => f.endsWith("-timing.mjs"))
const scripts = all.filter((f) => !timing.includes(f))

describe("benchmarks", () => {
  it.each(timing)("%s runs and prints each pair's medians and their ratio", (script) => {
    const out = execFileSync(process.execPath, [join(dir, script), "--quick"], { encoding: "utf8", timeout: 120_000 })
    const rows = out.split("\n").filter((line) => /\s[\d.]+\s{3}.+\s[\d.]+\s+[\d.]+×$/.test(line))
    expect(rows.length).toBeGreaterThanOrEqual(3)
    expect(out).toMatch(/^summary: /m)
  }, 120_000)

  it.each(scripts)("%s runs and compares with @auth/core", (script) => {
    const out = execFileSync(process.execPath, [join(dir, script), "--quick"], { encoding: "utf8", timeout: 120_000 })
    expect(out).toMatch(/@sesame\/core\s+[\d,]+\s+[\d.]+\s+1\.0×/)
    expect(out).toMatch(/@auth\/core\s+[\d,]+\s+[\d.]+\s+[\d.]+×/)
    expect(out).toMatch(/^summary: /m)
  }, 120_000)
})
