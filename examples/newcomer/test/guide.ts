/**
 * The code blocks of a guide under docs/, as the newcomer tests use them. Each fenced block must be
 * announced by a marker on the line before it, the convention of the README:
 *
 * ```md
 * <!-- example: auth (exercised by examples/newcomer/test/next.test.ts, saved as auth.ts) -->
 * ```
 *
 * `saved as <path>` says where the test writes the block in the app it builds; a block without it
 * is one the test runs or checks some other way, which the marker says. A fenced block without a
 * marker is an error: every block of a guide is exercised, none copied by hand into a test.
 *
 * @module
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

export interface GuideBlock {
  /** The marker's name: `auth` in `<!-- example: auth (…) -->`. */
  readonly name: string
  /** The fence's language: `ts`, `tsx`, `json`, `sh`. */
  readonly lang: string
  /** Where the block goes in the app (`saved as …`), if it is a file. */
  readonly file?: string
  readonly code: string
}

const fence = /^([ \t]*)```(\S*)\n([\s\S]*?)^\1```$/gm
const marker = /<!-- example: ([\w-]+) \(([^)]*)\) -->\n\s*$/

/** Every fenced block of the guide at `path`, in order, with its marker. Throws on a block without one. */
export function guideBlocks(path: string): GuideBlock[] {
  const text = readFileSync(path, "utf8")
  const blocks: GuideBlock[] = []
  for (const match of text.matchAll(fence)) {
    const before = text.slice(0, match.index)
    const announced = marker.exec(before.slice(before.lastIndexOf("<!--")))
    if (!announced) {
      const line = before.split("\n").length
      throw new Error(`${path}:${line}: a code block without an "<!-- example: name (exercised by …) -->" marker before it`)
    }
    const file = /saved as ([^\s,;)]+)/.exec(announced[2]!)?.[1]
    // A block inside a list item is indented like its fence.
    const indent = match[1]!
    const code = match[3]!.replace(new RegExp(`^${indent}`, "gm"), "")
    blocks.push({ name: announced[1]!, lang: match[2]!, code, ...(file ? { file } : {}) })
  }
  return blocks
}

/** The block named `name`; throws when the guide has none or several. */
export function block(blocks: readonly GuideBlock[], name: string): GuideBlock {
  const found = blocks.filter((b) => b.name === name)
  if (found.length !== 1) throw new Error(`the guide has ${found.length} blocks named ${name}`)
  return found[0]!
}

/** The command lines of a shell block: comments and blank lines left out. */
export function commandLines(shell: GuideBlock): string[] {
  return shell.code
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
}

/** `line` with the guide's `~/` made the test's home folder. */
export function expandHome(line: string, home: string): string {
  return line.replaceAll("~/", `${home}/`)
}

/** What the tests read of a package.json: the versions to pin. */
export interface Manifest {
  name: string
  version: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

/** The package.json in `dir`. */
export function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest
}
