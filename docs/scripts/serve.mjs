#!/usr/bin/env node
/**
 * `npm run docs`: builds the documentation site when it is missing or out of date
 * (docs/scripts/build.mjs), then serves it on http://localhost:4173 (`PORT` changes it) until
 * Ctrl-C. It installs what is missing first, so it works on a fresh clone.
 *
 * @module
 */
import { serve } from "vitepress"
import { ensureInstalled } from "../../scripts/lib.mjs"
import { docsDir } from "./paths.mjs"

ensureInstalled()
const { buildSite } = await import("./build.mjs")
await buildSite()
const port = Number(process.env.PORT ?? 4173)
await serve({ root: docsDir, port })

