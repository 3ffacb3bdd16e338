/**
 * Installing, building and running the example app on one SolidStart version, as a person would:
 * `npm ci` from the app's own lockfile, a type check, the production build, and the built server
 * on 127.0.0.1 and a free port.
 *
 * The apps are not workspace members: SolidStart 1.x and 2.x cannot share one dependency tree, and
 * their few hundred packages (and Node 24, which SolidStart 2 needs to build) stay out of the
 * root install. Each has its own pinned lockfile; `@sesame/core` and `@sesame/solid-start` are
 * `file:` dependencies installed as copies of the built packages (`install-links=true`), as
 * from the registry. An install is kept while the lockfile and the built packages are unchanged.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer, type AddressInfo } from "node:net"
import { join, relative } from "node:path"

export const exampleDir = join(import.meta.dirname, "..")
const repoRoot = join(exampleDir, "..", "..")
const sesamePackages = ["core", "solid-start"].map((name) => join(repoRoot, "packages", name))
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc")
const npmCli = process.platform === "win32" ? "npm.cmd" : "npm"

export interface Variant {
  /** "SolidStart 1.x" or "SolidStart 2.x", for messages. */
  label: string
  /** The app's directory: its package.json, lockfile and framework configuration. */
  dir: string
  /** Copy the app's sources (../src) into `dir` first (the 1.x variant shares them). */
  copySources: boolean
  /** The build, as arguments of `node`. */
  build: string[]
  /**
   * `npm ci` where the lockfile is complete. The 1.x lockfile lacks rollup's native packages for
   * other platforms (the registry this project uses does not carry them), which `npm ci` refuses;
   * `npm install --no-save` installs the same pinned tree and leaves the lockfile as it is.
   */
  install: "ci" | "install"
}

export const solidStart2: Variant = {
  label: "SolidStart 2.x",
  dir: exampleDir,
  copySources: false,
  build: [join(exampleDir, "scripts", "build.mjs")],
  install: "ci",
}

export const solidStart1: Variant = {
  label: "SolidStart 1.x",
  dir: join(exampleDir, "solidstart-1"),
  copySources: true,
  build: [join(exampleDir, "solidstart-1", "node_modules", "vinxi", "bin", "cli.mjs"), "build"],
  install: "install",
}

/**
 * The environment of a person's shell: without npm's variables (a nested npm must not inherit the
 * root's prefix) and without Vitest's (its NODE_ENV=test would make Vite build for development).
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|VITEST)/i.test(key) && !["INIT_CWD", "NODE_ENV", "TEST"].includes(key)) env[key] = value
  }
  return { ...env, ...extra }
}

function run(label: string, command: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(env), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n")
    throw new Error(`${label} failed (exit ${result.status ?? result.signal}):\n${output}`)
  }
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : [path]
  })
}

/** What the install depends on: the app's manifest and lockfile, and the built Sesame packages. */
function installFingerprint(dir: string): string {
  const hash = createHash("sha256")
  for (const name of ["package.json", "package-lock.json", ".npmrc"]) hash.update(name).update(readFileSync(join(dir, name)))
  for (const pkg of sesamePackages) {
    const dist = join(pkg, "dist")
    if (!existsSync(dist)) throw new Error(`${relative(repoRoot, pkg)} is not built: run \`npm run build\` at the repository root first.`)
    for (const file of [join(pkg, "package.json"), ...files(dist).sort()]) hash.update(relative(repoRoot, file)).update(readFileSync(file))
  }
  return hash.digest("hex")
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Installs (when needed), type-checks and builds the app; returns the timings, printed too. */
export function prepare(variant: Variant): string {
  const { dir } = variant
  const timings: string[] = []
  const time = (name: string, step: () => void) => {
    const start = performance.now()
    step()
    timings.push(`${name} ${seconds(performance.now() - start)}`)
  }
  const stampFile = join(dir, "node_modules", ".sesame-install")
  const fingerprint = installFingerprint(dir)
  const installed = existsSync(stampFile) && readFileSync(stampFile, "utf8") === fingerprint
  const npmArgs = variant.install === "ci" ? ["ci"] : ["install", "--no-save"]
  const installName = `npm ${npmArgs.join(" ")}`
  if (installed) timings.push(`${installName} skipped (nothing changed)`)
  else {
    rmSync(join(dir, "node_modules"), { recursive: true, force: true })
    time(installName, () => run(`${installName} (${variant.label})`, npmCli, [...npmArgs, "--no-audit", "--no-fund"], dir))
    writeFileSync(stampFile, fingerprint)
  }
  if (variant.copySources) {
    rmSync(join(dir, "src"), { recursive: true, force: true })
    cpSync(join(exampleDir, "src"), join(dir, "src"), { recursive: true })
  }
  time("tsc", () => run(`tsc (${variant.label})`, process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], dir))
  rmSync(join(dir, ".output"), { recursive: true, force: true })
  time("build", () => run(`build (${variant.label})`, process.execPath, variant.build, dir, { NODE_ENV: "production" }))
  if (!statSync(join(dir, ".output", "server", "index.mjs")).isFile()) throw new Error(`${variant.label}: the build made no server`)
  const line = `[${variant.label}] ${timings.join(", ")}`
  console.log(line)
  return line
}

/** A port that was free a moment ago on 127.0.0.1 (the dev IdP needs the app's URL before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface RunningApp {
  readonly origin: string
  /** What the server wrote, for failure messages. */
  output(): string
  stop(): Promise<void>
}

/** Starts the built server with `env` on 127.0.0.1:`port`; resolves once it answers. */
export async function startApp(variant: Variant, port: number, env: Record<string, string>): Promise<RunningApp> {
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, [join(variant.dir, ".output", "server", "index.mjs")], {
    cwd: variant.dir,
    env: cleanEnv({ NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const origin = `http://127.0.0.1:${port}`
  const app: RunningApp = {
    origin,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      }),
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${variant.label}: the server exited with ${child.exitCode}:\n${output}`)
    try {
      const response = await fetch(`${origin}/api/auth/session`, { signal: AbortSignal.timeout(2_000) })
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await app.stop()
      throw new Error(`${variant.label}: the server did not answer within 30 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  console.log(`[${variant.label}] server ready in ${seconds(performance.now() - started)} at ${origin}`)
  return app
}
