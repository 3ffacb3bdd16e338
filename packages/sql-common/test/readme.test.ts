import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

describe("README example", () => {
  it("runs as written", async () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const code = /<!-- example: sql-common[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    const scratch = join(import.meta.dirname, ".scratch")
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "example.ts"), code)
    const example = (await import(join(scratch, "example.ts"))) as { when: Date; users: string; refused: () => unknown }
    expect(example.when.toISOString()).toBe("2025-01-02T03:04:05.678Z")
    expect(example.users).toBe("people")
    expect(example.refused).toThrow(TypeError)
  })
})
