import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it, vi } from "vitest"
import { backend } from "../src/crypto/backend-node.js"
import { CookieJar, jwtConfig, send, signInAlice } from "./helpers.js"

const src = join(import.meta.dirname, "..", "src")

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
}

describe("runs on edge runtimes", () => {
  it("imports node: modules, Buffer or process only in the Node backends, reached through the `node` condition", () => {
    const allowed = new Set(["crypto/backend-node.ts", "config/development-secret-node.ts"])
    const manifest = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as {
      imports: Record<string, { "sesame-source": { node: string; default: string } }>
    }
    const nodeOnly = Object.values(manifest.imports).map((entry) => relative(src, join(src, "..", entry["sesame-source"].node)))
    expect([...allowed].sort()).toEqual(nodeOnly.sort())
    const offenders: string[] = []
    for (const file of files(src)) {
      const name = relative(src, file)
      // `node/` is the Node.js handler, its own entry point (`@sesame/core/node`): Node only, by
      // design, and imported by nothing else here (checked below), so no edge bundle reaches it.
      if (allowed.has(name) || name.startsWith("node/")) continue
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
      if (/from\s+["']node:|require\(|\bBuffer\b|(?<![.\w])process\./.test(code)) offenders.push(name)
    }
    expect(offenders).toEqual([])
  })

  it("reaches the Node.js handler (node/) only through its own entry point", () => {
    const manifest = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as { exports: Record<string, { "sesame-source"?: string } | null> }
    expect(manifest.exports["./node"]?.["sesame-source"]).toBe("./src/node/index.ts")
    const importers = files(src)
      .map((file) => relative(src, file))
      .filter((name) => !name.startsWith("node/") && /from\s+["'](\.\.?\/)+node\//.test(readFileSync(join(src, name), "utf8")))
    expect(importers).toEqual([])
  })
})

describe("work per request", () => {
  it("a session read without a cookie does no cryptography and sets no cookie", async () => {
    const config = jwtConfig()
    await send(config, "/auth/session")
    const spies = Object.keys(backend).map((k) => vi.spyOn(backend, k as keyof typeof backend))
    const randomSpy = vi.spyOn(globalThis.crypto, "getRandomValues")
    const res = await send(config, "/auth/session")
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    for (const spy of spies) expect(spy).not.toHaveBeenCalled()
    expect(randomSpy).not.toHaveBeenCalled()
    for (const spy of spies) spy.mockRestore()
    randomSpy.mockRestore()
  })

  it("a session read with a cookie derives no key", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const hkdf = vi.spyOn(backend, "hkdf")
    for (let i = 0; i < 5; i++) await send(config, "/auth/session", { jar })
    expect(hkdf).not.toHaveBeenCalled()
    hkdf.mockRestore()
  })
})
