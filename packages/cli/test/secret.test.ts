import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { sesame } from "./run.js"

const secretOf = (text: string) => /^AUTH_SECRET=(.*)$/m.exec(text)?.[1]

describe("sesame secret", () => {
  it("prints a new 32-byte base64url secret each time", async () => {
    const [a, b] = await Promise.all([sesame(["secret"]), sesame(["secret"])])
    for (const run of [a, b]) {
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
      expect(Buffer.from(run.stdout.trim(), "base64url")).toHaveLength(32)
    }
    expect(a.stdout).not.toBe(b.stdout)
  })

  it("--write creates .env.local readable by its owner only, and never prints the secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sesame-secret-"))
    const run = await sesame(["secret", "--write"], dir)
    expect(run).toMatchObject({ code: 0, stderr: "" })
    const file = join(dir, ".env.local")
    const text = readFileSync(file, "utf8")
    expect(text).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}\n$/)
    expect(run.stdout).toBe(`Wrote a new AUTH_SECRET to ${file}.\n`)
    expect(run.stdout).not.toContain(secretOf(text))
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it("--write replaces an existing AUTH_SECRET line and keeps every other line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sesame-secret-"))
    const file = join(dir, ".env.local")
    writeFileSync(file, "# local settings\nDATABASE_URL=postgres://localhost/app\nAUTH_SECRET=old-secret\nAUTH_URL=http://localhost:3000")
    const run = await sesame(["secret", "--write"], dir)
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`Replaced AUTH_SECRET in ${file} with a new secret.\n`)
    const text = readFileSync(file, "utf8")
    const secret = secretOf(text)!
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(text).toBe(`# local settings\nDATABASE_URL=postgres://localhost/app\nAUTH_SECRET=${secret}\nAUTH_URL=http://localhost:3000`)
    expect(run.stdout).not.toContain(secret)
  })

  it("--write appends to a file without AUTH_SECRET, on a line of its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sesame-secret-"))
    const file = join(dir, ".env.local")
    writeFileSync(file, "AUTH_SECRET_OLD=keep\nAUTH_URL=http://localhost:3000")
    expect((await sesame(["secret", "--write"], dir)).code).toBe(0)
    const lines = readFileSync(file, "utf8").split("\n")
    expect(lines.slice(0, 2)).toEqual(["AUTH_SECRET_OLD=keep", "AUTH_URL=http://localhost:3000"])
    expect(lines[2]).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/)
    expect(lines[3]).toBe("")
  })
})
