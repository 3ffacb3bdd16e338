/**
 * What the built-in logger prints is for a person reading a server's log:
 * - errors are named by their `type`, which a production build's minifier cannot rename (it
 *   renames classes: `A: No secret is set…`);
 * - a visitor's errors (a wrong password, a refused sign-in) are one warning line without a stack,
 *   while faults (the app's code threw) keep theirs; a custom `logger.error` still gets every
 *   `Error` object;
 * - each warning, and each problem found while resolving a configuration, is printed once per
 *   process, however many configuration objects and bundled copies of the core resolve it; a
 *   custom logger gets every call.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { format, promisify } from "node:util"
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin, AccessDenied } from "@sesame/core/errors"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { bundleCore, removeTemporaryFolders, temporaryFolder, writeScript } from "./bundles.js"
import { aliceCredentials, CookieJar, csrfToken, secret, send, signInAlice } from "./helpers.js"

const run = promisify(execFile)

let bundles: { minified: string; one: string; two: string }
let program: string

const programSource = `
const task = JSON.parse(process.argv[2])
const origin = "http://localhost:3000"
const printed = []
if (task.capture) for (const level of ["error", "warn"]) console[level] = (...args) => printed.push(level + " " + args.join(" "))
const custom = []
const provider = (core) => core.Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })
for (const path of task.bundles) {
  const core = await import(path)
  for (let i = 0; i < (task.configurations ?? 1); i++) {
    const providers = [provider(core), ...(task.unavailable ? [{ id: "my-idp", type: "oidc" }] : [])]
    const config = { providers }
    if (task.wrongPassword) {
      const csrf = await core.Auth(new Request(origin + "/auth/csrf"), config)
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
      const { csrfToken } = await csrf.json()
      const body = new URLSearchParams({ csrfToken, username: "alice", password: "wrong" }).toString()
      const headers = { cookie, origin, "content-type": "application/x-www-form-urlencoded" }
      await core.Auth(new Request(origin + "/auth/callback/credentials", { method: "POST", headers, body }), config)
    } else {
      await core.Auth(new Request(origin + "/auth/session"), config)
    }
    if (task.custom) {
      const logger = { warn: (code) => custom.push(code), error: (e) => custom.push(e.type) }
      await core.Auth(new Request(origin + "/auth/session"), { providers, logger })
    }
  }
}
process.stdout.write(JSON.stringify({ printed, custom }))
`

interface Task {
  bundles: string[]
  configurations?: number
  wrongPassword?: boolean
  unavailable?: boolean
  custom?: boolean
  /** Collect what the built-in logger prints into `printed` instead of stderr. */
  capture?: boolean
}

/** Runs the program in a process of its own (the once-per-process registry starts empty). */
async function runProgram(task: Task, env: Record<string, string | undefined>) {
  const base = { ...process.env }
  for (const name of ["AUTH_SECRET", "SESAME_SECRET", "NODE_ENV", "AUTH_URL", "SESAME_URL", "AUTH_TRUST_HOST", "AUTH_MY_IDP_ID", "AUTH_MY_IDP_SECRET", "AUTH_MY_IDP_ISSUER"]) {
    delete base[name]
  }
  const { stdout, stderr } = await run(process.execPath, [program, JSON.stringify(task)], { env: { ...base, ...env } })
  return { ...(JSON.parse(stdout) as { printed: string[]; custom: string[] }), stderr }
}

beforeAll(async () => {
  const folder = temporaryFolder("readable-logs")
  const [minified, one, two] = await Promise.all([
    bundleCore(join(folder, "core-minified.mjs"), { platform: "node", minify: true }),
    bundleCore(join(folder, "core-1.mjs"), { platform: "node" }),
    bundleCore(join(folder, "core-2.mjs"), { platform: "node" }),
  ])
  bundles = { minified, one, two }
  program = writeScript(folder, "program.mjs", programSource)
}, 60_000)
afterAll(removeTemporaryFolders)

describe("in a minified production build", () => {
  const production = { NODE_ENV: "production", AUTH_URL: "http://localhost:3000" }

  it("names the missing secret by its type, not by a class name the minifier renamed", async () => {
    const { stderr } = await runProgram({ bundles: [bundles.minified] }, production)
    const first = stderr.split("\n")[0]
    expect(first).toMatch(/^\[sesame\]\[error\] MissingSecret: No secret is set\. Set AUTH_SECRET/)
    expect(stderr).not.toMatch(/^\[sesame\]\[\w+\] [A-Za-z_$][\w$]{0,2}: /m)
  })

  it("says on the missing secret's line why production differs from development and what fails until it is set", async () => {
    // The configuration is read at the first request (no integration tells the core when the app
    // starts), so this line is the first word of it: it must say everything at once.
    const { stderr } = await runProgram({ bundles: [bundles.minified] }, production)
    const first = stderr.split("\n")[0]!
    expect(first).toContain("in the server's environment")
    expect(first).toContain("or pass it as the `secret` option")
    expect(first).toContain("NODE_ENV is production, where Sesame makes no development secret")
    expect(first).toContain("nobody can sign in and every request to Sesame's endpoints answers the Configuration error (500)")
  })

  it("prints a wrong password as one warning line, without a stack", async () => {
    const { stderr } = await runProgram({ bundles: [bundles.minified], wrongPassword: true }, { ...production, AUTH_SECRET: secret })
    expect(stderr).toBe("[sesame][warn] CredentialsSignin: authorize returned no user.\n")
  })
})

