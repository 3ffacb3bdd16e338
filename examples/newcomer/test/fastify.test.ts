/**
 * A newcomer's first hour with Sesame in their own Fastify app, as docs/start/fastify.md tells it: a
 * fresh Fastify 5 app in TypeScript outside this repository, made the way `npm init` and npm make
 * it, written from the guide's code blocks only, installed from the packed tarballs, compiled with
 * `tsc` under NodeNext (with every TypeScript block of packages/fastify/README.md), then driven in
 * Chromium under `npm run dev` without a secret and as a production build (see express-hono.ts,
 * whose app and flow the guide shares).
 *
 * The starter's part: the guide's `npm init -y` and `npm pkg set` lines are run as written; its
 * `npm install` lines (Fastify, @fastify/formbody, TypeScript, tsx and the types) are stood in for
 * by writing those packages into package.json at the versions this repository pins (`fastify` and
 * `@fastify/formbody` of examples/fastify, `typescript` and `@types/node` of the workspace root,
 * `tsx` of the root lockfile), installed by the guide's own `npm install` line.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { newcomerSuite, pinnedVersion } from "./express-hono.js"
import { block, commandLines, type GuideBlock } from "./guide.js"
import { repositoryRoot } from "./pack.js"
import { runLine, userEnv } from "./processes.js"

/** What the guide's first step makes, in `dir` (the guide's `my-app`, made by the test). */
function scaffold(dir: string, blocks: readonly GuideBlock[]): void {
  const dependencies: Record<string, string> = {}
  const devDependencies: Record<string, string> = {}
  for (const line of commandLines(block(blocks, "create-app"))) {
    if (line === "mkdir my-app" || line === "cd my-app") continue
    if (line === "npm init -y" || line.startsWith("npm pkg set ")) {
      runLine(line, dir, userEnv())
      continue
    }
    const install = /^npm install (--save-dev )?([\w@/. -]+)$/.exec(line)
    if (!install) throw new Error(`The test does not know how to follow this line of the guide's first step: ${line}`)
    for (const name of install[2]!.split(/\s+/)) (install[1] ? devDependencies : dependencies)[name] = pinnedVersion(name, "fastify")
  }
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  writeFileSync(file, `${JSON.stringify({ ...manifest, dependencies, devDependencies }, null, 2)}\n`)
}

newcomerSuite({
  framework: "fastify",
  guidePath: join(repositoryRoot, "docs", "start", "fastify.md"),
  readmePath: join(repositoryRoot, "packages", "fastify", "README.md"),
  scaffold,
  startLines: ["npm run build", "NODE_ENV=production AUTH_URL=http://localhost:3000 node --env-file=.env.local dist/server.js"],
})
