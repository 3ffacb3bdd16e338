import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { loadExample, signInThrough, type ExampleApp } from "../../sql-common/test/shared/readme-example.js"

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("README example", () => {
  it("runs as written against a SQLite file", async () => {
    vi.stubEnv("AUTH_SECRET", "sqlite-readme-secret-0123456789abcdef")
    vi.stubEnv("DATABASE_FILE", join(mkdtempSync(join(tmpdir(), "sesame-readme-")), "auth.db"))
    const example = await loadExample<{ default: ExampleApp }>(join(import.meta.dirname, "..", "README.md"), "sqlite", join(import.meta.dirname, ".scratch"))
    expect((await signInThrough(example.default, "ada@example.com", "open sesame"))?.user?.email).toBe("ada@example.com")
  })
})
