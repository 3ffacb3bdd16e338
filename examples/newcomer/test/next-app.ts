/**
 * The app a newcomer makes by following docs/start/next.md, made by the test the same way: in a
 * temporary folder that stands for the reader's home (`~` in the guide), outside this repository,
 * so nothing of the workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The app's only files not taken from the guide are the two that `npx create-next-app` would
 *   have written and the guide relies on (step 1): package.json, with the versions of Next.js and
 *   React that examples/next pins, and tsconfig.json, without the `@/*` alias, which the guide's
 *   block adds.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack ({@link packedTarballs}, shared
 *   by every newcomer test); its `npm install` line is run in the app as written, plus flags that
 *   keep it quick (the shared npm cache, no audit).
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { block, expandHome, guideBlocks, installStep, manifestOf, newcomerHome, writeGuideFiles, type GuideBlock, type Manifest } from "./guide.js"
import { packInto, repositoryRoot } from "./pack.js"
import { npmInstall, runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "next.md")

export interface NextApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** Seconds spent packing and installing. */
  readonly timings: { pack: number; install: number }
}



/** package.json as create-next-app writes it, with examples/next's versions. */
function scaffoldManifest(): Manifest & Record<string, unknown> {
  const example = manifestOf(join(repositoryRoot, "examples", "next"))
  const root = manifestOf(repositoryRoot)
  const pin = (from: Manifest, name: string) => {
    const version = from.dependencies?.[name] ?? from.devDependencies?.[name]
    if (!version) throw new Error(`no version of ${name} to pin`)
    return version
  }
  return {
    name: "my-app",
    version: "0.1.0",
    private: true,
    scripts: { dev: "next dev", build: "next build", start: "next start" },
    dependencies: { next: pin(example, "next"), react: pin(example, "react"), "react-dom": pin(example, "react-dom") },
    devDependencies: {
      typescript: pin(root, "typescript"),
      "@types/node": pin(root, "@types/node"),
      "@types/react": pin(example, "@types/react"),
      "@types/react-dom": pin(example, "@types/react-dom"),
    },
  }
}

/** tsconfig.json as create-next-app writes it, but for the `paths` alias, which comes from the guide. */
function scaffoldTsconfig(guidePaths: { compilerOptions: Record<string, unknown> }): unknown {
  return {
    compilerOptions: {
      target: "ES2017",
      lib: ["dom", "dom.iterable", "esnext"],
      allowJs: true,
      skipLibCheck: true,
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      module: "esnext",
      moduleResolution: "bundler",
      resolveJsonModule: true,
      isolatedModules: true,
      jsx: "react-jsx",
      incremental: true,
      plugins: [{ name: "next" }],
      ...guidePaths.compilerOptions,
    },
    include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts", "**/*.mts"],
    exclude: ["node_modules"],
  }
}

/** The package names of the `--workspace` folders on the guide's `npm pack` line. */

/**
 * Follows steps 1 and 2 of the guide, and writes its files: returns the installed app. The lines of
 * the install block that the test does not run are the ones it stands in for: `npm ci` and
 * `npm run build` in the clone (the suite's build, see pack.ts), `mkdir` and `cd`.
 */
export async function createNextApp(): Promise<NextApp> {
  const blocks = guideBlocks(guidePath)
  const { home, dir, packs } = newcomerHome("next")
  mkdirSync(dir)

  const { installLine, packages } = installStep(blocks)

  let started = performance.now()
  await packInto(packages, packs, installLine)
  const pack = (performance.now() - started) / 1000

  writeFileSync(join(dir, "package.json"), `${JSON.stringify(scaffoldManifest(), null, 2)}\n`)
  const paths = JSON.parse(block(blocks, "tsconfig-paths").code) as { compilerOptions: Record<string, unknown> }
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(scaffoldTsconfig(paths), null, 2)}\n`)
  writeGuideFiles(blocks, dir)

  started = performance.now()
  npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, userEnv())
  return { home, dir, blocks, timings: { pack, install: (performance.now() - started) / 1000 } }
}
