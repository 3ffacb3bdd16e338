/**
 * The app a newcomer makes by hand, as the guides whose first step is a manual setup tell it
 * (docs/start/astro.md, docs/start/react-router.md, docs/start/nuxt.md), or with a framework's
 * command line that needs only the npm registry (docs/start/tanstack-start.md), made by the test
 * the same way: in a temporary folder that stands for the reader's home (`~` in the guide), outside this
 * repository, so nothing of the workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The guide's first step (its `create-app` block): the `npm init -y` and `npm pkg set` lines are
 *   run as written; each `npm install [--save-dev] <packages>` line is stood in for by writing those
 *   packages into `dependencies` (or `devDependencies`) at the versions the repository pins (the
 *   test's `versionOf` says which), which the guide's own `npm install` line of its install step
 *   then installs with the tarballs, in one run of npm. Or, for a guide whose first step is a
 *   command line's, the test's `create` runs it.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack ({@link packInto}, shared by
 *   every newcomer test); its `npm install` line is run in the app as written, plus flags that keep
 *   it quick (the shared npm cache, no audit).
 * - Then the test's own check of the installed app (its types).
 *
 * @module
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { block, commandLines, expandHome, guideBlocks, installStep, newcomerHome, writeGuideFiles, type GuideBlock } from "./guide.js"
import { packInto } from "./pack.js"
import { npmInstall, runLine, userEnv } from "./processes.js"

export interface HandMadeApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** The package.json the app was installed with. */
  readonly manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  /** Seconds spent on each step. */
  readonly timings: { pack: number; install: number; check: number }
}

/** A package of a first step's `npm install` line: `astro@7` is `{ name: "astro", range: "7" }`. */
export interface FirstStepPackage {
  readonly name: string
  /** What follows the name's `@`, if anything: `7`, `7.18.7`. */
  readonly range?: string
  /** From an `npm install --save-dev` line. */
  readonly dev: boolean
}

export interface HandMadeAppOptions {
  /** Part of the temporary folder's name: `astro`. */
  readonly name: string
  readonly guidePath: string
  /** The version the test installs of a package the guide's first step names (its manual setup). */
  readonly versionOf?: (pkg: FirstStepPackage) => string
  /**
   * Instead of the manual setup: runs the guide's first step (a framework's command line) in
   * `home`, which makes the app's folder, `<home>/my-app`.
   */
  readonly create?: (home: string, blocks: readonly GuideBlock[]) => void
  /** The environment of the app's `npm install` and of `check`. */
  readonly env: () => NodeJS.ProcessEnv
  /** Checks the installed app (its types) in `dir`; throws when it fails. */
  readonly check: (dir: string, blocks: readonly GuideBlock[]) => void
}

const seconds = (started: number) => (performance.now() - started) / 1000

/** What the guide's first step makes, in `dir` (the guide's `my-app`, made by the test). */
function scaffold(dir: string, blocks: readonly GuideBlock[], versionOf: (pkg: FirstStepPackage) => string): void {
  const dependencies: Record<string, string> = {}
  const devDependencies: Record<string, string> = {}
  for (const line of commandLines(block(blocks, "create-app"))) {
    if (line === "mkdir my-app" || line === "cd my-app") continue
    if (line === "npm init -y" || line.startsWith("npm pkg set ")) {
      runLine(line, dir, userEnv())
      continue
    }
    const install = /^npm install (--save-dev |-D )?((?:[\w@/.-]+ ?)+)$/.exec(line)
    if (!install) throw new Error(`The test does not know how to follow this line of the guide's first step: ${line}`)
    const dev = install[1] !== undefined
    for (const spec of install[2]!.trim().split(/\s+/)) {
      // `astro@7` names the package `astro`; `@astrojs/node@11`, `@astrojs/node`; `vite`, `vite`.
      const at = spec.lastIndexOf("@")
      const pkg: FirstStepPackage = at > 0 ? { name: spec.slice(0, at), range: spec.slice(at + 1), dev } : { name: spec, dev }
      ;(dev ? devDependencies : dependencies)[pkg.name] = versionOf(pkg)
    }
  }
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  const written = { ...manifest, dependencies, ...(Object.keys(devDependencies).length > 0 ? { devDependencies } : {}) }
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`)
}

/**
 * Follows the guide's first two steps and writes its files: returns the installed, checked app.
 * The lines of the install block that the test does not run are the ones it stands in for:
 * `npm ci` and `npm run build` in the clone (the suite's build, see pack.ts), `mkdir` and `cd`.
 */
export async function createHandMadeApp(options: HandMadeAppOptions): Promise<HandMadeApp> {
  const blocks = guideBlocks(options.guidePath)
  const { installLine, packages } = installStep(blocks)
  const { home, dir, packs } = newcomerHome(options.name)
  try {
    if (options.create) options.create(home, blocks)
    else if (options.versionOf) {
      mkdirSync(dir)
      scaffold(dir, blocks, options.versionOf)
    } else throw new Error("createHandMadeApp needs versionOf (a manual setup) or create (a command line)")

    let started = performance.now()
    await packInto(packages, packs, installLine)
    const pack = seconds(started)

    writeGuideFiles(blocks, dir)

    started = performance.now()
    npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, options.env())
    const install = seconds(started)

    started = performance.now()
    options.check(dir, blocks)
    const check = seconds(started)

    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as HandMadeApp["manifest"]
    return { home, dir, blocks, manifest, timings: { pack, install, check } }
  } catch (error) {
    // The test's afterAll never sees an app that was not made: its folder goes here.
    rmSync(home, { recursive: true, force: true })
    throw error
  }
}

/**
 * The guide's secret step (`sesame secret --write`, from `~/sesame`), run in the app: `.env.local`
 * must then hold an `AUTH_SECRET`, 32 random bytes in base64url.
 */
export function followSecretStep(app: HandMadeApp, env: NodeJS.ProcessEnv): void {
  for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, env)
  expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)
}
