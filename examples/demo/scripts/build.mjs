/**
 * `next build` for the demo, skipped when nothing it depends on changed: the app's sources, the
 * built packages (packages/*\/dist), the lockfile and Node's version. Their digest is kept in
 * `.next/sesame-fingerprint` after a successful build.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"
import { demoDir } from "./env-file.mjs"

const root = join(demoDir, "..", "..")
export const nextBin = createRequire(join(demoDir, "package.json")).resolve("next/dist/bin/next")
const fingerprintFile = join(demoDir, ".next", "sesame-fingerprint")
/** What in the demo's folder is not an input of the build. */
const notInputs = new Set([".next", ".data", "node_modules", ".env.local", "next-env.d.ts", "test", "scripts"])

function fingerprint() {
  const paths = [join(root, "package-lock.json"), ...filesBelow(demoDir, (name) => notInputs.has(name))]
  for (const name of readdirSync(join(root, "packages")).sort()) {
    const dist = join(root, "packages", name, "dist")
    paths.push(join(root, "packages", name, "package.json"))
    if (existsSync(dist)) paths.push(...filesBelow(dist))
  }
  return digestFiles(root, paths)
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
