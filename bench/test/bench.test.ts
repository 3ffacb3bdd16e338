/**
 * Keeps the benchmarks working, on the built packages: the comparison runs every case with
 * `--quick` and checks every answer, a case whose answers are wrong fails the run, and the password
 * timing script prints its pairs. Measures nothing and asserts no timing.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { prependSection } from "../lib/results-file.mjs"

const bench = join(import.meta.dirname, "..")
const root = join(bench, "..")

function node(args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
    child.on("error", reject)
    child.on("close", (status) => resolve({ status, out }))
  })
}

/** The table rows whose first cell is `label` (a label can be in the in-process and the HTTP table). */
function rows(out: string, label: string): string[] {
  return out.split("\n").filter((l) => l.startsWith(`| ${label} |`))
}

/**
 * A checkout for `--before` whose `Auth()` answers with another user's email: Sesame's real build
 * underneath, only the session's `user.email` changed (a `null` session stays `null`).
 */
function wrongCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "sesame-bench-wrong-"))
  const core = join(dir, "packages", "core")
  const real = (path: string) => pathToFileURL(join(root, "packages", "core", "dist", path)).href
  mkdirSync(join(core, "dist", "providers"), { recursive: true })
  const exports = { ".": "./dist/index.js", "./jwt": "./dist/jwt.js", "./adapters": "./dist/adapters.js", "./providers/*": "./dist/providers/*.js" }
  writeFileSync(join(core, "package.json"), JSON.stringify({ name: "@sesame/core", version: "0.0.0-wrong", type: "module", exports }))
  writeFileSync(
    join(core, "dist", "index.js"),
    `import { Auth as real } from ${JSON.stringify(real("index.js"))}
export async function Auth(request, config) {
  const response = await real(request, config)
  const session = await response.json()
  return Response.json(session && { ...session, user: { ...session.user, email: "mallory@example.com" } }, { status: response.status })
}
`,
  )
  writeFileSync(join(core, "dist", "jwt.js"), `export * from ${JSON.stringify(real("jwt/index.js"))}\n`)
  writeFileSync(join(core, "dist", "adapters.js"), `export * from ${JSON.stringify(real("adapters/index.js"))}\n`)
  writeFileSync(join(core, "dist", "providers", "credentials.js"), `export { default } from ${JSON.stringify(real("providers/credentials.js"))}\n`)
  return dir
}

const temporary: string[] = []
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

describe("bench/run.mjs", () => {
  it("runs every case with --quick, checks every answer, and reports each with its ratios", async () => {
    const { status, out } = await node([join(bench, "run.mjs"), "--quick"])
    expect(out).toMatch(/cases failed: none\./)
    expect(status).toBe(0)
    const tableRows = out.split("\n").filter((l) => /^\| (floor|Sesame|@auth\/core|better-auth)/.test(l))
    // 6 in-process floors, 4 scenarios × 3 libraries and Sesame's cold-token, two revocation and
    // rate-limit cases; over HTTP 2 floors and 2 scenarios × 4 contenders.
    expect(tableRows).toHaveLength(6 + 12 + 4 + 2 + 8)
    for (const line of tableRows) {
      if (line.includes("`toNodeHandler`")) expect(line).toMatch(/\| (ok|n\/a \(not in this build\)) \|$/)
      else expect(line).toMatch(/\| [\d,]+ \| ok \|$/)
    }
    expect(rows(out, "Sesame, `Auth()`, JWT")[0]).toMatch(/× its floor \(envelope\+decrypt\)/)
    expect(rows(out, "@auth/core, JWT")[0]).toMatch(/× Sesame's time/)
    expect(rows(out, "better-auth, JWT")[1]).toMatch(/\| \d+ % \| [\d.]+× \|/)
    expect(out).toMatch(/^- JWT in-process ≥ 20× faster than @auth\/core: [\d.]+×, (met|\*\*not met\*\*)$/m)
    expect(out).toMatch(/Answers checked: [\d,]+, wrong: 0;/)
  }, 120_000)

  it("fails a case whose answers are wrong, in-process and over HTTP, and exits 1", async () => {
    const before = wrongCheckout()
    temporary.push(before)
    const { status, out } = await node([join(bench, "run.mjs"), "--quick", "--before", before, "--only", "sesame-before,sesame-node-before"])
    expect(status).toBe(1)
    const wrong = /\*\*FAIL\*\*: \d+ of \d+ answers wrong, first: expected user\.email alice@example\.com, got .*mallory@example\.com/
    for (const label of ["Sesame (before), `Auth()`, JWT", "Sesame (before), `Auth()`, database (in memory)"]) {
      // In-process, then over HTTP.
      expect(rows(out, label)).toHaveLength(2)
      for (const line of rows(out, label)) expect(line).toMatch(wrong)
    }
    // Right answers still pass: the checkout keeps a `null` session.
    expect(rows(out, "Sesame (before), `Auth()`, no cookie")[0]).toMatch(/\| ok \|$/)
    expect(rows(out, "Sesame (before), `toNodeHandler`, JWT")[0]).toMatch(/n\/a \(not in this build\)/)
    expect(out).toMatch(/cases failed: inproc\/sesame-before\/jwt, inproc\/sesame-before\/jwt-browser, inproc\/sesame-before\/database, inproc\/sesame-before\/jwt-cold, inproc\/sesame-before\/jwt-revocable, inproc\/sesame-before\/jwt-revocable-0, inproc\/sesame-before\/jwt-limited, http\/sesame-before\/jwt, http\/sesame-before\/database\./)
  }, 120_000)

  it("puts a new run above the earlier ones in RESULTS.md and leaves them as they were", () => {
    const file = "# Benchmark runs\n\nIntroduction.\n\n## 2026-11-24\n\nOld run.\n"
    expect(prependSection(file, "## 2026-11-25 10:00 UTC, `npm run bench`\n\nNew run.\n")).toBe(
      "# Benchmark runs\n\nIntroduction.\n\n## 2026-11-25 10:00 UTC, `npm run bench`\n\nNew run.\n\n## 2026-11-24\n\nOld run.\n",
    )
    expect(prependSection("# Benchmark runs\n", "## New\n\nNew run.")).toBe("# Benchmark runs\n\n## New\n\nNew run.\n\n")
  })
})

describe("bench/password-timing.mjs", () => {
  it("runs and prints each pair's medians and their ratio", async () => {
    const { status, out } = await node([join(bench, "password-timing.mjs"), "--quick"])
    expect(status).toBe(0)
    const rows = out.split("\n").filter((line) => /\s[\d.]+\s{3}.+\s[\d.]+\s+[\d.]+×$/.test(line))
    expect(rows.length).toBeGreaterThanOrEqual(3)
    expect(out).toMatch(/^summary: /m)
  }, 120_000)
})
