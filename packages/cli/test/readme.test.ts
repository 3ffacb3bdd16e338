import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { sesame } from "./run.js"

describe("README example", () => {
  it("runs line by line in an empty folder", async () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const lines = /<!-- example: cli[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split("\n")
    const dir = mkdtempSync(join(tmpdir(), "sesame-readme-"))
    const outputs: string[] = []
    for (const line of lines) {
      expect(line.startsWith("npx sesame ")).toBe(true)
      const result = await sesame(line.slice("npx sesame ".length).split(" "), dir)
      expect(result).toMatchObject({ code: 0, stderr: "" })
      outputs.push(result.stdout)
    }
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}\n$/)
    expect(existsSync(join(dir, "auth.db"))).toBe(true)
    expect(outputs[1]).toContain("Applied migration 1")
    expect(outputs[2]).toContain("Nothing to do")
    expect(outputs[3]).toContain(`CREATE TABLE "sesame_users"`)
  })
})
