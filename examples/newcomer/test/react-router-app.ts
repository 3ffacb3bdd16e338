/**
 * The app a newcomer makes by following docs/start/react-router.md, made by the test the same way
 * (hand-made-app.ts, shared with Astro's): in a temporary folder that stands for the reader's home
 * (`~` in the guide), outside this repository, so nothing of the workspace (its node_modules, its
 * tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The guide's first step is a manual setup: its `npm init -y` and `npm pkg set` lines are run as
 *   written; its two `npm install` lines are stood in for by writing those packages into
 *   `dependencies` and `devDependencies` at the versions examples/react-router pins (else
 *   packages/react-router, else the workspace root: TypeScript and `@types/node`), which must be
 *   the versions the guide names (`react-router@7.18.7`), or within its range (`isbot@5`); the
 *   guide's own `npm install` line of its install step then installs them with the tarballs.
 * - Every block of the guide marked `saved as <path>` is written to that path.
 * - The install block's `npm pack` line says which packages to pack; its `npm install` line is run
 *   in the app as written, plus flags that keep it quick (the shared npm cache, no audit).
 * - The guide's type check is run as written (`npx react-router typegen`, then `npx tsc`: the app's
 *   own TypeScript and `tsconfig.json`, with the `./+types/<route>` modules typegen wrote).
 * - React Router 7 and Vite 8 run on this Node.js (20.19 or later): no other one is needed.
 *
 * @module
 */
import { join } from "node:path"
import { block, commandLines, pinnedIn } from "./guide.js"
import { createHandMadeApp, type FirstStepPackage, type HandMadeApp } from "./hand-made-app.js"
import { repositoryRoot } from "./pack.js"
import { runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "react-router.md")

export type ReactRouterApp = HandMadeApp

/**
 * The version the test installs of a package the guide's first step names: the one the
 * repository pins, which must be the guide's (`7.18.7`) or within the guide's major (`5`).
 */
function versionOf({ name, range }: FirstStepPackage): string {
  const pinned = pinnedIn(name, [join("examples", "react-router"), join("packages", "react-router"), "."])
  if (!pinned) throw new Error(`Neither examples/react-router, packages/react-router nor the workspace root pins a version of ${name}`)
  if (range === undefined) throw new Error(`The guide's first step installs ${name} without a version; the repository pins ${pinned}`)
  if (pinned !== range && !pinned.startsWith(`${range}.`)) throw new Error(`The guide's first step installs ${name}@${range}, but the repository pins ${pinned}`)
  return pinned
}

/** Follows steps 1 and 2 of the guide, writes its files, and runs its type check: returns the installed app. */
export function createReactRouterApp(): Promise<ReactRouterApp> {
  return createHandMadeApp({
    name: "react-router",
    guidePath,
    versionOf,
    env: () => userEnv(),
    check: (dir, blocks) => {
      for (const line of commandLines(block(blocks, "typecheck"))) runLine(line, dir, userEnv())
    },
  })
}
