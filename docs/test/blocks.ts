/**
 * The checks of docs/test/blocks.test.ts, as functions of a page's text and of the repository's
 * files, so that its self-check can feed them a page that is wrong on purpose.
 *
 * A page's fenced code blocks follow the convention of the README and of
 * examples/newcomer/test/guide.ts: each is announced by a marker on the line before it (blank lines
 * between are allowed; a list item's marker and block are indented alike),
 *
 * ```md
 * <!-- example: auth (exercised by examples/newcomer/test/next.test.ts, saved as auth.ts) -->
 * <!-- example: diagram (not run: a picture of the request path, not code) -->
 * ```
 *
 * `exercised by <path>` names the test that runs or compiles the block, `saved as <file>` the file
 * the block is (the other blocks import it as `./auth.js`), `not run: <reason>` why no test can.
 *
 * @module
 */
import { execFile } from "node:child_process"
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path"

/** The repository's root folder. */
export const repositoryRoot = join(import.meta.dirname, "..", "..")

/**
 * The pages whose ts/tsx blocks this test does not compile, each with the test that does. Those
 * tests build the page's app as its framework's own build does, with a compiler setup that is not
 * the generic one here: `next build` with Next.js's tsconfig and the `@/*` paths of the page,
 * SvelteKit's generated `$types` and `$lib`, Astro's `astro:*` modules and `import.meta.env`,
 * SolidStart's Vite build, React Router's generated `./+types/<route>` modules, Nuxt's generated
 * auto-imports (`defineNuxtConfig`, `defineEventHandler`), TanStack Start's generated route tree
 * (`createFileRoute("/dashboard")` is typed by it), `tsc` in the Express and Hono apps
 * installed from packed tarballs.
 * Compiling their blocks here would fail where the page is right (`@/auth`, `$lib/…`, `~/lib/…`,
 * extensionless imports) or copy that setup; instead every block of these pages must say
 * `exercised by` a test that exists.
 *
 * The migration guide is not here: its test runs its blocks against Auth.js's database through
 * Vite, which strips their types without checking them, so they are type-checked here too.
 */
export const compiledByTheirOwnTest: ReadonlyMap<string, string> = new Map([
  ["start/next.md", "examples/newcomer/test/next.test.ts"],
  ["start/solid-start.md", "examples/newcomer/test/solid-start.test.ts"],
  ["start/express.md", "examples/newcomer/test/express.test.ts"],
  ["start/fastify.md", "examples/newcomer/test/fastify.test.ts"],
  ["start/hono.md", "examples/newcomer/test/hono.test.ts"],
  ["start/sveltekit.md", "examples/newcomer/test/sveltekit.test.ts"],
  ["start/astro.md", "examples/newcomer/test/astro.test.ts"],
  ["start/react-router.md", "examples/newcomer/test/react-router.test.ts"],
  ["start/nuxt.md", "examples/newcomer/test/nuxt.test.ts"],
  ["start/tanstack-start.md", "examples/newcomer/test/tanstack-start.test.ts"],
])

/** Languages whose blocks only their page's test can compile (it has the framework's compiler): they must say `exercised by`. */
export const compiledByTheirTestLangs: ReadonlySet<string> = new Set(["svelte", "vue", "astro"])

/** The languages this test type-checks, with the extension a block gets when its marker names no file. */
export const typeScriptLangs: ReadonlyMap<string, string> = new Map([
  ["ts", ".ts"],
  ["typescript", ".ts"],
  ["tsx", ".tsx"],
  ["mts", ".mts"],
  ["cts", ".cts"],
])

/** A `not run:` reason needs at least this many words: "not run: example" says nothing. */
export const reasonWords = 3

export interface Marker {
  /** `auth` in `<!-- example: auth (…) -->`. */
  readonly name: string
  /** What the parentheses hold. */
  readonly says: string
  /** `exercised by <path>`: the test, relative to the repository. */
  readonly exercisedBy?: string
  /** `saved as <file>`: the file the block is. */
  readonly savedAs?: string
  /** `not run: <reason>`: why no test runs the block. */
  readonly notRun?: string
}

export interface Block {
  /** The line of the opening fence, from 1. */
  readonly line: number
  /** The fence's language, lower case: `ts`, `tsx`, `json`, `sh`; "" when it names none. */
  readonly lang: string
  /** The block's text, without the indentation of its fence. */
  readonly code: string
  /** The marker before it, if any. */
  readonly marker?: Marker
}

