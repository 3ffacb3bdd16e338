/**
 * A plugin's part of the built-in sign-in page (`signInSection`): shown first, escaped as every
 * `html` value is, with the page's CSRF token and checked callback URL; one that throws or
 * answers plain text is left out and logged, and the page still shows.
 */
import { Auth, html, type AuthConfig, type SesameModule } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { aliceCredentials, origin, recordingLogger, secret } from "../helpers.js"

function config(plugins: SesameModule[], overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], plugins, ...overrides }
}

const workAddress: SesameModule = {
  id: "work",
  async signInSection(request) {
    return html`<form action="${request.authUrl}/work/start" method="POST" id="work"><input type="hidden" name="csrfToken" value="${await request.csrfToken()}"><input type="hidden" name="callbackUrl" value="${await request.callbackUrl()}"><span>${request.query.hint ?? ""}</span></form>`
  },
}

async function page(plugins: SesameModule[], query = "") {
  const { logger, lines } = recordingLogger()
  const response = await Auth(new Request(`${origin}/auth/signin${query}`), config(plugins, { logger }))
  return { status: response.status, text: await response.text(), log: lines.join("\n"), cookies: response.headers.getSetCookie() }
}

describe("a plugin's part of the sign-in page", () => {
  it("comes first, with the page's CSRF token and the checked callback URL", async () => {
    const { status, text, cookies } = await page([workAddress], `?callbackUrl=${encodeURIComponent(`${origin}/after`)}`)
    expect(status).toBe(200)
    expect(text.indexOf('id="work"')).toBeGreaterThan(0)
    expect(text.indexOf('id="work"')).toBeLessThan(text.indexOf("/callback/credentials"))
    const tokens = [...text.matchAll(/name="csrfToken" value="([^"]+)"/g)].map((m) => m[1])
    expect(new Set(tokens).size, "one CSRF token on the page").toBe(1)
    expect(cookies.filter((c) => c.includes("csrf-token"))).toHaveLength(1)
    expect(text).toContain(`name="callbackUrl" value="${origin}/after"`)
  })

  it("never takes another origin's callback URL, and escapes what it interpolates", async () => {
    const { text } = await page([workAddress], `?callbackUrl=${encodeURIComponent("https://evil.example/")}&hint=${encodeURIComponent("<script>x</script>")}`)
    expect(text).toContain(`name="callbackUrl" value="${origin}/"`)
    expect(text).not.toContain("evil.example")
    expect(text).not.toContain("<script>x</script>")
    expect(text).toContain("&lt;script&gt;")
  })

  it("is left out when it throws or is not made with html; the page still shows, and the log says why", async () => {
    const throwing: SesameModule = { id: "broken", signInSection: () => Promise.reject(new Error("the store is down")) }
    const plain: SesameModule = { id: "plain", signInSection: () => "<b>raw</b>" as never }
    const { status, text, log } = await page([throwing, plain, workAddress])
    expect(status).toBe(200)
    expect(text).toContain('id="work"')
    expect(text).not.toContain("<b>raw</b>")
    expect(log).toMatch(/the store is down/)
    expect(log).toMatch(/"plain"'s sign-in section was not made with `html`/)
  })

  it("shows nothing when it answers undefined", async () => {
    const quiet: SesameModule = { id: "quiet", signInSection: () => undefined }
    const { text } = await page([quiet])
    expect(text).not.toContain('class="divider"')
  })
})
