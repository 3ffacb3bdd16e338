/**
 * Passkeys in real Chromium, with a virtual authenticator from the DevTools protocol (CTAP2,
 * internal transport, resident keys, user verification): register from the built-in page, sign
 * out, sign in again with conditional UI (autofill) and with the button, then from a custom page
 * through the `@sesame/core/webauthn-client` module, and add a second passkey while signed in.
 *
 * WebAuthn needs a secure context and an RP ID that is a domain. Both `http://localhost` and
 * `http://127.0.0.1` are secure contexts, but an IP address is not a valid RP ID: on 127.0.0.1
 * Chromium refuses the ceremony ("This is an invalid domain"), which the last test shows. The
 * server listens on 127.0.0.1 and the browser uses it as `localhost`.
 */
import type { AuthConfig } from "@sesame/core"
import { Auth } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import Email from "@sesame/core/providers/email"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { rolldown } from "rolldown"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { aliceCredentials, secret } from "../helpers.js"

const suite = "passkeys"
const email = "ada@example.com"

let browser: Browser
let server: TestServer
/** The app as the browser sees it: `http://localhost:<port>`. */
let app: string
let adapter: MemoryAdapterInstance
let config: AuthConfig
/** The client module, bundled as an app's bundler would. */
let clientModule: string

const landing = (title: string) =>
  new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  })

/** An app's own sign-in page: conditional UI and a button, through the client module. */
const customPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Custom sign-in</title></head>
<body><main>
<h1>Welcome back</h1>
<form id="passkey">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username webauthn">
<button type="submit">Continue with a passkey</button>
</form>
<p id="result" role="status"></p>
</main>
<script type="module">
import { autofillSupported, signIn } from "/client.js"
const form = document.getElementById("passkey")
form.addEventListener("submit", async (event) => {
  event.preventDefault()
  const result = await signIn("passkey", { email: form.email.value || undefined, callbackUrl: "/private" })
  if (!result.ok) document.getElementById("result").textContent = result.error
})
if (await autofillSupported()) void signIn("passkey", { autofill: true, callbackUrl: "/private" })
</script>
</body></html>`

/** A signed-in page that adds a passkey when asked, reporting the result. */
const accountPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Account</title></head>
<body><main><h1>Account</h1><button id="add" type="button">Add a passkey</button><p id="result" role="status"></p></main>
<script type="module">
import { signIn } from "/client.js"
document.getElementById("add").addEventListener("click", async () => {
  const result = await signIn("passkey", { action: "register", redirect: false })
  document.getElementById("result").textContent = JSON.stringify(result)
})
</script>
</body></html>`

beforeAll(async () => {
  adapter = MemoryAdapter()
  config = {
    secret,
    trustHost: true,
    adapter,
    providers: [aliceCredentials(), Passkey()],
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {} },
  }
  const bundle = await rolldown({ input: join(import.meta.dirname, "..", "..", "src", "webauthn", "client.ts"), platform: "browser", logLevel: "warn" })
  clientModule = (await bundle.generate({ format: "esm" })).output[0].code
  await bundle.close()
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } })
  ;[browser, server] = await Promise.all([
    launchBrowser(),
    serve((request) => {
      const { pathname } = new URL(request.url)
      if (pathname.startsWith("/auth/")) return Auth(request, config)
      if (pathname === "/client.js") return new Response(clientModule, { headers: { "content-type": "text/javascript" } })
      if (pathname === "/custom") return html(customPage)
      if (pathname === "/account") return html(accountPage)
      if (pathname === "/private") return landing("Private area")
      return new Response("not found", { status: 404 })
    }),
  ])
  app = server.origin.replace("127.0.0.1", "localhost")
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

interface Tab {
  context: BrowserContext
  page: Page
  cdp: CDPSession
  authenticatorId: string
  /** `mediation` of every `navigator.credentials.get()`, and `create` for every `create()`. */
  ceremonies: string[]
  /** Every URL the page requested. */
  requests: string[]
}

async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return authenticatorId
}

async function openTab(): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } })
  const page = await context.newPage()
  const ceremonies: string[] = []
  const requests: string[] = []
  page.on("request", (request) => void requests.push(request.url()))
  await page.exposeFunction("__recordCeremony", (kind: string) => void ceremonies.push(kind))
  // Records which ceremonies the page runs, without changing them.
  await page.addInitScript(() => {
    const record = (window as unknown as { __recordCeremony: (kind: string) => void }).__recordCeremony
    const { get, create } = navigator.credentials
    navigator.credentials.get = function (options?: CredentialRequestOptions) {
      record(`get:${options?.mediation ?? "optional"}`)
      return get.call(this, options)
    }
    navigator.credentials.create = function (options?: CredentialCreationOptions) {
      record("create")
      return create.call(this, options)
    }
  })
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  return { context, page, cdp, authenticatorId: await addAuthenticator(cdp), ceremonies, requests }
}

