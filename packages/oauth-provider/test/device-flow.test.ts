/**
 * The device authorization grant (RFC 8628), end to end over HTTP: a real command-line tool
 * (`fixtures/device-cli.mjs`, openid-client, a child process) starts it and polls, while the user's
 * browser opens the verification URI, lands on the module's page (`<issuer>/user-code`), types the
 * code, confirms it, consents, and ends on the done page; the tool then has the user's tokens.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Browser, startWorld, type World } from "./world.js"

const cliPath = fileURLToPath(new URL("./fixtures/device-cli.mjs", import.meta.url))
/** Where `Browser.follow` stops: nowhere, every step of the device flow ends on a page. */
const nowhere = "about:never"
/** oidc-provider's `base-20` charset with the `****-****` mask. */
const userCodeShape = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world?.close())

interface DeviceStart {
  verification_uri: string
  verification_uri_complete: string | null
  user_code: string
  expires_in: number
  interval: number | null
}

interface CliRun {
  child: ChildProcess
  /** The first line: what the user is told to open and type. */
  started: Promise<DeviceStart>
  /** The exit code and every line printed. */
  exited: Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }>
}

const running = new Set<ChildProcess>()
afterEach(() => {
  // Only the CLIs this file started, by their handle.
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill()
  running.clear()
})

/**
 * Runs the CLI against the world's issuer. `fast` polls every second instead of the 5 s the
 * library waits when the server names no interval (oidc-provider names none).
 */
function runCli(options: { fast?: boolean } = {}): CliRun {
  const args = [cliPath, world.issuer, "--timeout", "25", ...(options.fast ? ["--interval", "1"] : [])]
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
  running.add(child)
  const lines: Record<string, unknown>[] = []
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  let first: (line: DeviceStart) => void
  let noFirst: (error: Error) => void
  const started = new Promise<DeviceStart>((resolve, reject) => ((first = resolve), (noFirst = reject)))
  createInterface({ input: child.stdout! }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>
    lines.push(line)
    if (lines.length === 1) {
      if ("user_code" in line) first(line as unknown as DeviceStart)
      else noFirst(new Error(`the CLI did not start: ${text}\n${stderr}`))
    }
  })
  const exited = new Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }>((resolve) => {
    child.on("close", (code) => {
      noFirst(new Error(`the CLI exited (${code}) before its first line:\n${stderr}`))
      resolve({ code, lines, stderr })
    })
  })
  return { child, started: within(started, 10_000, "the CLI's first line"), exited: within(exited, 25_000, "the CLI's exit") }
}

/** `promise`, or an error naming `what` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** The form of `html` that has a field named `field`: its action, and its fields (hidden and text). */
function formWith(html: string, field: string): { action: string; fields: Record<string, string>; input: string } {
  const form = [...html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].find((m) => m[2]!.includes(`name="${field}"`))
  if (!form) throw new Error(`no form with "${field}" on the page:\n${html}`)
  const action = /action="([^"]*)"/.exec(form[1]!)![1]!.replaceAll("&amp;", "&")
  const inputs = [...form[2]!.matchAll(/<input\b[^>]*>/g)].map((m) => m[0])
  const fields = Object.fromEntries(
    inputs.map((input) => [/name="([^"]*)"/.exec(input)?.[1] ?? "", /value="([^"]*)"/.exec(input)?.[1]?.replaceAll("&amp;", "&") ?? ""]).filter(([name]) => name !== ""),
  )
  return { action, fields, input: inputs.find((input) => input.includes(`name="${field}"`))! }
}

/** Opens `url` in `browser` and expects the module's code page (the field empty unless `filled`). */
async function codePage(browser: Browser, url: string) {
  const page = await browser.follow(url, nowhere)
  expect(page.status, page.html).toBe(200)
  expect(new URL(page.url).pathname).toBe(new URL(`${world.issuer}/user-code`).pathname)
  expect(new URL(page.url).searchParams.get("xsrf")).toBeTruthy()
  expect(page.html).toContain("Enter the code your device shows.")
  return { ...page, html: page.html!, form: formWith(page.html!, "user_code") }
}

/** Types `typed` in the code page's form and submits it; the page that comes. */
async function submitCode(browser: Browser, page: Awaited<ReturnType<typeof codePage>>, typed: string) {
  expect(page.form.action).toBe(`${world.issuer}/device`)
  return browser.follow(page.form.action, nowhere, { form: { ...page.form.fields, user_code: typed } })
}

/** Expects the confirm page for `userCode` of the CLI; its two forms. */
function confirmPage(page: { url: string; status: number; html?: string }, userCode: string) {
  expect(page.status, page.html).toBe(200)
  expect(new URL(page.url).pathname).toBe(new URL(`${world.issuer}/user-code`).pathname)
  expect(new URL(page.url).searchParams.get("user_code")).toBe(userCode)
  expect(page.html).toContain("Sesame CLI asks to connect to your account.")
  expect(page.html).toContain(`<strong>${userCode}</strong>`)
  const confirm = formWith(page.html!, "confirm")
  const abort = formWith(page.html!, "abort")
  for (const form of [confirm, abort]) {
    expect(form.action).toBe(`${world.issuer}/device`)
    expect(form.fields).toMatchObject({ user_code: userCode, xsrf: expect.any(String) })
  }
  expect(confirm.fields.confirm).toBe("yes")
  expect(abort.fields.abort).toBe("yes")
  return { confirm, abort }
}

