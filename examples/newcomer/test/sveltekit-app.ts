/**
 * The app a newcomer makes by following docs/start/sveltekit.md, made by the test the same way: in a
 * temporary folder that stands for the reader's home (`~` in the guide), outside this repository,
 * so nothing of the workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The app is made by the guide's own `sv create` line, run with the Svelte CLI at
 *   {@link svVersion} (from the npm registry, through the shared npm cache) and `--no-install`
 *   instead of `--install npm`: the guide's install step installs everything. What it writes is
 *   kept under the system's temporary folder, by a digest of the line and the version, so later
 *   runs copy it instead of running the CLI again.
 * - In the package.json it wrote, the versions of SvelteKit, Svelte, Vite and their plugins become
 *   the ones examples/sveltekit pins, and TypeScript the repository's, each in the section
 *   `sv create` put it in: SvelteKit stays in `devDependencies`, where a newcomer's app has it.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack ({@link packedTarballs}, shared
 *   by every newcomer test); its `npm install` line is run in the app as written, plus flags that
 *   keep it quick (the shared npm cache, no audit).
 * - `npm run check` (the template's `svelte-kit sync && svelte-check`) type-checks the app, the
 *   `.svelte` files included: `vite build` does not.
 *
 * @module
 */
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { block, commandLines, expandHome, guideBlocks, installStep, manifestOf, newcomerHome, writeGuideFiles, type GuideBlock } from "./guide.js"
import { packInto, repositoryRoot } from "./pack.js"
import { npmInstall, runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "sveltekit.md")

/** The Svelte CLI that makes the app (`npx sv create`); the guide's line names no version. */
export const svVersion = "0.17.1"

export interface SvelteKitApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** The package.json the app was installed with. */
  readonly manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  /** Seconds spent on each step (`create` is near 0 when the scaffold was kept from an earlier run). */
  readonly timings: { create: number; pack: number; install: number; check: number }
}

const seconds = (started: number) => (performance.now() - started) / 1000

/** The guide's `sv create` line as the test runs it: the pinned CLI, and no install of its own. */
function createLine(blocks: readonly GuideBlock[]): string {
  const lines = commandLines(block(blocks, "create-app"))
  if (lines.length !== 2 || lines[1] !== "cd my-app") throw new Error(`The guide's create-app block is not an sv create line and cd my-app: ${lines.join(" | ")}`)
  const line = lines[0]!
  if (!line.startsWith("npx sv create my-app ") || !line.endsWith(" --install npm")) throw new Error(`The test does not know how to run this line: ${line}`)
  return `npx --yes sv@${svVersion} create my-app ${line.slice("npx sv create my-app ".length, -" --install npm".length)} --no-install`
}

/**
 * What `sv create` writes, made once per line and CLI version and kept in the system's temporary
 * folder (made in a staging folder and renamed into place, so a half-made one is never used);
 * copied to `dir`.
 */
function scaffold(line: string, dir: string): void {
  const key = createHash("sha256").update(`${svVersion}\0${line}`).digest("hex").slice(0, 16)
  const kept = join(tmpdir(), `sesame-newcomer-sv-${key}`)
  if (!existsSync(join(kept, "my-app", "package.json"))) {
    const staging = mkdtempSync(`${kept}-staging-`)
    try {
      runLine(line, staging, userEnv({ npm_config_prefer_offline: "true", npm_config_update_notifier: "false" }))
      if (!existsSync(join(staging, "my-app", "package.json"))) throw new Error(`${line} made no my-app/package.json`)
      rmSync(kept, { recursive: true, force: true })
      renameSync(staging, kept)
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
  cpSync(join(kept, "my-app"), dir, { recursive: true })
}

/**
 * The package.json `sv create` wrote, with the versions of examples/sveltekit (and the
 * repository's TypeScript) in place of its ranges, each where the CLI put it.
 */
function pinVersions(dir: string): void {
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, string> | undefined>
  const example = manifestOf(join(repositoryRoot, "examples", "sveltekit"))
  const root = manifestOf(repositoryRoot)
  const pins: Record<string, string | undefined> = {
    "@sveltejs/kit": example.dependencies?.["@sveltejs/kit"],
    "@sveltejs/adapter-node": example.dependencies?.["@sveltejs/adapter-node"],
    "@sveltejs/vite-plugin-svelte": example.dependencies?.["@sveltejs/vite-plugin-svelte"],
    svelte: example.dependencies?.svelte,
    vite: example.dependencies?.vite,
    typescript: root.devDependencies?.typescript,
  }
  for (const [name, version] of Object.entries(pins)) {
    if (!version) throw new Error(`no version of ${name} to pin`)
    const section = ["dependencies", "devDependencies"].find((key) => manifest[key]?.[name] !== undefined)
    if (!section) throw new Error(`sv create did not add ${name} to package.json`)
    manifest[section]![name] = version
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, "\t")}\n`)
}

/**
 * Follows steps 1 and 2 of the guide and writes its files: returns the installed, type-checked
 * app. The lines of the install block that the test does not run are the ones it stands in for:
 * `npm ci` and `npm run build` in the clone (the suite's build, see pack.ts), `mkdir` and `cd`.
 */
export async function createSvelteKitApp(): Promise<SvelteKitApp> {
  const blocks = guideBlocks(guidePath)
  const { installLine, packages } = installStep(blocks)
  const { home, dir, packs } = newcomerHome("sveltekit")
  try {
    return await follow(blocks, installLine, packages, home, dir, packs)
  } catch (error) {
    // The test's afterAll never sees an app that was not made: its folder goes here.
    rmSync(home, { recursive: true, force: true })
    throw error
  }
}

/** The steps of {@link createSvelteKitApp}, in the newcomer's home folder `home`. */
async function follow(blocks: readonly GuideBlock[], installLine: string, packages: string[], home: string, dir: string, packs: string): Promise<SvelteKitApp> {
  let started = performance.now()
  scaffold(createLine(blocks), dir)
  pinVersions(dir)
  const create = seconds(started)

  started = performance.now()
  await packInto(packages, packs, installLine)
  const pack = seconds(started)

  writeGuideFiles(blocks, dir)

  started = performance.now()
  npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, userEnv())
  const install = seconds(started)

  started = performance.now()
  runLine("npm run check", dir, userEnv())
  const check = seconds(started)

  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as SvelteKitApp["manifest"]
  return { home, dir, blocks, manifest, timings: { create, pack, install, check } }
}
