/**
 * The test app (`test/app`), built once with `vite build` and answered in this process by
 * SvelteKit's own `Server`: the real hooks, routing, `load`, form actions, cookies, redirects and
 * error pages of a production build, with no port and no browser.
 *
 * The build is skipped while its inputs (the app, the sources of `@sesame/sveltekit` and
 * `@sesame/core`, which the app is built from, and the lockfile) are unchanged; a lock directory
 * keeps two test files from building at once.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { digestFiles, filesBelow } from "../../../scripts/digest.mjs"
import { CookieJar, origin, request, type RequestOptions } from "../../core/test/helpers.js"

export { CookieJar, origin }

const root = join(import.meta.dirname, "..", "..", "..")
const appDir = join(import.meta.dirname, "app")
const output = join(appDir, ".svelte-kit", "output", "server")
const stampFile = join(appDir, ".svelte-kit", "sesame-fingerprint")
const lockDir = join(appDir, ".svelte-kit.lock")

/** What the build reads: the app (but its output), the two packages' sources, the lockfile. */
function fingerprint(): string {
  const paths = [
    join(root, "package-lock.json"),
    // Vite's temporary bundle of its configuration (`vite.config.ts.timestamp-….mjs`) comes and goes.
    ...filesBelow(appDir, (name) => name === ".svelte-kit" || name === ".svelte-kit.lock" || name.includes(".timestamp-")),
    ...filesBelow(join(root, "packages", "sveltekit", "src")),
    ...filesBelow(join(root, "packages", "core", "src")),
  ]
  return digestFiles(root, paths)
}

/** Runs `vite build` in the app unless its inputs are unchanged; waits while another file builds. */
async function buildOnce(): Promise<void> {
  for (;;) {
    const current = fingerprint()
    if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === current) return
    try {
      mkdirSync(lockDir)
    } catch {
      // Another test file is building; a lock left by a build that died is taken over after 2 minutes.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })!.mtimeMs > 120_000) rmSync(lockDir, { recursive: true, force: true })
      await new Promise((resolve) => setTimeout(resolve, 200))
      continue
    }
    try {
      const started = performance.now()
      const vite = join(root, "node_modules", "vite", "bin", "vite.js")
      const result = spawnSync(process.execPath, [vite, "build"], { cwd: appDir, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } })
      if (result.status !== 0) throw new Error(`vite build of the test app failed:\n${result.stdout}\n${result.stderr}`)
      writeFileSync(stampFile, current)
      console.log(`[sveltekit test app] vite build ${((performance.now() - started) / 1000).toFixed(1)} s`)
      return
    } finally {
      rmSync(lockDir, { recursive: true, force: true })
    }
  }
}

interface KitServer {
  init(options: { env: Record<string, string> }): Promise<void>
  respond(request: Request, options: { getClientAddress(): string }): Promise<Response>
}

/** Options of a request to the app: those of the core's test helper, plus the configuration to pick. */
export interface AppRequest extends RequestOptions {
  /** The test app's configuration for this request (`x-config`; see test/app/src/auth.ts). */
  config?: "jwt" | "trusted" | "database" | "broken" | "custom" | "throws" | "outage" | "outage-jwt" | "limited"
  /** The socket's address SvelteKit's adapter reports (`getClientAddress()`). Default 127.0.0.1. */
  address?: string
}

/** Sends `path` to the app; the response's cookies go into `options.jar`. */
export type Send = (path: string, options?: AppRequest) => Promise<Response>

/** Builds the app if needed and starts its `Server`; returns the way to send it requests. */
export async function startApp(): Promise<Send> {
  await buildOnce()
  const { Server } = (await import(pathToFileURL(join(output, "index.js")).href)) as { Server: new (manifest: unknown) => KitServer }
  const { manifest } = (await import(pathToFileURL(join(output, "manifest.js")).href)) as { manifest: unknown }
  const server = new Server(manifest)
  await server.init({ env: Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)) })
  return async (path, options = {}) => {
    const { config, address = "127.0.0.1", ...rest } = options
    const headers: Record<string, string> = { host: new URL(origin).host, ...(config ? { "x-config": config } : {}), ...rest.headers }
    // As adapter-node without ORIGIN: the request's URL is the Host header the browser (or an
    // attacker) sent followed by the request target, which SvelteKit's adapters pass on as they are.
    const built = request(`http://${headers.host}${path}`, { ...rest, headers })
    const response = await server.respond(built, { getClientAddress: () => address })
    options.jar?.apply(response)
    return response
  }
}

/** The headers of a browser's form post from the app's own pages: same origin, asking for a page. */
export function sameOrigin(extra: Record<string, string> = {}): Record<string, string> {
  return { origin, "sec-fetch-site": "same-origin", accept: "text/html,application/xhtml+xml", ...extra }
}

/** A session cookie for alice, from the credentials endpoint through the hook. */
export async function signInAlice(send: Send, jar: CookieJar, config: AppRequest["config"] = "jwt"): Promise<Response> {
  const basePath = config === "custom" ? "/custom-auth" : "/auth"
  const { csrfToken } = (await (await send(`${basePath}/csrf`, { jar, config })).json()) as { csrfToken: string }
  return send(`${basePath}/callback/credentials`, {
    jar,
    config,
    headers: sameOrigin(),
    form: { csrfToken, username: "alice", password: "correct horse" },
  })
}

/** The text of `<p id="…">` on a page of the test app. */
export async function shown(response: Response, id: string): Promise<string | undefined> {
  return new RegExp(`<p id="${id}">([^<]*)</p>`).exec(await response.text())?.[1]
}
