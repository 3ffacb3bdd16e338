import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadExample } from "./shared/readme-example.js"

describe("README example", () => {
  it("runs as written", async () => {
    const example = await loadExample<{ when: Date; users: string; refused: () => unknown }>(
      join(import.meta.dirname, "..", "README.md"),
      "sql-common",
      join(import.meta.dirname, ".scratch"),
    )
    expect(example.when.toISOString()).toBe("2025-01-02T03:04:05.678Z")
    expect(example.users).toBe("people")
    expect(example.refused).toThrow(TypeError)
  })
})