describe("the visitor's errors", () => {
  let printed: { level: string; text: string }[]
  beforeEach(() => {
    printed = []
    for (const level of ["error", "warn"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push({ level, text: format(...args) }))
    }
  })
  afterEach(() => vi.restoreAllMocks())

  it("a wrong password and a sign-in the signIn callback refuses are one warning line each; the built-in logger prints no error", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [aliceCredentials()] }
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "wrong" } })
    const refusing: AuthConfig = { ...config, callbacks: { signIn: () => false } }
    await signInAlice(refusing, new CookieJar())
    expect(printed).toEqual([
      { level: "warn", text: "[sesame][warn] CredentialsSignin: authorize returned no user." },
      { level: "warn", text: "[sesame][warn] AccessDenied: The signIn callback refused the sign-in." },
    ])
    // The legitimate sign-in prints nothing at all.
    printed.length = 0
    expect((await signInAlice(config, new CookieJar())).status).toBe(302)
    expect(printed).toEqual([])
  })

  it("a fault keeps its stack: the app's authorize or signIn callback threw", async () => {
    const broken = aliceCredentials({
      authorize: () => {
        throw new TypeError("users.find is not a function")
      },
    })
    const config: AuthConfig = { secret, trustHost: true, providers: [broken] }
    await signInAlice(config, new CookieJar())
    const throwing: AuthConfig = {
      secret,
      trustHost: true,
      providers: [aliceCredentials()],
      callbacks: {
        signIn: () => {
          throw new RangeError("the allow list is not loaded")
        },
      },
    }
    await signInAlice(throwing, new CookieJar())
    expect(printed.map((p) => p.level)).toEqual(["error", "error"])
    expect(printed[0]!.text).toMatch(/^\[sesame\]\[error\] CallbackRouteError: .*\n {4}at .*\n[\s\S]*caused by TypeError: users\.find is not a function/)
    expect(printed[1]!.text).toMatch(/^\[sesame\]\[error\] AccessDenied: the allow list is not loaded\n {4}at [\s\S]*caused by RangeError/)
  })

  it("a custom logger.error still gets each of them as the Error object", async () => {
    const errors: Error[] = []
    const config: AuthConfig = { secret, trustHost: true, providers: [aliceCredentials()], logger: { error: (e) => void errors.push(e) } }
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "wrong" } })
    await signInAlice({ ...config, callbacks: { signIn: () => false } }, new CookieJar())
    expect(errors[0]).toBeInstanceOf(CredentialsSignin)
    expect(errors[1]).toBeInstanceOf(AccessDenied)
    expect(errors[0]!.stack).toContain("at ")
    expect(printed).toEqual([])
  })
})

describe("warnings and configuration problems", () => {
  it("are printed once per process, across configuration objects and bundled copies of the core; a custom logger gets every call", async () => {
    const { printed, custom } = await runProgram(
      { bundles: [bundles.one, bundles.two], configurations: 3, unavailable: true, custom: true, capture: true },
      {},
    )
    expect(printed.filter((line) => line.startsWith("warn [sesame][warn] missing-secret-development: "))).toHaveLength(1)
    expect(printed.filter((line) => line.startsWith('error [sesame][error] InvalidProvider: Provider "my-idp" is unavailable'))).toHaveLength(1)
    expect(printed).toHaveLength(2)
    // The advice fits any framework: what to set and where Sesame reads it, and what `--write` does.
    const [warning] = printed.filter((line) => line.startsWith("warn [sesame][warn] missing-secret-development: "))
    expect(warning).toContain("set AUTH_SECRET in the server's environment: `npx @sesame/cli secret` prints a new one")
    expect(warning).toContain("`--write` puts it in .env.local instead: Next.js loads that file by itself; elsewhere make sure it reaches the server process's environment")
    expect(warning).toContain("`node --env-file=.env.local server.js` for Express or Hono")
    // Two bundles, three configurations each: the custom logger heard about both six times.
    expect(custom.filter((c) => c === "missing-secret-development")).toHaveLength(6)
    expect(custom.filter((c) => c === "InvalidProvider")).toHaveLength(6)
  })
})
