/**
 * The shape of `packages/core/src`, checked on every run (issue 18):
 *
 * - No import cycle among the modules as they run. Type-only imports (`import type`, erased by the
 *   compiler) are left out on purpose: a cycle of them loads nothing, so it cannot leave a module
 *   reading another's exports before they are initialised, which is what a runtime cycle does
 *   (a `ReferenceError`, or an `undefined` import, depending on which entry loads first), and
 *   forbidding them would push every type that two folders name into one shared types file. Every
 *   other import counts, `import { type A }` included (it still loads the module).
 * - `actions/` is the top of the request pipeline: only its own files and the package's public
 *   entry points (the files `package.json` "exports" names, `index.ts` first) may import from it,
 *   type-only imports included: a layer below that needs something in `actions/` shows that the
 *   thing belongs lower.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { importCycles, importGraph, runtimeGraph, type ImportGraph } from "./import-graph.js"

const src = join(import.meta.dirname, "..", "src")

interface PackageManifest {
  exports: Record<string, null | string | { "sesame-source"?: string }>
}

/** The source files `package.json` "exports" maps to (a `*` stands for the files of one folder). */
function publicEntryPoints(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as PackageManifest
  const entries = new Set<string>()
  for (const target of Object.values(manifest.exports)) {
    const source = typeof target === "object" && target !== null ? target["sesame-source"] : undefined
    if (!source?.startsWith("./src/")) continue
    const file = source.slice("./src/".length)
    if (!file.includes("*")) {
      entries.add(file)
      continue
    }
    const [folder, pattern] = [file.slice(0, file.lastIndexOf("/")), file.slice(file.lastIndexOf("/") + 1)]
    const [before, after] = pattern.split("*") as [string, string]
    for (const name of readdirSync(join(src, folder))) {
      if (name.startsWith(before) && name.endsWith(after) && name.length > before.length + after.length) entries.add(`${folder}/${name}`)
    }
  }
  return entries
}

/** `file imports actions/x.ts` for every import of `actions/` from outside it and the entry points. */
function importsOfActions(graph: ImportGraph, allowed: ReadonlySet<string>): string[] {
  const offenders: string[] = []
  for (const [file, edges] of graph) {
    if (file.startsWith("actions/") || allowed.has(file)) continue
    for (const edge of edges) if (edge.to.startsWith("actions/")) offenders.push(`${file} imports ${edge.to}${edge.typeOnly ? " (type-only)" : ""}`)
  }
  return [...new Set(offenders)].sort()
}

describe("packages/core/src", () => {
  const graph = importGraph(src)

  it("is read whole: every file, and the imports between them", () => {
    expect(graph.get("index.ts")?.some((edge) => edge.to === "actions/handle.ts")).toBe(true)
    expect(graph.get("jwt/index.ts")?.some((edge) => edge.to === "crypto/backend-web.ts")).toBe(true)
    expect(graph.get("jwt/index.ts")?.some((edge) => edge.to === "crypto/backend-node.ts")).toBe(true)
  })

  it("has no import cycle among the modules as they run", () => {
    expect(importCycles(runtimeGraph(graph))).toEqual([])
  })

  it("has no module outside actions/ and the public entry points that imports from actions/", () => {
    const entries = publicEntryPoints()
    expect(entries).toContain("index.ts")
    expect(entries).toContain("providers/github.ts")
    expect(importsOfActions(graph, entries)).toEqual([])
  })
})

describe("the import checks", () => {
  const edge = (to: string, typeOnly = false) => ({ to, typeOnly })

  it("name each cycle, shortest first, and the files tangled with it", () => {
    const graph: ImportGraph = new Map([
      ["a.ts", [edge("b.ts")]],
      ["b.ts", [edge("c.ts"), edge("a.ts")]],
      ["c.ts", [edge("b.ts")]],
      ["d.ts", [edge("d.ts")]],
      ["e.ts", [edge("a.ts")]],
    ])
    expect(importCycles(graph)).toEqual(["a.ts → b.ts → a.ts (tangled with: a.ts, b.ts, c.ts)", "d.ts → d.ts"])
  })

  it("leave type-only imports out of the runtime graph, and find nothing in a graph without a cycle", () => {
    const graph: ImportGraph = new Map([
      ["types.ts", [edge("oauth/types.ts", true)]],
      ["oauth/types.ts", [edge("types.ts", true), edge("errors.ts")]],
      ["errors.ts", []],
    ])
    expect(importCycles(graph)).toEqual(["oauth/types.ts → types.ts → oauth/types.ts"])
    expect(importCycles(runtimeGraph(graph))).toEqual([])
  })

  it("report an import of actions/ from below it, type-only ones too", () => {
    const graph: ImportGraph = new Map([
      ["index.ts", [edge("actions/index.ts")]],
      ["actions/index.ts", [edge("http/cookies.ts")]],
      ["http/cookies.ts", []],
      ["email/send.ts", [edge("actions/pages.ts", true)]],
    ])
    expect(importsOfActions(graph, new Set(["index.ts"]))).toEqual(["email/send.ts imports actions/pages.ts (type-only)"])
  })
})
