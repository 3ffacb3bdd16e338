/**
 * The example as its README runs it: `npm start` (the provider app, the Notes app and the Notes MCP
 * server, each a process) on free ports, driven in Chromium as its user would:
 *
 * 1. the Notes app's "Sign in with Company": the provider's sign-in page, its consent page, back at
 *    Notes signed in with the provider's account;
 * 2. `npm run cli`, a child process: its code entered on the provider's device page, confirmed and
 *    allowed in the browser; the CLI then has the user's tokens and says who signed in;
 * 3. the MCP server: `401` naming its metadata without a token, the metadata naming the provider;
 *    `npm run agent` (the MCP SDK's client, a child process) prints the provider's authorization
 *    URL, which the browser opens and allows; the agent gets its code on its loopback address,
 *    a token for the MCP server, and the user's notes from the tool `list-notes`;
 * 4. sign-out from Notes;
 * 5. Ctrl-C (SIGINT to the process group, as a terminal sends it) stops every process, and no
 *    process of the example is left (the check of examples/demo/test/start.test.ts).
 *
 * Needs the packages built (`npm test` builds first): the example runs on their dist/, as a user's
 * app does. Screenshots under test-artifacts/screenshots/oauth-provider-example/.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { freePort, launchBrowser, saveScreenshot } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const exampleDir = join(import.meta.dirname, "..")
const suite = "oauth-provider-example"
const demo = { id: "demo-user", email: "demo@example.com", name: "Demo User", password: "sesame-demo" }

interface Run {
  child: ChildProcess
  /** Everything the command printed so far (stdout and stderr). */
  output(): string
  /** Resolves with the first match of `pattern` in the output; rejects when the command exits first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>
  /** Resolves once the command has exited: its exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals>
}

let dataDir: string
let env: NodeJS.ProcessEnv
const runs: Run[] = []

/** `npm <args>` in the example's folder, as a shell's foreground job: a process group of its own. */
function npm(args: string[]): Run {
  const child = spawn("npm", args, { cwd: exampleDir, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal!)))
  const run: Run = {
    child,
    output: () => output,
    async waitFor(pattern, ms = 30_000) {
      const deadline = Date.now() + ms
      for (;;) {
        const match = pattern.exec(output)
        if (match) return match
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm ${args.join(" ")} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${output}`)
        if (Date.now() > deadline) throw new Error(`npm ${args.join(" ")} printed no ${pattern} within ${ms / 1000} s:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    exited,
  }
  runs.push(run)
  return run
}

/** How `run` ended, which must come within `ms`. */
async function exitOf(run: Run, ms: number): Promise<number | NodeJS.Signals> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms / 1000} s:\n${run.output()}`)), ms)))
  try {
    return await Promise.race([run.exited, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Whether a process of the group `pgid` is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** The processes whose working directory is the example's folder or inside it (read from /proc). */
function processesInExample(): string[] {
  const found: string[] = []
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`)
      if (cwd === exampleDir || cwd.startsWith(`${exampleDir}/`)) found.push(pid)
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })
}

let ports: { provider: number; notes: number; mcp: number }
let provider: string
let issuer: string
let notes: string
let mcpUrl: string
let start: Run
let browser: Browser
/** One browser, as one user has: signed in at the provider in step 1, for the CLI's and the agent's steps. */
let context: BrowserContext
let page: Page

const shot = (name: string) => saveScreenshot(page, suite, name)
const status = () => page.getByTestId("status").textContent()