/** From the consent page on: Allow, then the done page. */
async function allowAndFinish(browser: Browser, page: { url: string; status: number; html?: string }) {
  expect(page.status, page.html).toBe(200)
  expect(page.html).toContain("Allow Sesame CLI?")
  const done = await browser.decide(page.html!, "allow", nowhere)
  expect(done.status, done.html).toBe(200)
  expect(done.url).toBe(`${world.issuer}/user-code?done=1`)
  expect(done.html).toContain("Your device is connected")
}

describe("the device flow: a CLI polls while the user's browser enters the code", () => {
  it("connects the CLI: code typed in lower case with its dash, confirmed, allowed; the CLI has the user's tokens", async () => {
    const dev = await world.user("dev@example.com")
    // The server's interval (none: the library's 5 s): the CLI as it runs for real.
    const cli = runCli()
    const start = await cli.started
    expect(start.user_code).toMatch(userCodeShape)
    expect(start.verification_uri).toBe(`${world.issuer}/device`)
    expect(start.verification_uri_complete).toBe(`${world.issuer}/device?user_code=${encodeURIComponent(start.user_code)}`)
    expect(start.expires_in).toBeGreaterThan(0)

    const page = await codePage(dev, start.verification_uri)
    expect(page.form.input).toContain('value=""')
    expect(page.form.input).not.toContain("aria-invalid")
    const confirm = confirmPage(await submitCode(dev, page, start.user_code.toLowerCase()), start.user_code)
    const consent = await dev.follow(confirm.confirm.action, nowhere, { form: confirm.confirm.fields })
    await allowAndFinish(dev, consent)

    const { code, lines, stderr } = await cli.exited
    expect(code, JSON.stringify(lines) + stderr).toBe(0)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toEqual({ sub: dev.id, email: "dev@example.com", refresh_token: true })
  })

  it("accepts the code without its dash, in upper or lower case", async () => {
    const dev = await world.user("dev-typing@example.com")
    const cli = runCli({ fast: true })
    const start = await cli.started
    const page = await codePage(dev, start.verification_uri)
    confirmPage(await submitCode(dev, page, start.user_code.replace("-", "").toLowerCase()), start.user_code)
    const again = await codePage(dev, start.verification_uri)
    confirmPage(await submitCode(dev, again, ` ${start.user_code.replace("-", " ")} `), start.user_code)
  })

  it("fills the code field in from verification_uri_complete", async () => {
    const dev = await world.user("dev-complete@example.com")
    const cli = runCli({ fast: true })
    const start = await cli.started
    const page = await codePage(dev, start.verification_uri_complete!)
    expect(page.form.input).toContain(`value="${start.user_code}"`)
    confirmPage(await submitCode(dev, page, page.form.fields.user_code!), start.user_code)
  })

  it("shows the page again for a wrong code: the error said, the field marked invalid and kept", async () => {
    const dev = await world.user("dev-wrong@example.com")
    const page = await codePage(dev, `${world.issuer}/device`)
    const again = await submitCode(dev, page, "BBBB-BBBB")
    expect(again.status, again.html).toBe(200)
    expect(new URL(again.url).pathname).toBe(new URL(`${world.issuer}/user-code`).pathname)
    expect(again.html).toContain("This code is not valid or has expired")
    const form = formWith(again.html!, "user_code")
    expect(form.input).toContain('aria-invalid="true"')
    expect(form.input).toContain('aria-describedby="user-code-error"')
    expect(again.html).toContain('id="user-code-error"')
    expect(form.fields.user_code).toBe("BBBB-BBBB")
    // And the form still works: a fresh xsrf from oidc-provider.
    expect(form.fields.xsrf).toBeTruthy()
  })

  it("Cancel on the confirm page ends the CLI with access_denied", async () => {
    const dev = await world.user("dev-cancel@example.com")
    const cli = runCli({ fast: true })
    const start = await cli.started
    const page = await codePage(dev, start.verification_uri)
    const { abort } = confirmPage(await submitCode(dev, page, start.user_code), start.user_code)
    const after = await dev.follow(abort.action, nowhere, { form: abort.fields })
    expect(after.status, after.html).toBe(200)
    expect(after.url).not.toContain("done=1")
    expect(after.html).not.toContain("Your device is connected")

    const { code, lines } = await cli.exited
    expect(code).toBe(1)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatchObject({ error: "access_denied" })
  })

  it("sends a browser that is not signed in to the sign-in page, and back to finish", async () => {
    const stored = await world.adapter.createUser!({ id: crypto.randomUUID(), email: "dev-away@example.com", name: "dev-away", emailVerified: new Date() })
    const browser = new Browser({ origin: world.origin, config: world.config }, "dev-away@example.com")
    const cli = runCli({ fast: true })
    const start = await cli.started
    const page = await codePage(browser, start.verification_uri)
    const { confirm } = confirmPage(await submitCode(browser, page, start.user_code.replace("-", "")), start.user_code)

    const signInPage = await browser.follow(confirm.action, nowhere, { form: confirm.fields })
    expect(signInPage.status, signInPage.html).toBe(200)
    const at = new URL(signInPage.url)
    expect(at.pathname).toBe("/auth/signin")
    const callbackUrl = at.searchParams.get("callbackUrl")!
    expect(callbackUrl.startsWith(`${world.issuer}/interaction?uid=`)).toBe(true)

    // The credentials form of the sign-in page, with the page's callbackUrl.
    const csrfToken = await browser.csrf()
    const consent = await browser.follow(`${world.origin}/auth/callback/credentials`, nowhere, { form: { csrfToken, email: "dev-away@example.com", callbackUrl } })
    await allowAndFinish(browser, consent)

    const { code, lines, stderr } = await cli.exited
    expect(code, JSON.stringify(lines) + stderr).toBe(0)
    expect(lines[1]).toEqual({ sub: stored.id, email: "dev-away@example.com", refresh_token: true })
  })
})
