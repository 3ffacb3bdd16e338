/**
 * The development secret (no secret configured, outside production) must be one value for the
 * whole app: a framework bundles the core once per target (Next.js: the proxy, the route handlers,
 * the pages), a dev server runs several processes and restarts on every change. When each copy made
 * its own, a session sealed by the sign-in endpoint read as signed out in the proxy: a silent
 * sign-in loop. It is kept in `node_modules/.cache/sesame/development-secret` (mode 0600) and
 * shared through `globalThis`; runtimes without a file system answer a configuration error that
 * names the fix instead of a secret of their own.
 *
 * The copies below are real bundles of the core's sources (`bundles.ts`), loaded side by side in
 * this process, and plain Node.js processes started with `child_process`.
 */
import { execFile } from "node:child_process"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { bundleCore, loadBundle, removeTemporaryFolders, temporaryFolder, writeScript, type CoreBundle } from "./bundles.js"
import { CookieJar, request } from "./helpers.js"

const run = promisify(execFile)

const origin = "http://localhost:3000"
const projectSecretFile = join(process.cwd(), "node_modules", ".cache", "sesame", "development-secret")

let folder: string
let copies: { one: string; two: string; edge: string }
/** A Node.js program that signs in with one bundle and/or reads the session with another; prints JSON. */
let program: string

const programSource = `
const task = JSON.parse(process.argv[2])
const warnings = []
const errors = []
const app = (core) => ({
  providers: [
    core.Credentials({
      credentials: { username: {}, password: {} },
      authorize: (c) => (c.username === "alice" && c.password === "correct horse" ? { id: "1", name: "Alice" } : null),
    }),
  ],
  logger: { warn: (code) => warnings.push(code), error: (e) => errors.push(e.type + ": " + e.message), debug: () => {} },
})
const jar = new Map()
const cookieHeader = () => [...jar].map(([k, v]) => k + "=" + v).join("; ")
const keep = (response) => {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
  }
}
if (task.cookie) for (const pair of task.cookie.split("; ")) jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
const out = { warnings, errors }
if (task.signIn) {
  const core = await import(task.signIn)
  const config = app(core)
  const csrf = await core.Auth(new Request("${origin}/auth/csrf"), config)
  keep(csrf)
  const { csrfToken } = await csrf.json()
  const form = new URLSearchParams({ csrfToken, username: "alice", password: "correct horse" })
  const headers = { cookie: cookieHeader(), origin: "${origin}", "content-type": "application/x-www-form-urlencoded" }
  keep(await core.Auth(new Request("${origin}/auth/callback/credentials", { method: "POST", headers, body: form.toString() }), config))
  out.cookie = cookieHeader()
}
if (task.read) {
  const core = await import(task.read)
  const response = await core.Auth(new Request("${origin}/auth/session", { headers: { cookie: cookieHeader() } }), app(core))
  out.status = response.status
  const body = await response.text()
  out.user = response.status === 200 ? (JSON.parse(body)?.user?.name ?? null) : undefined
  out.leaked = body.includes("sesame secret")
  out.pageStatus = (await core.Auth(new Request("${origin}/auth/signin"), app(core))).status
}
console.log(JSON.stringify(out))
`

interface ProgramResult {
  cookie?: string
  /** The session's user name (null when signed out); undefined unless the session answered 200. */
  user?: string | null
  status?: number
  /** Whether the session endpoint's answer mentions the fix (it must not: that is for the log). */
  leaked?: boolean
  pageStatus?: number
  warnings: string[]
  errors: string[]
}

/** Runs the program in `cwd` with no secret and no NODE_ENV, as `next dev` without `.env.local`. */
async function runProgram(cwd: string, task: { signIn?: string; read?: string; cookie?: string }): Promise<ProgramResult> {
  const env = { ...process.env }
  for (const name of ["AUTH_SECRET", "SESAME_SECRET", "NODE_ENV", "AUTH_URL", "SESAME_URL"]) delete env[name]
  const { stdout } = await run(process.execPath, [program, JSON.stringify(task)], { cwd, env })
  return JSON.parse(stdout) as ProgramResult
}

function app(core: CoreBundle, log: string[]) {
  return {
    providers: [
      core.Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "alice" && c.password === "correct horse" ? { id: "1", name: "Alice" } : null),
      }),
    ],
    logger: {
      warn: (code: string) => void log.push(code),
      error: (e: Error) => void log.push(`${(e as { type?: string }).type}: ${e.message}`),
      debug: () => {},
    },
  }
}

