#!/usr/bin/env node
/**
 * Builds the documentation site into docs/build/dist (`npm run docs` serves it; `npm test` builds
 * it and checks it, docs/test/). Three steps, skipped when nothing they read changed (the
 * fingerprint in docs/build/fingerprint):
 *
 * 1. **Pages** (`stage.mjs`): docs/**\/*.md, and every package's and example's README, copied into
 *    docs/build/src with their links rewritten for the site.
 * 2. **API reference** (`api.mjs`): TypeDoc over every public entry point of every published
 *    package (their `exports`), as Markdown pages under docs/build/src/reference/api.
 * 3. **Site**: VitePress, with its local full-text search index, into docs/build/dist.
 *
 * `--force` rebuilds whatever the fingerprint says.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { build as vitepressBuild } from "vitepress"
import { apiReference } from "./api.mjs"
import { buildDir, distDir, docsDir, fingerprint, sourceDir } from "./paths.mjs"
import { stagePages } from "./stage.mjs"

const stamp = join(buildDir, "fingerprint")

/** Builds the site unless the one on disk was built from the same files; returns the output folder. */
export async function buildSite({ force = false } = {}) {
  const current = fingerprint()
  if (!force && existsSync(join(distDir, "index.html")) && existsSync(stamp) && readFileSync(stamp, "utf8") === current) {
    console.log("[docs] the site is up to date (docs/build/dist)")
    return distDir
  }
  const started = performance.now()
  rmSync(sourceDir, { recursive: true, force: true })
  mkdirSync(sourceDir, { recursive: true })
  const pages = stagePages()
  const api = await apiReference(join(sourceDir, "reference", "api"))
  const staged = performance.now()
  await vitepressBuild(docsDir, { logLevel: "warn" })
  writeFileSync(stamp, current)
  const seconds = (ms) => (ms / 1000).toFixed(1)
  console.log(`[docs] ${pages} pages and ${api} API pages staged in ${seconds(staged - started)} s; VitePress built docs/build/dist in ${seconds(performance.now() - staged)} s`)
  return distDir
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildSite({ force: process.argv.includes("--force") })
}
