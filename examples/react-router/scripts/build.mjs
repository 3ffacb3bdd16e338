/**
 * `react-router build` of the app, skipped when nothing it reads changed: its sources and
 * configuration, the built `@sesame/core` and `@sesame/react-router` (their `dist`, which the app
 * imports), the lockfile and Node's version. Their digest is kept in `build/sesame-fingerprint`
 * after a successful build. `react-router typegen` (the routes' `./+types/*`) and the type check
 * run with every build.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"

export const appDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const root = join(appDir, "..", "..")
const fingerprintFile = join(appDir, "build", "sesame-fingerprint")
/** What in the app's folder is not an input of the build. */
const notInputs = new Set(["build", ".react-router", "node_modules", "test", "scripts", "README.md", ".gitignore"])
const require = createRequire(join(appDir, "package.json"))
/** The file of `pkg`'s command `name`, as its package.json's `bin` says. */
export function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`)
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8"))
  return join(dirname(manifest), typeof bins === "string" ? bins : bins[name])
}

function fingerprint() {
  const paths = [join(root, "package-lock.json"), ...filesBelow(appDir, (name) => notInputs.has(name) || name.includes(".timestamp-"))]
  for (const name of ["core", "react-router"]) {
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
 * Builds the app unless the last build had the same inputs: `react-router typegen`, `tsc` over the
 * app's TypeScript, `react-router build`. Returns what it did, with timings; throws with the tool's
 * output when a step fails.
 */
export function buildIfChanged() {
  const current = fingerprint()
  if (existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8") === current) return "the build is up to date (nothing changed)"
  const reactRouter = bin("@react-router/dev", "react-router")
  const steps = [
    run("react-router typegen", [reactRouter, "typegen"]),
    run("tsc", [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(appDir, "tsconfig.json")]),
    run("react-router build", [reactRouter, "build"]),
  ]
  writeFileSync(fingerprintFile, current)
  return steps.join(", ")
}