beforeAll(async () => {
  ports = { provider: await freePort(), notes: await freePort(), mcp: await freePort() }
  provider = `http://127.0.0.1:${ports.provider}`
  issuer = `${provider}/auth/oauth`
  notes = `http://localhost:${ports.notes}`
  mcpUrl = `http://127.0.0.1:${ports.mcp}/mcp`
  dataDir = mkdtempSync(join(tmpdir(), "sesame-oauth-example-"))
  // A new user's shell: none of the test runner's variables (NODE_ENV=test, npm_*).
  env = { NO_COLOR: "1", PROVIDER_PORT: String(ports.provider), CLIENT_APP_PORT: String(ports.notes), MCP_PORT: String(ports.mcp), DATABASE_FILE: join(dataDir, "provider.db"), AUTH_SECRET: "oauth-example-e2e-secret-0123456789-abcdefghijk" }
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "USER", "npm_config_cache"]) if (process.env[name]) env[name] = process.env[name]
  start = npm(["start"])
  ;[browser] = await Promise.all([launchBrowser(), start.waitFor(/^Ready\. Open http:\/\/localhost:\d+/m, 45_000)])
  context = await browser.newContext({ locale: "en-US" })
  page = await context.newPage()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  // Whatever a failed test left running, by its process group.
  for (const run of runs) if (run.child.pid && groupAlive(run.child.pid)) process.kill(-run.child.pid, "SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe("examples/oauth-provider", () => {
  it("prints where each part runs", () => {
    const output = start.output()
    expect(output).toContain(`Ready. Open ${notes} and sign in with Company: demo@example.com / sesame-demo.`)
    expect(output).toContain(`[provider] Company accounts (the provider): ${provider}, issuer ${issuer}`)
    expect(output).toContain(`[notes] Notes (the app that signs in through the provider): ${notes}`)
    expect(output).toContain(`[mcp] Notes MCP server: ${mcpUrl}, trusting ${issuer}`)
  })

  it("Notes signs its user in through the provider: the provider's sign-in, its consent, back at Notes signed in", async () => {
    await page.goto(notes)
    expect(await status()).toBe("Not signed in.")
    await shot("1-notes-signed-out")

    await Promise.all([page.waitForURL((url) => url.origin === provider && url.pathname === "/auth/signin"), page.getByRole("button", { name: "Sign in with Company" }).click()])
    await shot("2-provider-sign-in")
    await page.getByLabel("Email").fill(demo.email)
    await page.getByLabel("Password").fill(demo.password)
    await Promise.all([page.waitForURL((url) => url.origin === provider && url.pathname === "/auth/oauth/interaction"), page.getByRole("button", { name: "Sign in with email and password" }).click()])

    expect(await page.title()).toBe("Allow Notes?")
    expect(await page.locator("p.lead").innerText()).toBe(`Notes asks to use your account ${demo.email}. If you allow it, it can:`)
    expect(await page.locator("ul li").allInnerTexts()).toEqual(["Know who you are on this site", "See your name and picture", "See your email address"])
    await shot("3-provider-consent")

    await Promise.all([page.waitForURL((url) => url.origin === notes && url.pathname === "/"), page.getByRole("button", { name: "Allow" }).click()])
    expect(await status()).toBe(`Signed in as ${demo.name} (${demo.email}), through Company.`)
    await shot("4-notes-signed-in")

    // The provider's own home page knows the user too (its session, on 127.0.0.1).
    await page.goto(provider)
    expect(await status()).toBe(`Signed in as ${demo.name} (${demo.email}).`)
  }, 60_000)

  it("npm run cli: the device flow, its code entered and allowed in the browser; the CLI says who signed in", async () => {
    const cli = npm(["run", "cli"])
    const [, verificationUri, userCode] = await cli.waitFor(/To sign in, open (http:\S+) and enter the code ([A-Z]{4}-[A-Z]{4})/)
    expect(verificationUri).toBe(`${issuer}/device`)

    await page.goto(verificationUri!)
    expect(new URL(page.url()).pathname).toBe("/auth/oauth/user-code")
    expect(await page.title()).toBe("Connect a device")
    await page.locator('input[name="user_code"]').fill(userCode!)
    await Promise.all([page.waitForURL((url) => url.searchParams.has("user_code")), page.locator('input[name="user_code"]').press("Enter")])
    expect(await page.locator("p.code").innerText()).toBe(userCode)
    await shot("5-device-confirm")
    await Promise.all([page.waitForURL((url) => url.pathname === "/auth/oauth/interaction"), page.getByRole("button", { name: "Yes, connect it" }).click()])
    expect(await page.title()).toBe("Allow Notes CLI?")
    await Promise.all([page.waitForURL((url) => url.searchParams.has("done")), page.getByRole("button", { name: "Allow" }).click()])
    expect(await page.locator(".notice[role=status]").innerText()).toBe("Your device is connected. You can close this window and go back to it.")
    await shot("6-device-done")

    // The CLI polls every 5 seconds (the provider names no interval).
    expect(await exitOf(cli, 20_000), cli.output()).toBe(0)
    expect(cli.output()).toContain(`Signed in as ${demo.name} <${demo.email}> (subject ${demo.id})`)
    expect(cli.output()).toContain("Got a refresh token: the tool stays signed in.")
  }, 60_000)

  it("the MCP server: 401 and its metadata without a token; npm run agent signs in through the browser and lists the user's notes", async () => {
    const metadataUrl = `http://127.0.0.1:${ports.mcp}/.well-known/oauth-protected-resource/mcp`
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } }
    const refused = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(initialize) })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`)
    expect(await (await fetch(metadataUrl)).json()).toEqual({ resource: mcpUrl, authorization_servers: [issuer], bearer_methods_supported: ["header"], scopes_supported: ["notes:read"], resource_name: "Notes" })

    const agent = npm(["run", "agent"])
    const [authorizationUrl] = await agent.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/auth\/oauth\/auth\?\S+$/m)
    const asked = new URL(authorizationUrl)
    expect(`${asked.origin}${asked.pathname}`).toBe(`${issuer}/auth`)
    expect(asked.searchParams.get("client_id")).toBe("notes-agent")
    expect(asked.searchParams.get("resource")).toBe(mcpUrl)
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256")
    const redirect = new URL(asked.searchParams.get("redirect_uri")!)
    expect(redirect.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    await page.goto(authorizationUrl)
    expect(await page.title()).toBe("Allow Notes agent?")
    expect(await page.locator("ul li").allInnerTexts()).toContain(`Use ${mcpUrl} for you: notes:read`)
    await shot("7-agent-consent")
    await Promise.all([page.waitForURL((url) => url.origin === redirect.origin && url.pathname === "/callback"), page.getByRole("button", { name: "Allow" }).click()])
    expect(await page.locator("main p").innerText()).toBe("The agent is allowed. You can close this window and go back to it.")
    await shot("8-agent-allowed")

    expect(await exitOf(agent, 20_000), agent.output()).toBe(0)
    expect(agent.output()).toContain("Your notes, from the Notes MCP server:\nGroceries: Oat milk, lemons, coffee.\nIdeas: An example that signs in an MCP client.")
  }, 60_000)

  it("signs out of Notes", async () => {
    await page.goto(notes)
    await Promise.all([page.waitForURL((url) => url.origin === notes && url.pathname === "/"), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await status()).toBe("Not signed in.")
    await context.close()
  }, 30_000)

  it("Ctrl-C stops all three parts: no process of the example is left, no port is open", async () => {
    const pgid = start.child.pid!
    process.kill(-pgid, "SIGINT")
    // npm ends by the signal it was sent, once its script has exited.
    expect(await exitOf(start, 15_000)).toBe("SIGINT")
    await expect.poll(() => groupAlive(pgid), { timeout: 10_000 }).toBe(false)
    await expect.poll(() => processesInExample(), { timeout: 10_000 }).toEqual([])
    for (const port of Object.values(ports)) expect(await listening(port), `port ${port}`).toBe(false)
  }, 40_000)
})
