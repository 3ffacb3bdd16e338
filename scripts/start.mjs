#!/usr/bin/env node
/**
 * `npm start`: installs what is missing, builds the packages, and starts the demo app
 * (examples/demo) on http://localhost:3000 (PORT to change it) with the local OpenID provider and
 * mailbox beside it. Ctrl-C stops everything it started.
 */
import { build, ensureInstalled, step } from "./lib.mjs"

ensureInstalled()
if (build({ ifChanged: true }) !== 0) process.exit(1)
step("Starting the demo")
// Imported only now: it needs the packages that the steps above installed and built.
await import("../examples/demo/scripts/launch.mjs")