async function sessionEmail(page: Page): Promise<string | null> {
  const session = (await (await page.request.get(`${app}/auth/session`)).json()) as { user?: { email?: string } } | null
  return session?.user?.email ?? null
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${app}/auth/signout`)
  await Promise.all([page.waitForURL(`${app}/`), page.getByRole("button", { name: "Sign out" }).click()])
  expect(await sessionEmail(page)).toBeNull()
}

async function virtualCredentials(tab: Tab, authenticatorId = tab.authenticatorId) {
  const { credentials } = await tab.cdp.send("WebAuthn.getCredentials", { authenticatorId })
  return credentials
}

describe("the built-in sign-in page", () => {
  let tab: Tab
  beforeAll(async () => {
    tab = await openTab()
  })
  afterAll(() => tab?.context.close())

  it("registers a passkey for a new email, then signs in with it by autofill (conditional UI) and with the button; the counter is stored", async () => {
    const { page } = tab
    const csp = await watchCsp(page)
    await page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)
    const field = page.getByRole("textbox", { name: "Email address" })
    await field.waitFor()
    expect(await field.getAttribute("autocomplete")).toBe("username webauthn")
    const axe = await runAxe(page)
    expect(describeViolations([...axe.byImpact.serious, ...axe.byImpact.critical])).toBe("")
    await saveScreenshot(page, suite, "signin-with-passkey")

    // 1. Register: a new email, the button.
    await field.fill(email)
    await Promise.all([page.waitForURL(`${app}/private`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(await page.locator("h1").innerText()).toBe("Private area")
    await saveScreenshot(page, suite, "registered")
    expect(await sessionEmail(page)).toBe(email)
    const [credential] = await virtualCredentials(tab)
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" })
    const stored = adapter.tables.authenticators.get(credential!.credentialId)!
    expect(stored).toMatchObject({ transports: "internal", credentialDeviceType: "singleDevice" })
    expect(stored.counter).toBe(credential!.signCount)
    expect(tab.ceremonies).toContain("create")

    // 2. Sign out; 3. sign in by autofill: the page's conditional request completes with the passkey.
    await signOut(page)
    tab.ceremonies.length = 0
    await Promise.all([page.waitForURL(`${app}/private`), page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)])
    expect(tab.ceremonies).toEqual(["get:conditional"])
    expect(await sessionEmail(page)).toBe(email)
    const afterAutofill = (await virtualCredentials(tab))[0]!.signCount
    expect(afterAutofill).toBeGreaterThan(credential!.signCount)
    expect(adapter.tables.authenticators.get(credential!.credentialId)!.counter).toBe(afterAutofill)

    // 4. Sign out; 5. sign in with the button, in a browser without autofill for passkeys.
    await signOut(page)
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false
    })
    tab.ceremonies.length = 0
    await page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)
    await Promise.all([page.waitForURL(`${app}/private`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(tab.ceremonies).toEqual(["get:optional"])
    expect(await sessionEmail(page)).toBe(email)
    const afterButton = (await virtualCredentials(tab))[0]!.signCount
    expect(afterButton).toBeGreaterThan(afterAutofill)
    expect(adapter.tables.authenticators.get(credential!.credentialId)!.counter).toBe(afterButton)

    expect(await csp.violations()).toEqual([])
    // Everything came from the app: no script or anything else from another host.
    expect(tab.requests.filter((url) => new URL(url).origin !== app)).toEqual([])
    expect(tab.requests.some((url) => url.startsWith(`${app}/auth/webauthn-script?v=`))).toBe(true)
  })

  it("shows the failure in the status line when the user cancels, and stays on the page without a session", async () => {
    const { page } = tab
    await signOut(page)
    // The authenticator now declines to verify the user, as when they cancel the prompt.
    await tab.cdp.send("WebAuthn.setUserVerified", { authenticatorId: tab.authenticatorId, isUserVerified: false })
    try {
      await page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)
      await page.getByRole("button", { name: "Sign in with Passkey" }).click()
      await expect.poll(() => page.getByRole("status").innerText()).toBe("The passkey request was cancelled or timed out. Try again.")
      await saveScreenshot(page, suite, "cancelled")
      expect(page.url()).toBe(`${app}/auth/signin?callbackUrl=%2Fprivate`)
      expect(await sessionEmail(page)).toBeNull()
    } finally {
      await tab.cdp.send("WebAuthn.setUserVerified", { authenticatorId: tab.authenticatorId, isUserVerified: true })
    }
  })
})

describe("a sign-in page that asks for the address once (password, email link and passkey)", () => {
  let tab: Tab
  let saved: AuthConfig
  beforeAll(async () => {
    saved = config
    config = { ...config, providers: [Password({ sendEmail: () => {} }), Email({ sendVerificationRequest: () => {} }), Passkey()] }
    tab = await openTab()
  })
  afterAll(async () => {
    config = saved
    await tab?.context.close()
  })

  it("shows one address field; the passkey button takes the address from it and registers a passkey for it", async () => {
    const { page } = tab
    const csp = await watchCsp(page)
    await page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)
    await page.getByRole("button", { name: "Sign in with Passkey" }).waitFor()
    const fields = page.getByRole("textbox", { name: "Email address" })
    expect(await fields.count()).toBe(1)
    expect(await fields.getAttribute("autocomplete")).toBe("username webauthn")
    expect(await page.getByRole("button", { name: "Sign in with Password" }).count()).toBe(1)
    expect(await page.getByRole("button", { name: "Sign in with Email" }).count()).toBe(1)
    const axe = await runAxe(page)
    expect(describeViolations([...axe.byImpact.serious, ...axe.byImpact.critical])).toBe("")
    await saveScreenshot(page, suite, "signin-address-once")

    await fields.fill("hopper@example.com")
    await Promise.all([page.waitForURL(`${app}/private`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(await sessionEmail(page)).toBe("hopper@example.com")
    expect(tab.ceremonies).toContain("create")
    expect(await csp.violations()).toEqual([])
  })
})

describe("a custom page with @sesame/core/webauthn-client", () => {
  it("signs in by autofill, adds a second passkey while signed in, and signs in with the button", async () => {
    const tab = await openTab()
    const { page } = tab
    try {
      // A passkey for grace, registered through the built-in page.
      await page.goto(`${app}/auth/signin?callbackUrl=%2Fprivate`)
      await page.getByRole("textbox", { name: "Email address" }).fill("grace@example.com")
      await Promise.all([page.waitForURL(`${app}/private`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
      await signOut(page)

      tab.ceremonies.length = 0
      await Promise.all([page.waitForURL(`${app}/private`), page.goto(`${app}/custom`)])
      expect(tab.ceremonies).toEqual(["get:conditional"])
      expect(await sessionEmail(page)).toBe("grace@example.com")

      // The same authenticator holds grace's passkey already: the browser refuses a second one there.
      await page.goto(`${app}/account`)
      await page.getByRole("button", { name: "Add a passkey" }).click()
      await expect.poll(() => page.getByRole("status").innerText()).toContain('"error":"InvalidStateError"')
      // On another authenticator (say, a phone), it is added to grace.
      await tab.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: tab.authenticatorId })
      const phone = await addAuthenticator(tab.cdp)
      await page.getByRole("button", { name: "Add a passkey" }).click()
      await expect.poll(() => page.getByRole("status").innerText()).toContain('"ok":true')
      const [added] = await virtualCredentials(tab, phone)
      const grace = [...adapter.tables.users.values()].find((u) => u.email === "grace@example.com")!
      expect(adapter.tables.authenticators.get(added!.credentialId)?.userId).toBe(grace.id)
      expect([...adapter.tables.authenticators.values()].filter((a) => a.userId === grace.id)).toHaveLength(2)

      await signOut(page)
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false
      })
      tab.ceremonies.length = 0
      await page.goto(`${app}/custom`)
      await saveScreenshot(page, suite, "custom-page")
      await Promise.all([page.waitForURL(`${app}/private`), page.getByRole("button", { name: "Continue with a passkey" }).click()])
      expect(tab.ceremonies).toEqual(["get:optional"])
      expect(await sessionEmail(page)).toBe("grace@example.com")
      expect(tab.requests.filter((url) => new URL(url).origin !== app)).toEqual([])
    } finally {
      await tab.context.close()
    }
  })
})

describe("on 127.0.0.1", () => {
  it("is a secure context, but an IP address is no RP ID: Chromium refuses the ceremony", async () => {
    const tab = await openTab()
    try {
      const { page } = tab
      await page.goto(`${server.origin}/auth/signin`)
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true)
      await page.getByRole("textbox", { name: "Email address" }).fill("ip@example.com")
      await page.getByRole("button", { name: "Sign in with Passkey" }).click()
      await expect.poll(() => page.getByRole("status").innerText()).toBe("The passkey request was cancelled or timed out. Try again.")
      const error = await page.evaluate(() =>
        navigator.credentials
          .create({
            publicKey: {
              challenge: new Uint8Array(32),
              rp: { id: "127.0.0.1", name: "x" },
              user: { id: new Uint8Array(16), name: "x", displayName: "x" },
              pubKeyCredParams: [{ type: "public-key", alg: -7 }],
            },
          })
          .then(
            () => "created",
            (e: Error) => `${e.name}: ${e.message}`,
          ),
      )
      expect(error).toBe("SecurityError: This is an invalid domain.")
      expect(await virtualCredentials(tab)).toEqual([])
    } finally {
      await tab.context.close()
    }
  })
})