async function signIn(core: CoreBundle, log: string[] = []): Promise<CookieJar> {
  const jar = new CookieJar()
  const config = app(core, log)
  const csrf = await core.Auth(request(`${origin}/auth/csrf`, { jar }), config)
  jar.apply(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const form = { csrfToken, username: "alice", password: "correct horse" }
  const answer = await core.Auth(request(`${origin}/auth/callback/credentials`, { jar, form, headers: { origin } }), config)
  jar.apply(answer)
  expect(answer.headers.get("location")).toBe(`${origin}/`)
  expect(jar.get("sesame.session-token")).toBeDefined()
  return jar
}

async function userOf(core: CoreBundle, cookie: string, log: string[] = []): Promise<string | null> {
  const response = await core.Auth(request(`${origin}/auth/session`, { cookie }), app(core, log))
  const body = (await response.json()) as { user?: { name?: string } } | null
  return body?.user?.name ?? null
}

function withoutSecret() {
  for (const name of ["AUTH_SECRET", "SESAME_SECRET", "AUTH_URL", "SESAME_URL"]) vi.stubEnv(name, undefined)
  vi.stubEnv("NODE_ENV", "development")
}

beforeAll(async () => {
  folder = temporaryFolder("development-secret")
  const [one, two, edge] = await Promise.all([
    bundleCore(join(folder, "core-1.mjs"), { platform: "node" }),
    bundleCore(join(folder, "core-2.mjs"), { platform: "node" }),
    bundleCore(join(folder, "core-edge.mjs"), { platform: "neutral" }),
  ])
  copies = { one, two, edge }
  program = writeScript(folder, "program.mjs", programSource)
}, 60_000)

afterEach(() => vi.unstubAllEnvs())
afterAll(removeTemporaryFolders)

describe("the development secret on Node.js", () => {
  it("is shared by separately bundled copies of the core in one process: one signs in, the other reads the session", async () => {
    withoutSecret()
    const [one, two] = await Promise.all([loadBundle(copies.one), loadBundle(copies.two)])
    expect(one.Auth).not.toBe(two.Auth)
    const log: string[] = []
    const jar = await signIn(one, log)
    expect(await userOf(two, jar.header(), log)).toBe("Alice")
    expect(await userOf(one, jar.header(), log)).toBe("Alice")
    expect(log).toContain("missing-secret-development")
    // A cookie sealed under another secret is not a session: the copies agree on this one.
    vi.stubEnv("AUTH_SECRET", "another-secret-9f8e7d6c5b4a39281706f5e4d3c2b1a0")
    expect(await userOf(two, jar.header())).toBeNull()
  })

  it("is shared by another Node.js process started in the project, and outlives this one", async () => {
    withoutSecret()
    const jar = await signIn(await loadBundle(copies.one))
    const other = await runProgram(process.cwd(), { read: copies.two, cookie: jar.header() })
    expect(other.user).toBe("Alice")
    expect(new Set(other.warnings)).toEqual(new Set(["missing-secret-development"]))
    // And the other way round: a session sealed there is read here.
    const there = await runProgram(process.cwd(), { signIn: copies.one })
    expect(await userOf(await loadBundle(copies.two), there.cookie!)).toBe("Alice")
  })

  it("is created once, atomically, as the owner's file (0600): processes started together in a new project agree", async () => {
    const project = temporaryFolder("new-project")
    const started = await Promise.all([1, 2, 3, 4].map(() => runProgram(project, { signIn: copies.one })))
    const file = join(project, "node_modules", ".cache", "sesame", "development-secret")
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const text = readFileSync(file, "utf8")
    expect(text).toMatch(/^[0-9a-f]{64}\n$/)
    for (const { cookie } of started) {
      expect((await runProgram(project, { read: copies.two, cookie })).user).toBe("Alice")
    }
    expect(readFileSync(file, "utf8")).toBe(text)
    // Another project has a secret of its own: its sessions are not this one's.
    expect((await runProgram(process.cwd(), { read: copies.two, cookie: started[0]!.cookie })).user).toBeNull()
    expect(readFileSync(projectSecretFile, "utf8")).not.toBe(text)
  })

  it("falls back to a secret of the process where the project cannot be written, shared by its bundles, and says so", async () => {
    const readOnly = temporaryFolder("read-only")
    // A file where the folder should be: nothing can be created under it, even by root.
    writeFileSync(join(readOnly, "node_modules"), "")
    const result = await runProgram(readOnly, { signIn: copies.one, read: copies.two })
    expect(result.user).toBe("Alice")
    expect(result.warnings).toContain("missing-secret-development-process")
    expect(result.warnings).not.toContain("missing-secret-development")
    // As the warning says: another process has another secret.
    expect((await runProgram(readOnly, { read: copies.two, cookie: result.cookie })).user).toBeNull()
    expect(existsSync(join(readOnly, "node_modules", ".cache"))).toBe(false)
  })

  it("serves loopback hosts only", async () => {
    withoutSecret()
    const core = await loadBundle(copies.one)
    const log: string[] = []
    const foreign = await core.Auth(new Request("http://app.example.com/auth/session", { headers: { host: "app.example.com" } }), {
      ...app(core, log),
      trustHost: true,
    })
    expect(foreign.status).toBe(500)
    expect(log.join("\n")).toMatch(/MissingSecret: .*loopback hosts only/)
    expect((await core.Auth(request(`${origin}/auth/session`), { ...app(core, []), trustHost: true })).status).toBe(200)
  })
})

describe("a runtime without the node condition (Edge, workers)", () => {
  // Its own process: an Edge runtime is a realm of its own, which the Node.js copies above did not prepare.
  it("answers a configuration error naming the fix, for localhost too", async () => {
    const result = await runProgram(process.cwd(), { read: copies.edge })
    expect(result.status).toBe(500)
    expect(result.pageStatus).toBe(500)
    expect(result.leaked).toBe(false)
    expect(result.errors.length).toBeGreaterThan(0)
    for (const line of result.errors) {
      expect(line).toMatch(/^MissingSecret: No secret is set/)
      expect(line).toContain("npx sesame secret --write")
      expect(line).toContain("AUTH_SECRET")
      expect(line).toContain(".env.local")
    }
    expect(existsSync(join(folder, "node_modules"))).toBe(false)
  })

  it("with AUTH_SECRET set, reads the sessions the Node.js side seals", async () => {
    withoutSecret()
    vi.stubEnv("AUTH_SECRET", "an-edge-test-secret-5f1d0c9b8a7e6d5c4b3a29180716f5e4")
    const jar = await signIn(await loadBundle(copies.one))
    expect(await userOf(await loadBundle(copies.edge), jar.header())).toBe("Alice")
  })
})
