/**
 * Passkeys stay off Node-only APIs and off the paths that do not use them: `@simplewebauthn/server`
 * bundles for a browser-like runtime without Node modules, and Sesame loads it lazily, so a session
 * read never pays for it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { rolldown } from "rolldown"
import { describe, expect, it } from "vitest"

const core = join(import.meta.dirname, "..", "..")
const src = join(core, "src")

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
}

describe("@simplewebauthn/server", () => {
  it("bundles for a runtime without Node modules: every import resolves, none is a Node built-in", async () => {
    const unresolved: string[] = []
    const bundle = await rolldown({
      input: "@simplewebauthn/server",
      cwd: core,
      platform: "browser",
      onLog: (_level, log) => void (log.code === "UNRESOLVED_IMPORT" && unresolved.push(log.message)),
    })
    const { output } = await bundle.generate({ format: "esm" })
    await bundle.close()
    expect(unresolved).toEqual([])
    expect(output[0].imports).toEqual([])
    expect(output[0].moduleIds.some((id) => id.includes("@simplewebauthn/server"))).toBe(true)
  }, 30_000)

  it("is imported by Sesame's sources only as types, or lazily in webauthn/library.ts", () => {
    const offenders: string[] = []
    for (const file of files(src)) {
      const code = readFileSync(file, "utf8")
      for (const match of code.matchAll(/^import\s+(type\s+)?[^;]*?from\s+["']@simplewebauthn\/server["']/gm)) {
        if (!match[1]) offenders.push(relative(src, file))
      }
    }
    expect(offenders).toEqual([])
    expect(readFileSync(join(src, "webauthn", "library.ts"), "utf8")).toContain('import("@simplewebauthn/server")')
  })
})
