/**
 * What Chromium sends when a visitor posts a built-in page's form, recorded by the server: the
 * app's origin in `Origin` (which frameworks' own CSRF checks, SvelteKit's in production, require,
 * and which the core's origin check decides on), and in `Referer` nothing but that origin, even
 * from the pages whose URL holds a token (an email link's confirmation page, a reset link's form),
 * and even for the app's own pages. The pages' `Referrer-Policy: strict-origin` is what gives both;
 * under `no-referrer`, which the pages sent before, the same posts carried `Origin: null`.
 *
 * Beside each legitimate post, the refused one: a page on another site (`localhost` against the
 * app's `127.0.0.1`) that posts to the same endpoint gets a 403 from the core's origin check,
 * whether its browser names its origin or hides it (`Origin: null`, a no-referrer page).
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { launchBrowser, serve, watchCsp, type TestServer } from "@sesame/testing"
import { aliceCredentials, secret, users } from "../helpers.js"
import { recordingEmail } from "../email/helpers.js"
import { passwordLinks, passwordSetup, type PasswordSetup } from "./fixtures.js"

/** One request as the server saw it. */
interface Seen {
  method: string
  path: string
  origin: string | null
  referer: string | null
  site: string | null
  status?: number
}

let browser: Browser
let app: TestServer
let attacker: TestServer
/** The attacker's origin: another site than the app's (`localhost`, not `127.0.0.1`). */
let attackerOrigin: string
let seen: Seen[] = []
let context: BrowserContext

const email = recordingEmail()
const password: PasswordSetup = passwordSetup("/password")
const auth: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/auth",
  adapter: MemoryAdapter(),
  session: { strategy: "jwt" },
  providers: [aliceCredentials(), email.provider],
  logger: { error: () => {}, warn: () => {} },
}

const home = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><h1>Home</h1></body></html>`

/** The form another site's page posts to the app, submitted as soon as the page loads. */
function attackPage(target: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Win a prize</title></head><body><form id="f" method="POST" action="${target}">${inputs}</form><script>document.getElementById("f").submit()</script></body></html>`
}

beforeAll(async () => {
  browser = await launchBrowser()
  app = await serve(async (request) => {
    const url = new URL(request.url)
    const entry: Seen = {
      method: request.method,
      path: url.pathname,
      origin: request.headers.get("origin"),
      referer: request.headers.get("referer"),
      site: request.headers.get("sec-fetch-site"),
    }
    seen.push(entry)
    const config = url.pathname.startsWith("/password/") ? password.config : url.pathname.startsWith("/auth/") ? auth : undefined
    const response = config ? await Auth(request, config) : new Response(home, { headers: { "content-type": "text/html; charset=utf-8" } })
    entry.status = response.status
    return response
  })
  attacker = await serve((request) => {
    const url = new URL(request.url)
    const target = `${app.origin}/auth/signin/email`
    const html = attackPage(target, { email: "victim@example.com", callbackUrl: `${app.origin}/` })
    // `/hidden`: a page that hides its origin, so the browser sends `Origin: null`.
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" }
    if (url.pathname === "/hidden") headers["referrer-policy"] = "no-referrer"
    return new Response(html, { headers })
  })
  attackerOrigin = attacker.origin.replace("127.0.0.1", "localhost")
})

afterAll(async () => {
  await browser?.close()
  await Promise.all([app?.close(), attacker?.close()])
})

beforeEach(async () => {
  await context?.close()
  // JavaScript off, as the pages promise to work without it (the attacker's page is in another context).
  context = await browser.newContext({ javaScriptEnabled: false })
  seen = []
})

/** The POSTs the server saw to `path`. */
const posts = (path: string) => seen.filter((s) => s.method === "POST" && s.path === path)

/** What Chromium sent: the app's origin in `Origin`, the origin alone in `Referer`, a same-origin fetch. */
function expectOwnOrigin(request: Seen | undefined): void {
  expect(request).toMatchObject({ origin: app.origin, referer: `${app.origin}/`, site: "same-origin" })
}

async function openAttack(path: "/" | "/hidden"): Promise<Seen> {
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  const [answer] = await Promise.all([page.waitForResponse(`${app.origin}/auth/signin/email`), page.goto(`${attackerOrigin}${path}`)])
  const body = (await answer.json()) as { error?: string }
  await visitor.close()
  expect(answer.status()).toBe(403)
  expect(body.error).toBe("CrossSiteRequest")
  return posts("/auth/signin/email").at(-1)!
}

