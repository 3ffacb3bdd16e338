/**
 * The README's start command on a fresh copy of the repository: `npm start` installs (through the
 * shared npm cache), builds and starts the demo; Chromium then signs in with every method and
 * calls the demo's API with an API token. Ctrl-C must stop every process it started, and a second
 * start must not build the app again.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { freePort, launchBrowser } from "@sesame/testing"
import { accountFlow, throttleFlow } from "./account-flows.js"
import { adminFlow } from "./admin-flows.js"
import { apiKeyFlow } from "./api-key-flows.js"
import { apiTokenFlow } from "./api-token-flows.js"
import { demoAccountFlow, emailFlow, idpFlow, outageFlow, passkeyFlow, revokeFlow } from "./flows.js"
import { copyRepository, listening, npmStart, processesIn, type StartedDemo } from "./launcher.js"
import { oauthProviderFlow } from "./oauth-flows.js"
import { organizationFlow } from "./organization-flows.js"
import { passwordAccountFlow } from "./password-flows.js"
import { ssoFlow } from "./sso-flows.js"
import { emailCodeFlow, twoFactorFlow } from "./two-factor-flows.js"

const dir = mkdtempSync(join(tmpdir(), "sesame-fresh-"))
let port: number
let demo: StartedDemo | undefined
let browser: Browser | undefined

/** Ctrl-C, then nothing the start command started may be left: no listener, no process. */
async function interruptAndCheck(started: StartedDemo): Promise<void> {
  const { banner } = started
  const ports = [port, Number(new URL(banner.idpIssuer).port), banner.smtpPort, Number(new URL(banner.ssoIssuer).port), banner.dnsPort]
  for (const open of ports) expect(await listening(open), `port ${open}`).toBe(true)
  await started.interrupt()
  for (const closed of ports) expect(await listening(closed), `port ${closed}`).toBe(false)
  await expect.poll(() => processesIn(dir)).toEqual([])
}

beforeAll(async () => {
  copyRepository(dir)
  port = await freePort()
  // A fresh copy installs (better-sqlite3 compiles) and builds the app: minutes on two cores, more
  // beside the rest of the suite (npm ci alone took 6 minutes there). The packages come from the
  // build cache that the suite's own build filled, as for any second checkout of this user
  // (scripts/build.mjs); `npm test` on a fresh clone runs the full build.
  const started = performance.now()
  demo = await npmStart(dir, port, 18 * 60_000)
  console.log(`[demo] first npm start: ready after ${((performance.now() - started) / 1000).toFixed(0)} s`)
  browser = await launchBrowser()
}, 19 * 60_000)

// Removing the fresh copy (its node_modules: some 40,000 files) took more than a minute beside the
// rest of the suite in CI, past Vitest's default hook limit.
afterAll(async () => {
  await browser?.close()
  if (demo && demo.child.exitCode === null) await demo.interrupt()
  const started = performance.now()
  await rm(dir, { recursive: true, force: true })
  console.log(`[demo] the fresh copy removed in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}, 10 * 60_000)

describe("npm start on a fresh clone", () => {
  it("sets the demo up: a secret in .env.local, progress and the accounts printed", () => {
    expect(readFileSync(join(dir, "examples", "demo", ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{44}$/m)
    const output = demo!.output()
    expect(output).toContain("Installing dependencies")
    expect(output).toContain("Building the app (next build")
    expect(output).toContain("Demo account: demo@example.com / sesame-demo")
    expect(output).toContain('Password accounts: "No account yet? Create one" on the sign-in page')
    expect(output).toContain(`every message goes to http://localhost:${port}/dev/mailbox`)
  })

  it("signs in with the demo account's password, and picks a language on the home page (a user field)", async () => {
    await demoAccountFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("signs in with the local OpenID provider", async () => {
    await idpFlow(browser!, demo!.banner.origin, demo!.banner.idpIssuer)
  }, 120_000)

  it("signs in with an emailed link read on the mailbox page, then sets a first password and signs in with it", async () => {
    await emailFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("signs up and in with a passkey", async () => {
    await passkeyFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("revokes another session and its own, signing each browser out", async () => {
    await revokeFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("signs up with a password, confirms the address by email, changes the password and resets a forgotten one", async () => {
    await passwordAccountFlow(browser!, demo!.banner.origin)
  }, 240_000)

  it("links the IdP to the password user, unlinks it and deletes the user", async () => {
    await accountFlow(browser!, demo!.banner.origin, demo!.banner.idpIssuer)
  }, 120_000)

  it("throttles password guessing, answering a refused attempt like a wrong password plus Retry-After", async () => {
    await throttleFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("turns on an authenticator app from the home page, then signs in with a code, a recovery code, and once more on the remembered device", async () => {
    await twoFactorFlow(browser!, demo!.banner.origin)
  }, 240_000)

  it("signs in with the code of an emailed sign-in, typed on the check-your-email page", async () => {
    await emailCodeFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("calls the demo's API with an API token from the home page, and the API refuses no token, a tampered one and a forged issuer", async () => {
    await apiTokenFlow(browser!, demo!.banner.origin, join(dir, "examples", "demo", ".data", "sesame.db"))
  }, 120_000)

  it("makes an API key on the account page, calls the notes API with it until its rate limit, revokes it, and makes an organization's key on its page", async () => {
    await apiKeyFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("creates an organization, invites by email, and the invited admin sees the reports while a member is refused", async () => {
    await organizationFlow(browser!, demo!.banner.origin)
  }, 180_000)

  // After the others: once a connection exists, the sign-in page has its single sign-on form too.
  it("proves an organization's domain through DNS, connects its identity provider, and its person signs in through it and joins", async () => {
    await ssoFlow(browser!, demo!.banner.origin)
  }, 180_000)

  it("signs in to Partner notes through the demo's authorization server, removes it from the apps allowed, and connects a TV with the device flow", async () => {
    await oauthProviderFlow(browser!, demo!.banner.origin)
  }, 120_000)

  // After the identity provider's sign-in: Grace exists.
  it("shows the security log and the account page, and as the demo's admin finds Grace, sees the app as her and back, suspends and restores her, and creates a user who sets a password from the mailbox", async () => {
    await adminFlow(browser!, demo!.banner.origin, demo!.banner.idpIssuer)
  }, 120_000)

  it("takes the database away from the home page: the protected page says try again, then is signed in again", async () => {
    await outageFlow(browser!, demo!.banner.origin)
  }, 120_000)

  it("stops every process on Ctrl-C, and starts again without building", async () => {
    await interruptAndCheck(demo!)
    const secret = readFileSync(join(dir, "examples", "demo", ".env.local"), "utf8")
    const started = performance.now()
    demo = await npmStart(dir, port, 5 * 60_000)
    console.log(`[demo] second npm start: ready after ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const output = demo.output()
    expect(output).toContain("The app is built already")
    expect(output).not.toContain("Installing dependencies")
    expect(output).not.toContain("Building the app")
    // The same secret: sessions survive a restart.
    expect(readFileSync(join(dir, "examples", "demo", ".env.local"), "utf8")).toBe(secret)
    await interruptAndCheck(demo)
  }, 6 * 60_000)
})
