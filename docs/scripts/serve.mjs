#!/usr/bin/env node
/**
 * `npm run docs`: builds the documentation site when it is missing or out of date
 * (docs/scripts/build.mjs), then serves it on http://localhost:4173 (`PORT` changes it) until
 * Ctrl-C. It installs what is missing and builds the packages first (the API reference reads their
 * declarations across packages), so it works on a fresh clone: VitePress is loaded only after that.
 *
 * @module
 */
import { build, ensureInstalled } from "../../scripts/lib.mjs"
import { docsDir } from "./paths.mjs"

ensureInstalled()
if (build({ ifChanged: true }) !== 0) process.exit(1)
const { buildSite } = await import("./build.mjs")
const { serve } = await import("vitepress")
await buildSite()
await serve({ root: docsDir, port: Number(process.env.PORT ?? 4173) })
