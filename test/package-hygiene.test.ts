/**
 * What `npm publish` would ship, checked the way users' tools see it. Every package under
 * packages/ that is not `"private": true` is packed by npm (one `npm pack` for all of them), then
 * for each tarball:
 *
 * - the file list holds only what users need: the built JavaScript and declarations, their maps,
 *   the TypeScript sources those maps point at (so go-to-definition and stack traces land in real
 *   code), README.md, package.json and the `bin` scripts; no build info, no tests;
 * - every map resolves inside the tarball, every source is some map's, every map some file's, and
 *   every target of `exports`, `imports` and `bin` exists (a stale output, left in dist after its
 *   source was renamed, fails here);
 * - publint reports no error (its warnings and suggestions are printed);
 * - attw (Are the Types Wrong) finds types for every entry point, wildcards expanded, under
 *   `node16` (imported from ESM and from CommonJS) and `bundler`. The packages are ESM-only
 *   (DESIGN), so a CommonJS `require` landing on ESM is expected (`cjs-resolves-to-esm`), and
 *   `node10`, which ignores `exports` altogether, is not a target (`--profile node16`).
 *
 * It packs the built packages: `npm test` builds first.
 */
import { spawn } from "node:child_process"
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join, posix } from "node:path"
import { fileURLToPath } from "node:url"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const attwPackage = join(root, "node_modules", "@arethetypeswrong", "cli")
const attw = join(attwPackage, (JSON.parse(readFileSync(join(attwPackage, "package.json"), "utf8")) as { bin: { attw: string } }).bin.attw)

/** The fields of package.json this test reads. */
interface Manifest {
  name: string
  private?: boolean
  bin?: Record<string, string>
  exports?: Record<string, unknown>
  imports?: Record<string, unknown>
}

interface Published {
  dir: string
  manifest: Manifest
}

const published: Published[] = readdirSync(join(root, "packages"))
  .map((name) => join(root, "packages", name))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true)

/** One entry of `npm pack --json`. */
interface Packed {
  name: string
  filename: string
  size: number
  unpackedSize: number
  files: { path: string }[]
}

/**
 * Runs a command to its end; a non-zero exit is returned, not thrown (attw exits 1 on problems).
 * Standard output goes to a file: attw calls process.exit() right after writing its report, which
 * cuts a report written to a pipe short (writes to a file are synchronous).
 */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // npm_* variables of an enclosing `npm test` (npm_config_dry_run, npm_config_workspace...) would
  // change what `npm pack` does.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
  const dir = mkdtempSync(join(tmpdir(), "sesame-run-"))
  const out = openSync(join(dir, "stdout"), "w")
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, NO_COLOR: "1" }, stdio: ["ignore", out, "pipe"], timeout: 120_000 })
    let stderr = ""
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout: readFileSync(join(dir, "stdout"), "utf8"), stderr }))
  }).finally(() => {
    closeSync(out)
    rmSync(dir, { recursive: true, force: true })
  })
}

let packDir = ""
const packs = new Map<string, Packed>()

beforeAll(async () => {
  const unbuilt = published.filter(({ dir }) => !existsSync(join(dir, "dist")))
  if (unbuilt.length > 0) {
    throw new Error(`${unbuilt.map(({ manifest }) => manifest.name).join(", ")} not built: run \`npm run build\` first (npm test does).`)
  }
  packDir = mkdtempSync(join(tmpdir(), "sesame-pack-"))
  const workspaces = published.flatMap(({ dir }) => ["--workspace", `packages/${basename(dir)}`])
  const result = await run(npm, ["pack", "--json", "--pack-destination", packDir, ...workspaces], root)
  if (result.code !== 0) throw new Error(`npm pack failed (exit ${result.code}):\n${result.stderr}`)
  for (const entry of JSON.parse(result.stdout) as Packed[]) packs.set(entry.name, entry)
})

afterAll(() => {
  if (packDir) rmSync(packDir, { recursive: true, force: true })
})

/** Paths a published package may hold, besides its `bin` scripts. */
const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICEN[CS]E(\.md|\.txt)?$/i,
  /^dist\/.+\.(js|d\.ts)(\.map)?$/,
  /^src\/.+\.tsx?$/,
]
const neverShipped = [/tsbuildinfo/, /(^|\/)(test|tests|__tests__)\//, /\.(test|spec)\.[cm]?[jt]sx?$/]

/** Every string target under an `exports` or `imports` value, with the key path that leads to it. */
function targets(value: unknown, path: string[] = []): { path: string[]; target: string }[] {
  if (typeof value === "string") return [{ path, target: value }]
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => targets(inner, [...path, key]))
  }
  return []
}

/** A `*` pattern of `exports` as a regular expression; `*` matches any run of characters, `/` too. */
function patternRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
  return new RegExp(`^${escaped.join("(.+)")}$`)
}

/**
 * The entry points users import, wildcards expanded against the tarball's files (attw checks a
 * wildcard subpath only when told its concrete names). `./package.json` is left out: it is JSON.
 */
function entryPoints(manifest: Manifest, files: Set<string>): string[] {
  const exports = manifest.exports ?? {}
  const blocked = Object.entries(exports)
    .filter(([, value]) => value === null)
    .map(([key]) => patternRegExp(key))
  const entries: string[] = []
  for (const [subpath, value] of Object.entries(exports)) {
    if (value === null || subpath === "./package.json") continue
    if (!subpath.includes("*")) {
      entries.push(subpath)
      continue
    }
    const runtime = targets(value).find(({ path }) => path.at(-1) === "default")
    if (!runtime) throw new Error(`${manifest.name}: exports["${subpath}"] has no default target`)
    const match = patternRegExp(runtime.target.slice(2))
    for (const file of files) {
      const star = match.exec(file)?.[1]
      if (star === undefined) continue
      const concrete = subpath.replace("*", star)
      if (!blocked.some((re) => re.test(concrete))) entries.push(concrete)
    }
  }
  return entries.sort()
}