async function signInAsAlice(page: Page): Promise<void> {
  await page.goto(`${app.origin}/auth/signin`)
  await page.getByLabel("Username").fill("alice")
  await page.getByLabel("Password").fill(users.alice.password)
  await Promise.all([page.waitForURL(`${app.origin}/`), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
}

describe("the built-in pages' forms post with the app's Origin", () => {
  it("the sign-in page's email form: Origin is the app's and the sign-in goes on; another site's post to the same endpoint is refused", async () => {
    const page = await context.newPage()
    const csp = await watchCsp(page)
    const response = await page.goto(`${app.origin}/auth/signin?callbackUrl=%2F`)
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin")
    await page.getByRole("textbox", { name: "Email address" }).fill("ada@example.com")
    await Promise.all([page.waitForURL(/\/auth\/verify-request/), page.getByRole("button", { name: "Sign in with Email" }).click()])
    const own = posts("/auth/signin/email")
    expect(own).toHaveLength(1)
    expectOwnOrigin(own[0])
    expect(own[0]!.status).toBe(302)
    expect(email.sent.at(-1)?.identifier).toBe("ada@example.com")
    expect(await csp.violations()).toEqual([])

    // Another site's page posting the same form: its origin, cross-site, and a 403 before anything is sent.
    const sentBefore = email.sent.length
    const forged = await openAttack("/")
    expect(forged).toMatchObject({ origin: attackerOrigin, site: "cross-site", status: 403 })
    // A page that hides its origin gets Origin: null, and is refused on Sec-Fetch-Site.
    const hidden = await openAttack("/hidden")
    expect(hidden).toMatchObject({ origin: "null", referer: null, site: "cross-site", status: 403 })
    expect(email.sent.length).toBe(sentBefore)
  })

  it("the credentials form and the sign-out form", async () => {
    const page = await context.newPage()
    await signInAsAlice(page)
    expectOwnOrigin(posts("/auth/callback/credentials")[0])
    await page.goto(`${app.origin}/auth/signout`)
    await Promise.all([page.waitForURL(`${app.origin}/`), page.getByRole("button", { name: "Sign out" }).click()])
    const out = posts("/auth/signout")
    expect(out).toHaveLength(1)
    expectOwnOrigin(out[0])
    expect(out[0]!.status).toBe(302)
    expect(await (await page.request.get(`${app.origin}/auth/session`)).json()).toBeNull()
  })

  it("the email link's confirmation page: its post names the origin alone, never the URL with the token", async () => {
    const page = await context.newPage()
    await page.goto(`${app.origin}/auth/signin`)
    await page.getByRole("textbox", { name: "Email address" }).fill("grace@example.com")
    await Promise.all([page.waitForURL(/\/auth\/verify-request/), page.getByRole("button", { name: "Sign in with Email" }).click()])
    const link = email.sent.findLast((s) => s.identifier === "grace@example.com")!.url
    const token = new URL(link).searchParams.get("token")!
    await page.goto(link)
    await Promise.all([page.waitForURL(`${app.origin}/`), page.getByRole("button", { name: "Sign in" }).click()])
    const confirm = posts("/auth/callback/email")
    expect(confirm).toHaveLength(1)
    expectOwnOrigin(confirm[0])
    expect(confirm[0]!.status).toBe(302)
    expect(JSON.stringify(seen.map(({ referer }) => referer))).not.toContain(token)
    expect(await (await page.request.get(`${app.origin}/auth/session`)).json()).toMatchObject({ user: { email: "grace@example.com" } })
  })

  it("the reset link's form: the new password is saved from a post with Origin; neither it nor the link back to sign-in passes the token on", async () => {
    const links = await passwordLinks(password, app.origin, "hopper@example.com")
    const token = new URL(links.reset, app.origin).searchParams.get("token")!
    const page = await context.newPage()
    await page.goto(`${app.origin}${links.reset}`)
    // The page's link to the sign-in page: its request names the origin alone.
    await Promise.all([page.waitForURL(/\/password\/signin/), page.getByRole("link", { name: "Back to sign-in" }).click()])
    expect(seen.at(-1)).toMatchObject({ method: "GET", path: "/password/signin", referer: `${app.origin}/`, site: "same-origin" })

    await page.goto(`${app.origin}${links.reset}`)
    await page.getByLabel("New password").fill("a debugger finds moths")
    await Promise.all([page.waitForURL(/\/password\/signin\?notice=PasswordReset/), page.getByRole("button", { name: "Save the new password" }).click()])
    const reset = seen.filter((s) => s.method === "POST")
    expect(reset).toHaveLength(1)
    expectOwnOrigin(reset[0])
    expect(reset[0]!.status).toBe(302)
    // No request after the link's page carried its token in a header.
    expect(JSON.stringify(seen.map(({ referer }) => referer))).not.toContain(token)
  })
})
