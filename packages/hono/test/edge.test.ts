/**
 * On an edge runtime: an app on `@sesame/hono` bundled as a worker's build makes it (the
 * repository's bundle helper, without the `node` condition: the core's WebCrypto backend), with a
 * lazy configuration reading the worker's bindings (`c.env.AUTH_SECRET`), then run by a process
 * in which the bundle's code finds no `process`, `Buffer` or `global`, and any import of a Node.js
 * built-in module fails. The JWT session strategy, as on Workers.
 */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { isBuiltin } from "node:module"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bundleModule, removeTemporaryFolders, temporaryFolder, writeScript } from "../../core/test/bundles.js"

const run = promisify(execFile)

const worker = `import { Hono } from "hono"
import Credentials from "@sesame/core/providers/credentials"
import { requireSession, sesame, sessionMiddleware, signIn, signOut } from "@sesame/hono"

// One configuration per set of bindings, so that the core resolves it once.
const configs = new WeakMap()
const auth = (c) => {
  let config = configs.get(c.env)
  if (!config) {
    config = {
      secret: c.env.AUTH_SECRET,
      trustHost: true,
      providers: [Credentials({ authorize: ({ username, password }) => (username === "alice" && password === c.env.ALICE_PASSWORD ? { id: "1", name: "Alice" } : null) })],
    }
    configs.set(c.env, config)
  }
  return config
}

const app = new Hono()
app.on(["GET", "POST"], "/auth/*", sesame(auth))
app.use("*", sessionMiddleware(auth))
app.use("/account/*", requireSession(auth))
app.get("/account/home", (c) => c.text("hello " + c.get("session").user.name))
app.post("/login", async (c) => signIn(c, "credentials", await c.req.formData()))
app.post("/logout", (c) => signOut(c, { redirectTo: "/" }))
export default app

/** What this code sees of Node.js's globals. */
export const probe = () => ({ process: typeof process, Buffer: typeof Buffer, global: typeof global, viaGlobalThis: typeof globalThis.process })
`

/**
 * Runs the bundle's fetch handler without Node.js (see the module's comment), through a refused and
 * an accepted sign-in, a guarded page and a sign-out; prints what it saw as JSON.
 */
const program = `import { register } from "node:module"
import { pathToFileURL } from "node:url"
const hook = \`import { isBuiltin } from "node:module"
export async function resolve(specifier, context, next) {
  if (isBuiltin(specifier)) throw new Error("imported a Node.js built-in: " + specifier)
  return next(specifier, context)
}\`
register("data:text/javascript," + encodeURIComponent(hook))
const bundle = process.argv[2]
const print = (value) => process.stdout.write(JSON.stringify(value))
// The bundle's code finds none of Node.js's own globals, as on a worker; Node.js's internals, which
// read the same globals (its fetch classes do), still find them.
const bundleUrl = pathToFileURL(bundle).href
for (const name of ["process", "Buffer", "global", "setImmediate", "clearImmediate"]) {
  const value = globalThis[name]
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get: () => ((new Error().stack ?? "").split("\\n")[2]?.includes(bundleUrl) ? undefined : value),
  })
}
const { default: app, probe } = await import(bundle)
const seen = { globals: probe() }
const env = { AUTH_SECRET: "an-edge-bound-secret-0123456789-abcdefghijkl", ALICE_PASSWORD: "correct horse" }
const origin = "https://worker.example.com"
let cookie = ""
const send = async (path, form) => {
  const headers = new Headers({ cookie })
  if (form) headers.set("origin", origin)
  const response = await app.fetch(new Request(origin + path, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form) : undefined }), env)
  const jar = new Map(cookie ? cookie.split("; ").map((pair) => pair.split("=")) : [])
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]
    if (/max-age=0/i.test(line)) jar.delete(name)
    else jar.set(name, value)
  }
  cookie = [...jar].map(([name, value]) => name + "=" + value).join("; ")
  return { status: response.status, location: response.headers.get("location"), body: await response.text(), cookies: [...jar.keys()] }
}
seen.before = await send("/account/home")
seen.wrong = await send("/login", { username: "alice", password: "wrong" })
seen.signIn = await send("/login", { username: "alice", password: "correct horse", redirectTo: "/account/home" })
seen.page = await send("/account/home")
seen.signOut = await send("/logout", {})
seen.after = await send("/account/home")
import("node:fs").then(() => (seen.nodeImport = "allowed"), (error) => (seen.nodeImport = error.message)).finally(() => print(seen))
`

let bundle: string
let driver: string

beforeAll(async () => {
  const folder = temporaryFolder("hono-edge")
  bundle = await bundleModule(join(folder, "worker.mjs"), worker, { platform: "neutral" })
  driver = writeScript(folder, "run.mjs", program)
}, 60_000)
afterAll(removeTemporaryFolders)

describe("an app on @sesame/hono on an edge runtime", () => {
  it("bundles without the node condition into one module importing nothing, no Node.js built-in in it", () => {
    const code = readFileSync(bundle, "utf8")
    // Comments out (the bundled TSDoc shows imports in its examples), then every import left.
    const source = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
    expect(source).not.toMatch(/^\s*(?:import|export)\s[^;]*\bfrom\s*["']|\brequire\s*\(/m)
    const loaded = [...source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']/g)].map(([, specifier]) => specifier!)
    // What is left is loaded on first use by features this app does not configure (passkeys,
    // Argon2 hashing), and none of it is Node.js's.
    expect(loaded.filter((specifier) => isBuiltin(specifier))).toEqual([])
    expect(source).not.toContain("node:")
    // The WebCrypto backend is in, the node:crypto one is not.
    expect(code).toContain('"HKDF"')
    for (const nodeOnly of ["hkdfSync", "randomFillSync", "createCipheriv"]) expect(code).not.toContain(nodeOnly)
  })

  it("signs in, guards and signs out with Node.js taken away, on the bindings' secret", async () => {
    const { stdout } = await run(process.execPath, [driver, bundle], { env: { PATH: process.env.PATH } })
    const seen = JSON.parse(stdout) as Record<string, { status: number; location: string | null; body: string; cookies: string[] }> & {
      globals: Record<string, string>
      nodeImport: string
    }
    expect(seen.globals).toEqual({ process: "undefined", Buffer: "undefined", global: "undefined", viaGlobalThis: "undefined" })
    expect(seen.nodeImport).toBe("imported a Node.js built-in: node:fs")
    expect(seen.before).toMatchObject({ status: 303, location: "https://worker.example.com/auth/signin?callbackUrl=%2Faccount%2Fhome" })
    expect(seen.wrong).toMatchObject({ status: 401, cookies: [] })
    expect(seen.signIn).toMatchObject({ status: 303, location: "https://worker.example.com/account/home" })
    expect(seen.signIn!.cookies).toContain("__Secure-sesame.session-token")
    expect(seen.page).toMatchObject({ status: 200, body: "hello Alice" })
    expect(seen.signOut).toMatchObject({ status: 303, location: "https://worker.example.com/" })
    expect(seen.signOut!.cookies).not.toContain("__Secure-sesame.session-token")
    expect(seen.after).toMatchObject({ status: 303 })
  })
})