/** Problems with the file list and the maps, as sentences (empty when all is well). */
function fileProblems({ dir, manifest }: Published, files: Set<string>): string[] {
  const problems: string[] = []
  const bins = new Set(Object.values(manifest.bin ?? {}).map((path) => posix.normalize(path)))
  for (const file of files) {
    if (neverShipped.some((re) => re.test(file))) problems.push(`${file} must not be published`)
    else if (!bins.has(file) && !allowed.some((re) => re.test(file))) problems.push(`${file} is not something users need`)
  }
  if (!files.has("README.md")) problems.push("README.md is missing")

  // Maps: each file's sourceMappingURL names a shipped map, each map's sources are shipped.
  const mapped = new Set<string>()
  const sources = new Set<string>()
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8")
    if (/\.(js|d\.ts)$/.test(file)) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1]
      if (url === undefined) continue
      const map = posix.join(posix.dirname(file), url)
      if (files.has(map)) mapped.add(map)
      else problems.push(`${file} points at ${map}, which the tarball does not hold`)
    } else if (file.endsWith(".map")) {
      const { sources: list = [], sourceRoot = "" } = JSON.parse(text) as { sources?: string[]; sourceRoot?: string }
      for (const source of list) {
        const path = posix.join(posix.dirname(file), sourceRoot, source)
        if (files.has(path)) sources.add(path)
        else if (existsSync(join(dir, path))) problems.push(`${file} points at ${path}, which package.json "files" leaves out`)
        else problems.push(`${file} points at ${path}, which is gone: a stale output (remove packages/${basename(dir)}/dist and build again)`)
      }
    }
  }
  for (const file of files) {
    if (file.endsWith(".map") && !mapped.has(file)) problems.push(`${file} is no shipped file's map`)
    if (file.startsWith("src/") && !sources.has(file)) problems.push(`${file} is no shipped map's source`)
  }

  // Every target the manifest names exists (a wildcard target matches at least one file).
  const named = [
    ...targets(manifest.exports ?? {}, ["exports"]),
    ...targets(manifest.imports ?? {}, ["imports"]),
    ...targets(manifest.bin ?? {}, ["bin"]),
  ]
  for (const { path, target } of named) {
    const file = posix.normalize(target)
    const found = file.includes("*") ? [...files].some((f) => patternRegExp(file).test(f)) : files.has(file)
    if (!found) problems.push(`${path.map((key, i) => (i === 0 ? key : `[${JSON.stringify(key)}]`)).join("")} is ${target}, which the tarball does not hold`)
  }
  return problems
}

/** The parts of attw's JSON report this test reads. */
interface AttwReport {
  analysis: {
    types: unknown
    problems: { kind: string; entrypoint?: string; resolutionKind?: string }[]
    entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>
  }
}

describe.concurrent.each(published.map((pkg) => ({ ...pkg, name: pkg.manifest.name })))("$name", (pkg) => {
  const { name, manifest } = pkg
  const packed = () => {
    const entry = packs.get(name)
    if (!entry) throw new Error(`npm pack did not pack ${name}`)
    return { entry, files: new Set(entry.files.map(({ path }) => path)), tarball: join(packDir, entry.filename) }
  }

  it("holds only what users need, and every map and target resolves inside it", () => {
    const { entry, files } = packed()
    expect(fileProblems(pkg, files)).toEqual([])
    console.log(`${name}: ${files.size} files, ${(entry.size / 1024).toFixed(0)} kB packed, ${(entry.unpackedSize / 1024).toFixed(0)} kB unpacked`)
  })

  it("passes publint", async () => {
    const { tarball } = packed()
    const { messages, pkg: packedManifest } = await publint({ pack: { tarball: new Uint8Array(readFileSync(tarball)).buffer }, level: "suggestion" })
    const text = messages.map((message) => `${message.type}: ${formatMessage(message, packedManifest, { color: false }) ?? message.code}`)
    if (text.length > 0) console.log(`publint, ${name}:\n  ${text.join("\n  ")}`)
    expect(text.filter((line) => line.startsWith("error:"))).toEqual([])
  })

  // attw starts a TypeScript per package: seconds each, longer when the suite shares the CPUs.
  it("has types for every entry point under node16 (ESM and CJS importers) and bundler (attw)", { timeout: 120_000 }, async () => {
    const { files, tarball } = packed()
    const entries = entryPoints(manifest, files)
    expect(entries.length).toBeGreaterThan(0)
    const args = [attw, tarball, "--format", "json", "--profile", "node16", "--ignore-rules", "cjs-resolves-to-esm", "--include-entrypoints", ...entries]
    const result = await run(process.execPath, args, packDir)
    if (result.code !== 0 && result.code !== 1) throw new Error(`attw failed (exit ${result.code}):\n${result.stderr}`)
    const { analysis } = JSON.parse(result.stdout) as AttwReport
    // attw passes an untyped package (exit 0): say plainly that types are expected.
    expect(analysis.types, "attw found no types").toBeTruthy()
    const counted = analysis.problems.filter((p) => p.resolutionKind !== "node10" && p.kind !== "CJSResolvesToESM")
    expect(counted).toEqual([])
    expect(result.code, result.stderr).toBe(0)
    const untyped = entries.flatMap((entry) =>
      ["node16-esm", "node16-cjs", "bundler"]
        .filter((kind) => !analysis.entrypoints[entry]?.resolutions[kind]?.resolution?.fileName.endsWith(".d.ts"))
        .map((kind) => `${entry} (${kind})`),
    )
    expect(untyped).toEqual([])
  })
})
