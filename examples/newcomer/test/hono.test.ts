/**
 * A newcomer's first hour with Sesame in their own Hono app on Node.js, as docs/start/hono.md tells it:
 * a fresh app outside this repository, made as `npm create hono` makes it with its `nodejs`
 * template, written from the guide's code blocks only, installed from the packed tarballs,
 * compiled with `tsc` under NodeNext (with every TypeScript block of packages/hono/README.md),
 * then driven in Chromium under `npm run dev` without a secret and as a production build (see
 * express-hono.ts).
 *
 * The starter's part: the two files of the template the guide keeps, `package.json` (the
 * template's scripts: `tsx watch src/index.ts`, `tsc`, `node dist/index.js`) and `tsconfig.json`
 * (NodeNext), as honojs/starter's templates/nodejs has them, with the versions this repository
 * pins instead of the template's ranges: `hono` and `@hono/node-server` of examples/hono,
 * `typescript` and `@types/node` of the workspace root, `tsx` of the root lockfile. The template's
 * `src/index.ts` is the guide's.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { newcomerSuite, pinnedVersion } from "./express-hono.js"
import { repositoryRoot } from "./pack.js"

const pin = (names: string[]) => Object.fromEntries(names.map((name) => [name, pinnedVersion(name, "hono")]))

/** The template's package.json and tsconfig.json, in `dir`. */
function scaffold(dir: string): void {
  const manifest = {
    type: "module",
    scripts: { dev: "tsx watch src/index.ts", build: "tsc", start: "node dist/index.js" },
    dependencies: pin(["@hono/node-server", "hono"]),
    devDependencies: pin(["@types/node", "tsx", "typescript"]),
  }
  const tsconfig = {
    compilerOptions: {
      target: "ESNext",
      module: "NodeNext",
      strict: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      types: ["node"],
      jsx: "react-jsx",
      jsxImportSource: "hono/jsx",
      rootDir: "./src",
      outDir: "./dist",
    },
    exclude: ["node_modules"],
  }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`)
}

newcomerSuite({
  framework: "hono",
  guidePath: join(repositoryRoot, "docs", "start", "hono.md"),
  readmePath: join(repositoryRoot, "packages", "hono", "README.md"),
  scaffold,
  startLines: ["npm run build", "NODE_ENV=production AUTH_URL=http://localhost:3000 node --env-file=.env.local dist/index.js"],
})
