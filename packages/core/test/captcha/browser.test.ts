/**
 * The captcha end to end in Chromium, with Turnstile: the sign-up page as served (its CSP and
 * nonce), the provider's script URL answered by the test (`page.route`) with a stand-in that does
 * what the real widget does for the form (renders a checkbox in the `.cf-turnstile` element and,
 * once ticked, puts its token in a `cf-turnstile-response` field inside it), and the real form
 * post, verified by the local siteverify stand-in. Keyboard only, axe-clean, no CSP violation.
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import { describeViolations, launchBrowser, runAxe, serve, watchCsp, type TestServer } from "@sesame/testing"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { secret } from "../helpers.js"
import { standInSecret, standInSiteKey, startSiteverify, type SiteverifyStandIn } from "./siteverify-stand-in.js"

const widgetScript = "https://challenges.cloudflare.com/turnstile/v0/api.js"

/** The stand-in widget: a labelled checkbox whose ticking puts `token` in the form, as Turnstile's iframe does. */
function standInWidget(token: string): string {
  return `(() => {
  for (const container of document.querySelectorAll(".cf-turnstile")) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    label.append(box, " Verify you are human");
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "cf-turnstile-response";
    box.addEventListener("change", () => { field.value = box.checked ? ${JSON.stringify(token)} : ""; });
    container.append(label, field);
  }
})();`
}

let browser: Browser
let app: TestServer
let verify: SiteverifyStandIn
const mails: string[] = []

beforeAll(async () => {
  verify = await startSiteverify()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [Password({ sendEmail: ({ to }) => void mails.push(to), hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })],
    captcha: { provider: "turnstile", siteKey: standInSiteKey, secretKey: standInSecret, verifyUrl: verify.url("turnstile") },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
  ;[browser, app] = await Promise.all([launchBrowser(), serve((request) => Auth(request, config))])
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
  await verify?.close()
})

/** A page whose requests for the widget's script get the stand-in, with a token issued for this page. */
async function openSignUp(): Promise<{ page: Page; csp: Awaited<ReturnType<typeof watchCsp>>; served: string[] }> {
  const page = await browser.newPage()
  const csp = await watchCsp(page)
  const served: string[] = []
  await page.route(widgetScript, (route) => {
    const token = verify.issue({ action: "signup", hostname: "127.0.0.1" })
    served.push(token)
    return route.fulfill({ status: 200, contentType: "text/javascript", body: standInWidget(token) })
  })
  await page.goto(`${app.origin}/auth/signup`)
  await page.getByRole("checkbox", { name: "Verify you are human" }).waitFor()
  return { page, csp, served }
}

describe("sign-up with Turnstile in Chromium", () => {
  it("loads the widget under the page's CSP, is axe-clean, and signs up by keyboard with the widget's token", async () => {
    const { page, csp, served } = await openSignUp()
    const axe = await runAxe(page)
    expect(axe.violations, describeViolations(axe.violations)).toEqual([])

    await page.getByLabel("Email address").fill("ada@example.com")
    await page.getByLabel("Password", { exact: true }).fill("a long enough passphrase")
    await page.keyboard.press("Tab")
    // Focus goes from the password field (past its hint) to the widget's checkbox, then the button.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("checkbox")
    await page.keyboard.press("Space")
    expect(await page.locator('input[name="cf-turnstile-response"]').inputValue()).toBe(served[0])
    await page.keyboard.press("Tab")
    await Promise.all([page.waitForURL(/\/auth\/signup\?sent=1$/), page.keyboard.press("Enter")])

    expect(await page.getByRole("status").textContent()).toContain("We’ve sent an email to that address")
    expect(mails).toEqual(["ada@example.com"])
    expect(verify.verifications.at(-1)!.fields).toEqual({ response: served[0], secret: standInSecret })
    expect(await csp.violations()).toEqual([])
    await page.close()
  })

  it("shows the form again with the message when the widget was not ticked, and sends nothing", async () => {
    const { page, csp } = await openSignUp()
    await page.getByLabel("Email address").fill("bob@example.com")
    await page.getByLabel("Password", { exact: true }).fill("a long enough passphrase")
    await Promise.all([page.waitForURL(/error=CaptchaFailed/), page.getByRole("button", { name: "Create account" }).click()])
    expect(await page.getByRole("alert").textContent()).toContain("Complete the check that you’re a person")
    // The address comes back; the widget is there again, with a fresh token.
    expect(await page.getByLabel("Email address").inputValue()).toBe("bob@example.com")
    await page.getByRole("checkbox", { name: "Verify you are human" }).waitFor()
    expect(mails).not.toContain("bob@example.com")
    const axe = await runAxe(page)
    expect(axe.violations, describeViolations(axe.violations)).toEqual([])
    expect(await csp.violations()).toEqual([])
    await page.close()
  })
})
