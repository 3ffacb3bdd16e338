/**
 * test/app, a real Next.js 16 app, for the tests that need Next.js itself between the browser and
 * `auth()`: built once (`next build`, Turbopack) and started with `next start`. It uses the built
 * packages (`dist`), like the examples: run `npm run build` after changing the sources.
 */
import { spawn, spawnSync } from "node:child_process"
import { join } from "node:path"
import { freePort } from "@sesame/testing"

const root = join(import.meta.dirname, "..", "..", "..")
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next")
const appDir = join(import.meta.dirname, "app")

/** The app's secret: the tests make JWT session cookies with it. */
export const appSecret = "test-app-secret-0123456789-abcdefghijklmnop"

const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: appSecret }

/** `next build` of the app; throws with Next's output when it fails. */
export function buildApp(): void {
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: appDir, env: baseEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`next build failed (${result.status}):\n${result.stdout}\n${result.stderr}`)
}

/** What the app's page shows in each of its three server components: `<name> #<read>`, or `signed out`. */
export interface PageViews {
  readonly layout: string | undefined
  readonly page: string | undefined
  readonly nested: string | undefined
}

export interface RunningApp {
  /** How many session reads (runs of the `session` callback) the app has made. */
  reads(): Promise<number>
  /** Reads made while `action` runs, with its result. */
  readsDuring<T>(action: () => Promise<T>): Promise<{ reads: number; result: T }>
  /** A page, as a browser asks for it. */
  page(path: string, cookie?: string): Promise<PageViews>
  stop(): Promise<void>
}

function view(html: string, id: string): string | undefined {
  return new RegExp(`<p id="${id}">([^<]*)</p>`).exec(html)?.[1]
}

/** `next start` of the built app on a free port of 127.0.0.1. */
export async function startApp(): Promise<RunningApp> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: appDir,
    env: baseEnv,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }

  const reads = async (): Promise<number> => ((await (await fetch(`${origin}/api/reads`)).json()) as { count: number }).count
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`)
    try {
      await reads()
      break
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`next start did not answer within a minute:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  return {
    reads,
    async readsDuring(action) {
      const before = await reads()
      const result = await action()
      return { reads: (await reads()) - before, result }
    },
    async page(path, cookie) {
      const headers: Record<string, string> = { accept: "text/html" }
      if (cookie) headers.cookie = cookie
      const response = await fetch(`${origin}${path}`, { headers, redirect: "manual" })
      const html = await response.text()
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}:\n${html}`)
      return { layout: view(html, "layout"), page: view(html, "page"), nested: view(html, "nested") }
    },
    stop,
  }
}
