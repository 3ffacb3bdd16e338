/**
 * What the end-to-end tests of the Next.js example share: a free port, the dev IdP registered for
 * the app's callback, `next build` and `next start` on 127.0.0.1, and the browser flows that both
 * Next.js versions must pass.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { expect } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { freePort, saveScreenshot } from "@sesame/testing"

export { freePort }

export const appSecret = "next-e2e-secret-0123456789-abcdefghijklmnop"
export const demo = { email: "demo@example.com", password: "sesame-demo" }
export const idpAccount = { id: "grace", email: "grace@example.com", name: "Grace Hopper" }
const idpClient = { id: "sesame-next-example", secret: "next-example-client-secret-0123456789abcdef" }

/** The dev IdP, with a client whose redirect URI is the app's callback for provider `dev-idp`. */
export function startIdp(appOrigin: string): Promise<DevIdp> {
  return startDevIdp({
    clients: [{ client_id: idpClient.id, client_secret: idpClient.secret, redirect_uris: [`${appOrigin}/api/auth/callback/dev-idp`] }],
    accounts: [idpAccount],
  })
}

/** The app's environment: the secret, the IdP (issuer and client, as `auth.ts` reads them). */
export function appEnv(idp: DevIdp, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_IGNORE_INCORRECT_LOCKFILE: "1",
    AUTH_SECRET: appSecret,
    AUTH_DEV_IDP_ISSUER: idp.issuer,
    AUTH_DEV_IDP_ID: idpClient.id,
    AUTH_DEV_IDP_SECRET: idpClient.secret,
    ...extra,
  }
}

/** Runs a command to completion; throws with its output when it fails. Returns the seconds it took. */
export function runStep(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now()
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`)
  }
  return (performance.now() - started) / 1000
}

export interface RunningApp {
  readonly origin: string
  /** Everything the server printed so far. */
  output(): string
  stop(): Promise<void>
}

/**
 * `next start` on 127.0.0.1:`port`, through Next's own binary (not npx, whose wrapper would be
 * the process we stop). Resolves when the server answers. `origin` is where the browser goes.
 */
export async function startApp(nextBin: string, cwd: string, port: number, env: NodeJS.ProcessEnv, origin = `http://127.0.0.1:${port}`): Promise<RunningApp> {
  const child: ChildProcess = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`)
    try {
      await fetch(`http://127.0.0.1:${port}/api/auth/providers`)
      break
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`next start did not answer within a minute:\n${output}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return { origin, output: () => output, stop }
}

/** The app's path, with Next's root-relative redirects resolved. */
function pathOf(page: Page): string {
  const url = new URL(page.url())
  return url.pathname + url.search
}

async function signInWithPassword(page: Page, password = demo.password): Promise<void> {
  await page.getByLabel("Email").fill(demo.email)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in with email and password" }).click()
}

/**
 * The browser flows: the guard sends a signed-out visitor to the sign-in page and back, sign-in
 * with credentials and through the OIDC provider, `useSession`, `update` seen by a server
 * component, server-action sign-out, and a sign-out in one tab that signs out the other.
 */
export async function browserFlows(browser: Browser, app: RunningApp, label: string): Promise<void> {
  const shot = (page: Page, name: string) => saveScreenshot(page, "next", `${label}-${name}`)
  const newContext = (): Promise<BrowserContext> => browser.newContext({ baseURL: app.origin })

  // Signed out: the guard sends the visitor to the sign-in page, and back once signed in.
  const context = await newContext()
  const page = await context.newPage()
  await page.goto("/protected")
  await page.waitForURL((url) => url.pathname === "/signin")
  expect(pathOf(page)).toBe("/signin?callbackUrl=%2Fprotected")
  await shot(page, "1-guard-redirect")

  // A wrong password: the server action catches CredentialsSignin and says so.
  await signInWithPassword(page, "wrong password")
  await expect.poll(() => page.locator("p[role=alert]").textContent()).toContain("do not match")
  await signInWithPassword(page)
  await page.waitForURL((url) => url.pathname === "/protected")
  await expect.poll(() => page.getByTestId("protected-user").textContent()).toContain("Demo User")
  await shot(page, "2-protected-after-credentials")

  // useSession in a client component shows the user.
  await page.goto("/")
  await expect.poll(() => page.getByTestId("client-status").textContent()).toBe("authenticated")
  expect(await page.getByTestId("client-user").textContent()).toContain(demo.email)
  await shot(page, "3-use-session")

  // update() from the browser changes the session; a server component sees it on the next request.
  await page.getByLabel("New name").fill("Ada Renamed")
  await page.getByRole("button", { name: "Update the session" }).click()
  await expect.poll(() => page.getByTestId("client-user").textContent()).toContain("Ada Renamed")
  await page.goto("/protected")
  await expect.poll(() => page.getByTestId("protected-user").textContent()).toContain("Ada Renamed")

  // unstable_update from a server action.
  await page.getByLabel("Rename on the server").fill("Server Renamed")
  await page.getByRole("button", { name: "Rename" }).click()
  await expect.poll(() => page.getByTestId("protected-user").textContent()).toContain("Server Renamed")
  await shot(page, "4-renamed")

  // Signing out in one tab signs out the other (BroadcastChannel), without a reload there.
  const other = await context.newPage()
  await other.goto("/")
  await expect.poll(() => other.getByTestId("client-status").textContent()).toBe("authenticated")
  await page.goto("/")
  await expect.poll(() => page.getByTestId("client-status").textContent()).toBe("authenticated")
  await page.getByRole("button", { name: "Sign out (from the browser)" }).click()
  await expect.poll(() => other.getByTestId("client-status").textContent()).toBe("unauthenticated")
  await shot(other, "5-other-tab-signed-out")
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => page.getByTestId("server-user").textContent()).toContain("Not signed in")
  await context.close()

  // Through the OpenID provider, then sign-out with the server action.
  const oidc = await newContext()
  const tab = await oidc.newPage()
  await tab.goto("/protected")
  await tab.waitForURL((url) => url.pathname === "/signin")
  await tab.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
  await tab.waitForURL((url) => url.origin === app.origin && url.pathname === "/protected")
  await expect.poll(() => tab.getByTestId("protected-user").textContent()).toContain(idpAccount.name)
  expect(await tab.getByTestId("protected-user").textContent()).toContain(idpAccount.email)
  await shot(tab, "6-protected-after-oidc")
  await tab.getByRole("button", { name: "Sign out", exact: true }).click()
  await tab.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => tab.getByTestId("server-user").textContent()).toContain("Not signed in")
  await tab.goto("/protected")
  await tab.waitForURL((url) => url.pathname === "/signin")
  await oidc.close()
}

/** The session cookie of a fresh credentials sign-in, for requests made without the browser. */
export async function signedInCookie(browser: Browser, app: RunningApp): Promise<string> {
  const context = await browser.newContext({ baseURL: app.origin })
  const page = await context.newPage()
  await page.goto("/signin")
  await signInWithPassword(page)
  await page.waitForURL((url) => url.pathname === "/")
  const cookies = await context.cookies()
  await context.close()
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ")
}

export const repositoryRoot = join(import.meta.dirname, "..", "..", "..")
export const exampleDir = join(import.meta.dirname, "..")
