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
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { repositoryRoot } from "./pack.js"

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

/** The names of the blocks that are neither a file (`saved as`) nor among `used`, the ones the test runs: each block must be one or the other. */
export function unusedBlocks(blocks: readonly GuideBlock[], used: readonly string[]): string[] {
  return blocks.filter(({ name, file }) => file === undefined && !used.includes(name)).map(({ name }) => name)
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

/**
 * The exact version of `name` that the first of `folders` (relative to the repository; `"."` is
 * the workspace root) to pin one pins, in its `dependencies` or `devDependencies`; undefined when
 * none does (a range or `*` is no pin).
 */
export function pinnedIn(name: string, folders: readonly string[]): string | undefined {
  for (const folder of folders) {
    const { dependencies = {}, devDependencies = {} } = manifestOf(join(repositoryRoot, folder))
    const version = dependencies[name] ?? devDependencies[name]
    if (version && /^\d/.test(version)) return version
  }
  return undefined
}

/** The version of `name` in the root lockfile: what the workspace runs on, for a package that only comes in through another one (`tsx`, Nuxt's `vite`). */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(repositoryRoot, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> }
  const version = lock.packages[`node_modules/${name}`]?.version
  if (!version) throw new Error(`this repository pins no version of ${name}`)
  return version
}

/**
 * The guide's install step: its `npm pack` line (whose `--workspace` folders name the packages to
 * pack) and its `npm install` line. The other lines (`cd`, `npm ci`, `npm run build`, `mkdir -p`)
 * are the ones the test stands in for; any other line is one the test does not know how to follow.
 */
export function installStep(blocks: readonly GuideBlock[]): { packLine: string; installLine: string; packages: string[] } {
  let packLine: string | undefined
  let installLine: string | undefined
  for (const line of commandLines(block(blocks, "install"))) {
    if (line.startsWith("npm pack ")) packLine = line
    else if (line.startsWith("npm install ")) installLine = line
    else if (!/^(cd \S+|npm ci|npm run build|mkdir -p \S+)$/.test(line)) throw new Error(`The test does not know how to follow this line of the guide's install step: ${line}`)
  }
  if (!packLine || !installLine) throw new Error("The guide's install step lacks its npm pack or npm install line")
  if (!packLine.endsWith("--pack-destination ~/sesame-packs")) throw new Error(`The npm pack line does not put the tarballs where the install line reads them: ${packLine}`)
  const folders = [...packLine.matchAll(/--workspace (\S+)/g)].map((m) => m[1]!)
  if (folders.length === 0) throw new Error(`no --workspace on the guide's npm pack line: ${packLine}`)
  return { packLine, installLine, packages: folders.map((folder) => manifestOf(join(repositoryRoot, folder)).name) }
}

/** Writes every block of the guide that names a file into the app folder `dir`. */
export function writeGuideFiles(blocks: readonly GuideBlock[], dir: string): void {
  for (const { file, code } of blocks) {
    if (!file) continue
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), code)
  }
}

/**
 * A newcomer's home folder as the guides lay it out, outside the repository: `~/sesame` (the
 * clone: here a link to this repository), `~/sesame-packs` (made, empty) and `~/my-app` (the
 * app's folder, not made).
 */
export function newcomerHome(name: string): { home: string; dir: string; packs: string } {
  const home = mkdtempSync(join(tmpdir(), `sesame-newcomer-${name}-`))
  symlinkSync(repositoryRoot, join(home, "sesame"))
  const packs = join(home, "sesame-packs")
  mkdirSync(packs)
  return { home, dir: join(home, "my-app"), packs }
}
