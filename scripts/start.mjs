#!/usr/bin/env node
/**
 * `npm start`: installs what is missing, builds the packages, and starts the example app on
 * http://localhost:3000 (PORT to change it). Ctrl-C stops it.
 */
import { join } from "node:path"
import { build, ensureInstalled, root, runForeground, step } from "./lib.mjs"

ensureInstalled()
if (build() !== 0) process.exit(1)
step("Starting the example app")
process.exit(await runForeground(process.execPath, [join(root, "examples", "basic", "server.mjs")], { env: { ...process.env, PORT: process.env.PORT ?? "3000" } }))
