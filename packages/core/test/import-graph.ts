/**
 * The import graph of `packages/core/src`, read with the TypeScript parser (not regular
 * expressions, so that an `import` in a comment, a string or a template is not mistaken for one),
 * and the cycles in it.
 *
 * An edge is a static `import … from`, a side-effect `import "…"` or an `export … from` whose
 * specifier is relative or one of the package's `#` imports (both of its targets: Node and web).
 * Each edge says whether it is type-only: `import type` / `export type … from`, which the compiler
 * erases. `import { type A }` is not: under `verbatimModuleSyntax` it still compiles to
 * `import {} from`, which loads the module. Dynamic `import()` is left out: it evaluates later, so it
 * cannot take part in an evaluation-order cycle (and core uses it only for optional packages).
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"

export interface ImportEdge {
  /** The imported file, relative to the source folder (`http/cookies.ts`). */
  to: string
  typeOnly: boolean
}

/** Each file (relative to the source folder) and its imports of other files in it. */
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>

interface PackageManifest {
  imports?: Record<string, { "sesame-source"?: Record<string, string> }>
}

/** Every TypeScript file under `dir`, at any depth. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : []
  })
}

/** The specifier of an import or re-export statement, and whether the compiler erases it. */
function moduleReference(statement: ts.Statement): { specifier: string; typeOnly: boolean } | null {
  if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
    return { specifier: statement.moduleSpecifier.text, typeOnly: statement.importClause?.isTypeOnly ?? false }
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
    return { specifier: statement.moduleSpecifier.text, typeOnly: statement.isTypeOnly }
  }
  return null
}

/**
 * The import graph of the TypeScript files under `src`, whose package manifest (for `#` imports)
 * is `src/../package.json`. Throws on a `#` import the manifest does not map, so that a new one is
 * not silently left out of the graph.
 */
export function importGraph(src: string): ImportGraph {
  const manifest = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as PackageManifest
  const hashTargets = (specifier: string): string[] => {
    const targets = manifest.imports?.[specifier]?.["sesame-source"]
    if (!targets) throw new Error(`import "${specifier}" is not in the package's "imports" map`)
    return Object.values(targets).map((target) => relative(src, join(src, "..", target)))
  }
  const graph = new Map<string, ImportEdge[]>()
  for (const path of sourceFiles(src)) {
    const file = relative(src, path)
    const source = ts.createSourceFile(file, readFileSync(path, "utf8"), ts.ScriptTarget.Latest)
    const edges: ImportEdge[] = []
    for (const statement of source.statements) {
      const reference = moduleReference(statement)
      if (!reference) continue
      const { specifier, typeOnly } = reference
      // Sources import each other by their compiled names (`./x.js`).
      const targets = specifier.startsWith(".")
        ? [relative(src, resolve(dirname(path), specifier.replace(/\.js$/, ".ts")))]
        : specifier.startsWith("#")
          ? hashTargets(specifier)
          : []
      for (const to of targets) edges.push({ to, typeOnly })
    }
    graph.set(file, edges)
  }
  return graph
}

/** The graph without its type-only edges: what runs when the modules are evaluated. */
export function runtimeGraph(graph: ImportGraph): ImportGraph {
  return new Map([...graph].map(([file, edges]) => [file, edges.filter((edge) => !edge.typeOnly)]))
}

function successors(graph: ImportGraph, file: string): string[] {
  return [...new Set((graph.get(file) ?? []).map((edge) => edge.to).filter((to) => graph.has(to)))]
}

/** The shortest path of imports from `from` back to itself, as a list of files ending with `from`. */
function shortestCycleThrough(graph: ImportGraph, from: string, within: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>()
  const queue = [from]
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!
    for (const next of successors(graph, file)) {
      if (!within.has(next)) continue
      if (next === from) {
        const path = [file]
        while (path[0] !== from) path.unshift(previous.get(path[0]!)!)
        return [...path, from]
      }
      if (!previous.has(next)) {
        previous.set(next, file)
        queue.push(next)
      }
    }
  }
  return [from, from]
}

/**
 * One cycle for each group of files that import each other (each strongly connected component
 * larger than one file, or a file that imports itself), written `a.ts → b.ts → a.ts`. Empty when
 * the graph has no cycle. A group is named by its shortest cycle through its first file and, when
 * that cycle leaves some of the group's files out, the list of them all.
 */
export function importCycles(graph: ImportGraph): string[] {
  // Tarjan's algorithm, iterative so that a deep chain of imports cannot overflow the stack.
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue
    const work: { file: string; next: number }[] = [{ file: root, next: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = successors(graph, frame.file)
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ file: target, next: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!))
      if (low.get(frame.file) !== index.get(frame.file)) continue
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== frame.file)
      if (group.length > 1 || successors(graph, frame.file).includes(frame.file)) groups.push(group.sort())
    }
  }
  return groups.map((group) => {
    const cycle = shortestCycleThrough(graph, group[0]!, new Set(group))
    const named = cycle.join(" → ")
    return cycle.length - 1 < group.length ? `${named} (tangled with: ${group.join(", ")})` : named
  })
}