export interface ParsedPage {
  /** The page, relative to docs/: `start/next.md`. */
  readonly page: string
  readonly blocks: readonly Block[]
  /** What is wrong with the page's markup itself: a marker that does not parse, a marker with no block after it. */
  readonly problems: readonly string[]
}

const fenceOpen = /^([ \t]*)(`{3,}|~{3,})(.*)$/
const markerLine = /^[ \t]*<!-- example: ([\w-]+) \((.*)\) -->[ \t]*$/
const markerLike = /^[ \t]*<!--\s*example\b/

/** `<!-- example: name (says) -->`, read. */
export function parseMarker(name: string, says: string): Marker {
  const exercisedBy = /\bexercised by ([^\s,;:()]+)/.exec(says)?.[1]?.replace(/\.+$/, "")
  const savedAs = /\bsaved as ([^\s,;()]+)/.exec(says)?.[1]?.replace(/\.+$/, "")
  const notRun = /^not run:\s*(.*)$/s.exec(says.trim())?.[1]?.trim()
  return {
    name,
    says,
    ...(exercisedBy ? { exercisedBy } : {}),
    ...(savedAs ? { savedAs } : {}),
    ...(notRun !== undefined ? { notRun } : {}),
  }
}

/** Every fenced block of the page `page` (relative to docs/) whose text is `text`, with its marker. */
export function parseBlocks(page: string, text: string): ParsedPage {
  const lines = text.split(/\r?\n/)
  const blocks: Block[] = []
  const problems: string[] = []
  const usedMarkers = new Set<number>()
  const markerLines: number[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const open = fenceOpen.exec(line)
    if (!open) {
      if (markerLike.test(line)) markerLines.push(i)
      continue
    }
    const [, indent, fence, info] = open as unknown as [string, string, string, string]
    // A backtick fence's info string holds no backtick (CommonMark): "```js``` inline" is not a fence.
    if (fence.startsWith("`") && info.includes("`")) continue
    const close = new RegExp(`^[ \\t]*${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`)
    let end = i + 1
    while (end < lines.length && !close.test(lines[end]!)) end++
    const width = indent.replace(/\t/g, "    ").length
    const code = lines
      .slice(i + 1, end)
      .map((l) => l.replace(new RegExp(`^[ \\t]{0,${width}}`), ""))
      .join("\n")
    const lang = (/^[^\s{:[]+/.exec(info.trim())?.[0] ?? "").toLowerCase()
    // The marker is the nearest line above that is not blank.
    let before = i - 1
    while (before >= 0 && lines[before]!.trim() === "") before--
    const announced = before >= 0 ? markerLine.exec(lines[before]!) : null
    let marker: Marker | undefined
    if (announced) {
      marker = parseMarker(announced[1]!, announced[2]!)
      usedMarkers.add(before)
    } else if (before >= 0 && markerLike.test(lines[before]!)) {
      usedMarkers.add(before)
      problems.push(
        `docs/${page}:${before + 1}: a marker that does not read as "<!-- example: <name> (<what runs it>) -->" (a name of letters, digits, - and _, then the parentheses): ${lines[before]!.trim()}`,
      )
    }
    blocks.push({ line: i + 1, lang, code, ...(marker ? { marker } : {}) })
    if (end === lines.length) problems.push(`docs/${page}:${i + 1}: a code block that is never closed (no ${fence} after it)`)
    i = end
  }
  for (const m of markerLines) {
    if (!usedMarkers.has(m)) problems.push(`docs/${page}:${m + 1}: a marker with no code block after it: ${lines[m]!.trim()}`)
  }
  return { page, blocks, problems }
}

/** A repository file's text by its path relative to the repository, or undefined when there is no such file. */
export type ReadRepoFile = (path: string) => string | undefined

/** Reads files of the repository at `root`, each once. */
export function repoReader(root = repositoryRoot): ReadRepoFile {
  const cache = new Map<string, string | undefined>()
  return (path) => {
    if (!cache.has(path)) {
      const full = join(root, path)
      let text: string | undefined
      try {
        text = statSync(full).isFile() ? readFileSync(full, "utf8") : undefined
      } catch {
        text = undefined
      }
      cache.set(path, text)
    }
    return cache.get(path)
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

/**
 * Whether a test's text names the page: as its repository path (`docs/start/next.md`, as the
 * newcomer tests do); as the quoted segments of a `join()` of it, from the page's folder on
 * (`"start", "next.md"`) or from `"docs"` on (`"docs", "start", "next.md"`; `"docs",
 * "architecture.md"` for a page at the top); or, for a page in a folder, as its quoted path in docs/
 * (`"features/passwords.md"`, as packages/core/test/readme.test.ts joins it to docs/).
 */
export function mentionsPage(testText: string, page: string): boolean {
  if (testText.includes(`docs/${page}`)) return true
  if (page.includes("/") && new RegExp(`["'\`]${escapeRegExp(page)}["'\`]`).test(testText)) return true
  const segments = ["docs", ...page.split("/")]
  for (let from = 0; from <= segments.length - 2; from++) {
    const pattern = segments
      .slice(from)
      .map((s) => `["'\`]${escapeRegExp(s)}["'\`]`)
      .join("\\s*,\\s*")
    if (new RegExp(pattern).test(testText)) return true
  }
  return false
}

function isInsideRepository(path: string): boolean {
  return !isAbsolute(path) && !normalize(path).split(/[\\/]/).includes("..")
}

/**
 * What is wrong with the markers of a page: a block without one, a marker that names a test that
 * does not exist or does not mention the page, a `not run` without a reason, two blocks of one name.
 */
export function markerProblems(parsed: ParsedPage, read: ReadRepoFile = repoReader()): string[] {
  const { page, blocks } = parsed
  const problems = [...parsed.problems]
  const names = new Map<string, number>()
  for (const block of blocks) {
    const where = `docs/${page}:${block.line}`
    const { marker } = block
    if (!marker) {
      problems.push(
        `${where}: a code block without a marker. Write, on the line before it, ` +
          `"<!-- example: <name> (exercised by <the test that runs or compiles it, e.g. docs/test/blocks.test.ts>, saved as <its file, if other blocks import it>) -->", ` +
          `or "<!-- example: <name> (not run: <why no test can run it>) -->"`,
      )
      continue
    }
    const first = names.get(marker.name)
    if (first !== undefined) problems.push(`${where}: a second block named ${marker.name} (the first is at line ${first}); a test finds a block by its name`)
    else names.set(marker.name, block.line)
    if (marker.exercisedBy) {
      const test = marker.exercisedBy
      const text = isInsideRepository(test) ? read(test) : undefined
      if (text === undefined) {
        problems.push(`${where}: block ${marker.name} is "exercised by ${test}", which is not a file of the repository (a path from the repository's root, like examples/newcomer/test/next.test.ts)`)
      } else if (!mentionsPage(text, page)) {
        problems.push(
          `${where}: block ${marker.name} is "exercised by ${test}", which does not mention this page: ` +
            `a test that reads the page names it as "docs/${page}"${page.includes("/") ? ` or "${page}"` : ""} or as join() segments such as ${joinSegments(page)}`,
        )
      }
    } else if (marker.notRun !== undefined) {
      const words = marker.notRun.split(/\s+/).filter((w) => /\w/.test(w)).length
      if (words < reasonWords) problems.push(`${where}: block ${marker.name} is "not run: ${marker.notRun}": say why no test can run it, in ${reasonWords} words or more`)
    } else {
      problems.push(
        `${where}: the marker of block ${marker.name} says neither "exercised by <test path>" nor "not run: <reason>": (${marker.says})`,
      )
    }
  }
  return problems
}

function joinSegments(page: string): string {
  return page
    .split("/")
    .map((s) => `"${s}"`)
    .join(", ")
}

/**
 * The blocks that only another test compiles: every block of a page of `compiledByTheirOwnTest`,
 * and svelte/vue blocks everywhere. Each must say `exercised by` a test that exists, unless it says
 * why no test runs it (a guide's `npx create-next-app` step, which its test stands in for).
 */
export function compiledElsewhereProblems(parsed: ParsedPage, read: ReadRepoFile = repoReader(), exempt: ReadonlyMap<string, string> = compiledByTheirOwnTest): string[] {
  const problems: string[] = []
  const wholePage = exempt.has(parsed.page)
  for (const block of parsed.blocks) {
    if (!wholePage && !compiledByTheirTestLangs.has(block.lang)) continue
    const why = wholePage
      ? `this page's blocks are compiled by their own test (${exempt.get(parsed.page)}), not by docs/test/blocks.test.ts`
      : `no test but the page's own compiles a ${block.lang} block`
    const where = `docs/${parsed.page}:${block.line}`
    const test = block.marker?.exercisedBy
    if (!test && block.marker?.notRun && (block.lang === "sh" || block.lang === "bash")) continue
    if (!test) problems.push(`${where}: block ${block.marker?.name ?? "(no marker)"} does not say "exercised by <test>": ${why}`)
    else if (!isInsideRepository(test) || read(test) === undefined) problems.push(`${where}: block ${block.marker?.name ?? ""} is "exercised by ${test}", which does not exist: ${why}`)
  }
  return problems
}

/** What is wrong with the page's json blocks: each parses, unless its marker says `not run`. */
export function jsonProblems(parsed: ParsedPage): string[] {
  const problems: string[] = []
  for (const block of parsed.blocks) {
    if (block.lang !== "json" || block.marker?.notRun !== undefined) continue
    try {
      JSON.parse(block.code)
    } catch (error) {
      problems.push(`docs/${parsed.page}:${block.line}: json block ${block.marker?.name ?? "(no marker)"} is not JSON: ${(error as Error).message}`)
    }
  }
  return problems
}

/** The compiler options of a user's app, as the scratch folders' tsconfig.json holds them. */
export const scratchCompilerOptions = {
  strict: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  jsx: "react-jsx",
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
} as const

/** The folder of a page's blocks in the scratch folder: `start/next.md` → `start-next`. */
export function scratchFolder(page: string): string {
  return page.replace(/\.md$/, "").replaceAll("/", "-")
}

interface BlockFile {
  /** Relative to the page's folder, with `/`. */
  readonly file: string
  readonly block: Block
  /** What the block is called in messages. */
  readonly label: string
}

/**
 * The file of each ts/tsx block of the page in its scratch folder: the `saved as` name, else
 * `<marker name>.ts`. When two blocks are saved as one file (the same file, before and after), the
 * last keeps the name, which other blocks import, and each earlier one is written beside it as
 * `<file>.<marker name>.ts`.
 */
export function blockFiles(parsed: ParsedPage): { files: BlockFile[]; problems: string[] } {
  const problems: string[] = []
  const wanted: BlockFile[] = []
  for (const block of parsed.blocks) {
    const ext = typeScriptLangs.get(block.lang)
    if (!ext) continue
    const name = block.marker?.name ?? `block-at-line-${block.line}`
    const label = `block ${block.marker?.name ?? `(no marker) at line ${block.line}`}`
    let file = `${name}${ext}`
    const saved = block.marker?.savedAs
    if (saved) {
      if (!isInsideRepository(saved)) problems.push(`docs/${parsed.page}:${block.line}: ${label} is saved as ${saved}, a path outside the app's folder`)
      else if (!/\.[cm]?tsx?$/.test(saved)) problems.push(`docs/${parsed.page}:${block.line}: ${label} is a ${block.lang} block saved as ${saved}, which TypeScript does not compile as TypeScript`)
      else file = normalize(saved).split(sep).join("/")
    }
    wanted.push({ file, block, label })
  }
  const taken = new Set<string>()
  const files: BlockFile[] = []
  // From the last block back: the last block saved as a file keeps its name.
  for (const entry of [...wanted].reverse()) {
    let file = entry.file
    for (let n = 0; taken.has(file); n++) {
      const suffix = `.${entry.block.marker?.name ?? "block"}${n === 0 ? "" : `-${n}`}`
      file = entry.file.replace(/((?:\.d)?\.[cm]?tsx?)$/, `${suffix}$1`)
    }
    taken.add(file)
    files.unshift({ ...entry, file })
  }
  return { files, problems }
}

export interface TypeCheckResult {
  /** Each page's errors, as `docs/<page>:<line>: block <name> (<file>:<line>:<col>): error TSxxxx: …`, in the order of the page's lines. */
  readonly byPage: ReadonlyMap<string, readonly string[]>
  /** What tsc said that is no page's (a crash, an option it refused). */
  readonly unattributed: readonly string[]
}

interface Placed {
  readonly page: string
  readonly block: BlockFile
}

function runTsc(args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  const tsc = join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")
  return new Promise((done, fail) => {
    execFile(process.execPath, [tsc, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") fail(error)
      else done({ code: typeof error?.code === "number" ? error.code : 0, output: `${stdout}${stderr}` })
    })
  })
}

const diagnosticLine = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/

/**
 * Type-checks the ts/tsx blocks of `pages` as a user's app would compile them, against the
 * packages' builds (`@sesame/*` in node_modules are links to packages/*, whose exports' `types`
 * point at dist). Each page's blocks go into `<scratch>/<scratchFolder(page)>/` beside a
 * tsconfig.json (`tsc -p` it to see one page alone); `<scratch>` holds a package.json of
 * `"type": "module"`, as an app's. One `tsc -b` builds every page's tsconfig: each page is its own
 * program, so that what one page declares for all files (`declare module "@sesame/core"`,
 * `declare global`) does not reach another, while the libraries' declarations are read once.
 *
 * `scratch` must be inside the repository, for node_modules to resolve.
 */
export async function typeCheck(pages: readonly ParsedPage[], scratch: string): Promise<TypeCheckResult> {
  const byPage = new Map<string, string[]>()
  const unattributed: string[] = []
  const placed = new Map<string, Placed>()
  const folderPages = new Map<string, string>()
  const configs: string[] = []
  mkdirSync(scratch, { recursive: true })
  const folders = new Set(pages.map((p) => scratchFolder(p.page)))
  // Folders of pages that are gone (renamed, deleted); dot-folders are other checks' scratch.
  for (const entry of readdirSync(scratch, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith(".") && !folders.has(entry.name)) rmSync(join(scratch, entry.name), { recursive: true, force: true })
  }
  writeFileSync(join(scratch, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`)
  for (const parsed of pages) {
    const messages: string[] = []
    byPage.set(parsed.page, messages)
    const { files, problems } = blockFiles(parsed)
    messages.push(...problems)
    const folder = join(scratch, scratchFolder(parsed.page))
    rmSync(folder, { recursive: true, force: true })
    if (files.length === 0) continue
    folderPages.set(folder, parsed.page)
    for (const entry of files) {
      const path = join(folder, entry.file)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, entry.block.code.endsWith("\n") ? entry.block.code : `${entry.block.code}\n`)
      placed.set(path, { page: parsed.page, block: entry })
    }
    writeFileSync(join(folder, "tsconfig.json"), `${JSON.stringify({ compilerOptions: scratchCompilerOptions, files: files.map((f) => f.file) }, null, 2)}\n`)
    configs.push(relative(scratch, join(folder, "tsconfig.json")))
  }
  if (configs.length === 0) return { byPage, unattributed }
  /** The page whose folder holds `path`, if any. */
  const pageOf = (path: string) => {
    for (const [folder, page] of folderPages) if (path.startsWith(`${folder}${sep}`)) return page
    return undefined
  }
  // --force: the folders are new, but a build never says "up to date" instead of the errors.
  const { code, output } = await runTsc(["-b", ...configs, "--force", "--pretty", "false"], scratch)
  const lines = output.split(/\r?\n/)
  let found = 0
  for (let l = 0; l < lines.length; l++) {
    if (lines[l]!.trim() === "") continue
    // A message of several lines goes on indented.
    let text = lines[l]!
    while (l + 1 < lines.length && /^\s+\S/.test(lines[l + 1]!)) text += `\n${lines[++l]!}`
    found++
    const diagnostic = diagnosticLine.exec(text.split("\n")[0]!)
    const rest = text.includes("\n") ? text.slice(text.indexOf("\n")) : ""
    const path = diagnostic ? resolve(scratch, diagnostic[1]!) : undefined
    const where = path ? placed.get(path) : undefined
    const page = path ? pageOf(path) : undefined
    if (diagnostic && where) {
      const [, , row, column, severity, id, message] = diagnostic as unknown as string[]
      const pageLine = where.block.block.line + Number(row)
      byPage.get(where.page)!.push(`docs/${where.page}:${pageLine}: ${where.block.label} (${where.block.file}:${row}:${column}): ${severity} ${id}: ${message}${rest}`)
    } else if (page) {
      byPage.get(page)!.push(`docs/${page}: ${text}`)
    } else {
      unattributed.push(text)
    }
  }
  if (code !== 0 && found === 0) unattributed.push(`tsc -b failed (exit code ${code}) without a message`)
  // tsc goes file by file, in the order of their names: each page's errors go in the order of its lines.
  const lineOf = (message: string) => Number(/^docs\/[^:]+:(\d+):/.exec(message)?.[1] ?? 0)
  for (const messages of byPage.values()) messages.sort((a, b) => lineOf(a) - lineOf(b))
  return { byPage, unattributed }
}
