/**
 * `next build` for the demo, skipped when nothing it depends on changed: the app's sources, the
 * built packages (packages/*\/dist), the lockfile and Node's version. Their digest is kept in
 * `.next/sesame-fingerprint` after a successful build.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join, relative } from "node:path"
import { demoDir } from "./env-file.mjs"

const root = join(demoDir, "..", "..")
export const nextBin = createRequire(join(demoDir, "package.json")).resolve("next/dist/bin/next")
const fingerprintFile = join(demoDir, ".next", "sesame-fingerprint")
/** What in the demo's folder is not an input of the build. */
const notInputs = new Set([".next", ".data", "node_modules", ".env.local", "next-env.d.ts", "test", "scripts"])

function* files(dir, skip = () => false) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skip(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (entry.isFile()) yield path
  }
}

export function fingerprint() {
  const hash = createHash("sha256").update(process.version)
  const add = (path) => hash.update(relative(root, path)).update("\0").update(readFileSync(path)).update("\0")
  add(join(root, "package-lock.json"))
  for (const path of files(demoDir, (name) => notInputs.has(name))) add(path)
  for (const name of readdirSync(join(root, "packages")).sort()) {
    const dist = join(root, "packages", name, "dist")
    add(join(root, "packages", name, "package.json"))
    if (existsSync(dist)) for (const path of files(dist)) add(path)
  }
  return hash.digest("hex")
}

/** Builds the app unless the last build had the same inputs. Returns false when the build fails. */
export async function buildIfChanged(env, step) {
  const current = fingerprint()
  const built = existsSync(join(demoDir, ".next", "BUILD_ID")) && existsSync(fingerprintFile) ? readFileSync(fingerprintFile, "utf8") : null
  if (built === current) {
    step("The app is built already (no source changed)")
    return true
  }
  step("Building the app (next build, about a minute)")
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: demoDir, env, stdio: "inherit" })
  if (result.status !== 0) {
    console.error("next build failed: see the messages above.")
    return false
  }
  writeFileSync(fingerprintFile, current)
  return true
}
