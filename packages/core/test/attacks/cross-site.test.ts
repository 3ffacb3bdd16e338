/**
 * Threat: another site makes a signed-in (or signing-in) visitor's browser post to the app: a form
 * that signs the victim out, updates the session, starts a sign-in, signs the victim in as the
 * attacker (with credentials, an email link or a passkey response), or asks for a sign-in email.
 * The CSRF token is the first defence; these tests give the forged request a VALID pair (as an
 * attacker who planted his own cookie, or leaked the victim's, would have) so that only the second
 * defence stands between him and the victim: the browser's `Origin` / `Sec-Fetch-Site`, which say
 * the request comes from another site, and get it refused with a 403 before the action runs.
 * Beside each attack: the same request from the app's own page, and from a client that sends
 * neither header (a server, a framework's server action), still works; and an OAuth `form_post`
 * callback, which the provider's page posts cross-site by design, still signs in. Last, the whole
 * attack in Chromium, with the headers a real browser sends: a same-site sibling (another port of
 * 127.0.0.1) plants its CSRF cookie and auto-submits its sign-in form.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { Auth, type AuthConfig } from "@sesame/core"
import { launchBrowser, serve, SoftAuthenticator, type TestServer } from "@sesame/testing"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, jwtConfig, origin, send, signInAlice, users } from "../helpers.js"
import { confirmationForm, emailConfig, followLink, lastLink, openLink, recordingEmail, requestLink, sessionOf } from "../email/helpers.js"
import { atProvider, callbackUrl, oauthConfig, oidc, session, startIdp, startSignIn } from "../oauth/harness.js"
import { askOptions, setup } from "../webauthn/harness.js"

type HeaderSet = Record<string, string>

/** What another site's page makes the browser send, one way or the other. */
const crossSite: [string, HeaderSet][] = [
  ["Origin of another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
  ["Sec-Fetch-Site: cross-site without Origin", { "sec-fetch-site": "cross-site" }],
]

/** What the app's own page, and a client that says nothing, send. */
const ownPage: [string, HeaderSet][] = [
  ["the app's own page", { origin, "sec-fetch-site": "same-origin" }],
  ["a client without Origin or Sec-Fetch-Site", {}],
]

/** The refusal: 403, a short JSON body that caches nowhere, and nothing set or redirected. */
async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(403)
  expect(response.headers.get("cache-control")).toContain("no-store")
  expect(response.headers.get("content-type")).toBe("application/json")
  expect(response.headers.get("location")).toBeNull()
  expect(response.headers.getSetCookie()).toEqual([])
  const body = (await response.json()) as { error: string; message: string }
  expect(body.error).toBe("CrossSiteRequest")
}

function credentialsForm(token: string): Record<string, string> {
  return { csrfToken: token, username: "alice", password: users.alice.password }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("the rules, on the credentials callback (a login CSRF)", () => {
  const cases: [string, boolean, HeaderSet][] = [
    ["no header at all", true, {}],
    ["Origin: the app's", true, { origin }],
    ["Sec-Fetch-Site: same-origin", true, { "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site: none (typed or bookmarked)", true, { "sec-fetch-site": "none" }],
    ["the app's Origin and Sec-Fetch-Site: same-origin", true, { origin, "sec-fetch-site": "same-origin" }],
    ["Origin of another site", false, { origin: "https://evil.example" }],
    ["Origin: null alone (a sandboxed frame in a browser without Sec-Fetch-Site)", false, { origin: "null" }],
    ["Origin: null from a sandboxed frame or a cross-site redirect (Sec-Fetch-Site: cross-site)", false, { origin: "null", "sec-fetch-site": "cross-site" }],
    // What a browser sends from an app's own page with Referrer-Policy: no-referrer (the built-in
    // pages send strict-origin, which keeps Origin; see test/pages/browser-origin.test.ts).
    ["Origin: null with Sec-Fetch-Site: same-origin (a no-referrer page of the app)", true, { origin: "null", "sec-fetch-site": "same-origin" }],
    ["Origin of another port", false, { origin: "http://localhost:3001" }],
    ["Origin of another scheme", false, { origin: "https://localhost:3000" }],
    ["Origin of a subdomain", false, { origin: "http://evil.localhost:3000" }],
    ["a malformed Origin (the app's with a path)", false, { origin: `${origin}/` }],
    ["Sec-Fetch-Site: cross-site", false, { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", false, { "sec-fetch-site": "same-site" }],
    ["an unknown Sec-Fetch-Site", false, { "sec-fetch-site": "somewhere" }],
    ["another Origin, though Sec-Fetch-Site says same-origin", false, { origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
  ]

  it.each(cases)("%s: signs in = %s", async (_name, allowed, headers) => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/callback/credentials", { jar, form: credentialsForm(token), headers })
    if (allowed) {
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${origin}/`)
      expect(jar.get("sesame.session-token")).toBeDefined()
      expect(await session(config, jar)).toMatchObject({ user: { email: users.alice.email } })
    } else {
      await expectRefused(response)
      expect(jar.get("sesame.session-token")).toBeUndefined()
      expect(await session(config, jar)).toBeNull()
    }
  })

  it("uses the app's origin, not the request URL: behind a trusted proxy the forwarded host is the origin", async () => {
    const config = jwtConfig()
    const proxied = { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" }
    const proxiedToken = async (jar: CookieJar) =>
      ((await (await send(config, "/auth/csrf", { jar, headers: proxied })).json()) as { csrfToken: string }).csrfToken
    const jar = new CookieJar()
    const token = await proxiedToken(jar)
    // The request URL says localhost:3000 (what the proxy forwards to); the browser is on app.example.com.
    const fromApp = await send(config, "/auth/callback/credentials", {
      jar,
      form: credentialsForm(token),
      headers: { ...proxied, origin: "https://app.example.com" },
    })
    expect(fromApp.status).toBe(302)
    expect(fromApp.headers.get("location")).toBe("https://app.example.com/")

    const other = new CookieJar()
    const otherToken = await proxiedToken(other)
    await expectRefused(await send(config, "/auth/callback/credentials", { jar: other, form: credentialsForm(otherToken), headers: { ...proxied, origin } }))
  })

  it("tells a developer whose AUTH_URL is not the origin they browse what is wrong, and logs it at debug level only", async () => {
    vi.stubEnv("AUTH_URL", "http://localhost:3000/auth")
    const errors: Error[] = []
    const debug: string[] = []
    const config = jwtConfig({ debug: true, logger: { error: (e) => void errors.push(e), warn: () => {}, debug: (m) => void debug.push(m) } })
    const browsed = "http://127.0.0.1:3000"
    const jar = new CookieJar()
    const token = await csrfToken(config, jar, `${browsed}/auth`)
    const response = await send(config, `${browsed}/auth/callback/credentials`, {
      jar,
      form: credentialsForm(token),
      headers: { origin: browsed, "sec-fetch-site": "same-origin" },
    })
    expect(response.status).toBe(403)
    const { message } = (await response.json()) as { message: string }
    expect(message).toContain("http://127.0.0.1:3000")
    expect(message).toContain("differs from the app's origin (http://localhost:3000, from AUTH_URL")
    expect(message).toContain("set AUTH_URL to the origin you browse")
    expect(errors).toEqual([])
    expect(debug.some((line) => line.includes("Refused a cross-origin request"))).toBe(true)
  })
})

describe("each state-changing POST refuses a cross-site request", () => {
  describe.each(crossSite)("%s", (_name, forged) => {
    it("POST signout: the victim stays signed in", async () => {
      const config = jwtConfig()
      const victim = new CookieJar()
      await signInAlice(config, victim)
      const token = await csrfToken(config, victim)
      await expectRefused(await send(config, "/auth/signout", { jar: victim, form: { csrfToken: token }, headers: forged }))
      expect(victim.get("sesame.session-token")).toBeDefined()
      expect(await session(config, victim)).toMatchObject({ user: { email: users.alice.email } })
    })

    it("POST session: the session is not updated, and the jwt callback never sees the data", async () => {
      const updates: unknown[] = []
      const config = jwtConfig({
        callbacks: {
          jwt({ token, trigger, session: data }) {
            if (trigger !== "update") return token
            updates.push(data)
            return { ...token, name: (data as { name: string }).name }
          },
        },
      })
      const victim = new CookieJar()
      await signInAlice(config, victim)
      const before = victim.get("sesame.session-token")
      const token = await csrfToken(config, victim)
      await expectRefused(await send(config, "/auth/session", { jar: victim, json: { csrfToken: token, data: { name: "Mallory" } }, headers: forged }))
      expect(updates).toEqual([])
      expect(victim.get("sesame.session-token")).toBe(before)
      expect(await session(config, victim)).toMatchObject({ user: { name: users.alice.name } })
    })

    it("POST signin/:email: no email is sent, no token stored", async () => {
      const { provider, sent } = recordingEmail()
      const { config, adapter } = emailConfig([provider])
      const victim = new CookieJar()
      await expectRefused(await requestLink(config, victim, "victim@example.com", { headers: forged }))
      expect(sent).toEqual([])
      expect(adapter.tables.verificationTokens.size).toBe(0)
    })

    it("POST callback/:email (the attacker's link, confirmed in the victim's browser): no session, the link unused", async () => {
      const { provider, sent } = recordingEmail()
      const { config } = emailConfig([provider])
      const attacker = new CookieJar()
      await requestLink(config, attacker, "mallory@example.com")
      const link = lastLink(sent)

      const victim = new CookieJar()
      const page = await openLink(config, victim, link)
      const { action, fields } = confirmationForm(await page.text())
      await expectRefused(await send(config, action, { jar: victim, form: fields, headers: forged }))
      expect(victim.get("sesame.session-token")).toBeUndefined()
      expect(await sessionOf(config, victim)).toBeNull()
      // The link was not used up by the refused request: its owner can still use it.
      expect((await followLink(config, attacker, link)).status).toBe(302)
      expect(await sessionOf(config, attacker)).toMatchObject({ user: { email: "mallory@example.com" } })
    })

    it("POST callback/:passkey: no session, and the challenge is not used up", async () => {
      const s = setup()
      const victim = new CookieJar()
      const key = new SoftAuthenticator()
      const asked = await askOptions(s.config, victim, { action: "register", email: "ada@example.com" })
      const data = key.register(asked.options, { origin })
      const post = (headers: HeaderSet) => send(s.config, "/auth/callback/passkey", { jar: victim, json: { action: "register", data }, headers })
      await expectRefused(await post(forged))
      expect(victim.get("sesame.session-token")).toBeUndefined()
      expect(s.adapter.tables.users.size).toBe(0)
      // The same response from the app's own page still registers.
      const own = await post({ origin, "sec-fetch-site": "same-origin" })
      expect(own.status).toBe(302)
      expect((await session(s.config, victim))?.user?.email).toBe("ada@example.com")
    })
  })
})

describe("legitimate posts", () => {
  describe.each(ownPage)("from %s", (_name, headers) => {
    it("sign-in, session update and sign-out work", async () => {
      const config = jwtConfig({
        callbacks: { jwt: ({ token, trigger, session: data }) => (trigger === "update" ? { ...token, name: (data as { name: string }).name } : token) },
      })
      const jar = new CookieJar()
      let token = await csrfToken(config, jar)
      expect((await send(config, "/auth/callback/credentials", { jar, form: credentialsForm(token), headers })).status).toBe(302)
      token = await csrfToken(config, jar)
      const updated = await send(config, "/auth/session", { jar, json: { csrfToken: token, data: { name: "Alice L." } }, headers })
      expect(updated.status).toBe(200)
      expect(await session(config, jar)).toMatchObject({ user: { name: "Alice L." } })
      const out = await send(config, "/auth/signout", { jar, form: { csrfToken: token }, headers })
      expect(out.status).toBe(302)
      expect(await session(config, jar)).toBeNull()
    })

    it("an email link is requested and confirmed", async () => {
      const { provider, sent } = recordingEmail()
      const { config } = emailConfig([provider])
      const jar = new CookieJar()
      expect((await requestLink(config, jar, "ada@example.com", { headers })).status).toBe(302)
      const page = await openLink(config, jar, lastLink(sent))
      const { action, fields } = confirmationForm(await page.text())
      expect((await send(config, action, { jar, form: fields, headers })).status).toBe(302)
      expect(await sessionOf(config, jar)).toMatchObject({ user: { email: "ada@example.com" } })
    })
  })
})

describe("OAuth / OIDC", () => {
  let idp: DevIdp
  let config: AuthConfig

  beforeAll(async () => {
    idp = await startIdp()
    config = oauthConfig({ providers: [oidc(idp, { authorization: { params: { response_mode: "form_post" } } })] })
  })
  afterAll(() => idp.close())

  it.each(crossSite)("POST signin/:oidc with %s is refused: no state, PKCE or nonce cookie, no redirect to the provider", async (_name, forged) => {
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await expectRefused(await send(config, "/auth/signin/dev", { jar, form: { csrfToken: token }, headers: forged }))
    expect([...jar.cookies.keys()]).toEqual(["sesame.csrf-token"])
  })

  it("a form_post callback that the provider's page posts cross-site still signs in", async () => {
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev")
    expect(start.status).toBe(302)
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
    if (answer.kind !== "form") throw new Error("expected a form_post answer")
    const callback = await send(config, answer.action, {
      jar,
      form: answer.fields,
      headers: { origin: new URL(idp.issuer).origin, "sec-fetch-site": "cross-site" },
    })
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("in a real browser: a sibling on the same site plants its cookie and posts its form", () => {
  // 127.0.0.1 on another port is another origin but the same site, and cookies ignore ports: the
  // sibling's page can plant a CSRF cookie for the app, and the browser sends the app's SameSite=Lax
  // cookies with the sibling's form post. Only the origin check is left to refuse it.
  let browser: Browser
  let app: TestServer
  let sibling: TestServer
  const config = jwtConfig({ logger: { error: () => {}, warn: () => {}, debug: () => {} } })
  let planted: { cookie: string; token: string }

  beforeAll(async () => {
    ;[browser, app] = await Promise.all([launchBrowser(), serve((request) => Auth(request, config))])
    // The attacker's own pair, fetched as anyone can.
    const jar = new CookieJar()
    const token = await csrfToken(config, jar, `${app.origin}/auth`)
    planted = { cookie: jar.cookies.get("sesame.csrf-token")!, token }
    sibling = await serve(() => {
      const fields = { csrfToken: planted.token, username: "alice", password: users.alice.password }
      const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join("")
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Win a prize</title></head><body><form id="f" method="POST" action="${app.origin}/auth/callback/credentials">${inputs}</form><script>document.getElementById("f").submit()</script></body></html>`
      return new Response(html, {
        headers: { "content-type": "text/html; charset=utf-8", "set-cookie": `sesame.csrf-token=${planted.cookie}; Path=/; SameSite=Lax` },
      })
    })
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([app?.close(), sibling?.close()])
  })

  it("the forged sign-in is refused with 403 and the victim's browser gets no session; the app's own page still signs in", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const [answer] = await Promise.all([
      page.waitForResponse(`${app.origin}/auth/callback/credentials`),
      page.goto(`${sibling.origin}/prize`),
    ])
    expect(answer.status()).toBe(403)
    expect(answer.request().headers()["origin"]).toBe(sibling.origin)
    // The planted cookie reached the app's origin: only the origin check stood in the way.
    const cookies = await context.cookies(app.origin)
    expect(cookies.find((c) => c.name === "sesame.csrf-token")?.value).toBe(planted.cookie)
    expect(cookies.some((c) => c.name === "sesame.session-token")).toBe(false)
    expect(await (await page.request.get(`${app.origin}/auth/session`)).json()).toBeNull()

    // The built-in page (Referrer-Policy: strict-origin, so its post names the app's origin).
    await context.clearCookies()
    await page.goto(`${app.origin}/auth/signin`)
    await page.getByLabel("Username").fill("alice")
    await page.getByLabel("Password").fill(users.alice.password)
    const [own] = await Promise.all([
      page.waitForRequest(`${app.origin}/auth/callback/credentials`),
      page.waitForURL(`${app.origin}/`),
      page.getByRole("button", { name: "Sign in with Credentials" }).click(),
    ])
    expect(own.headers()["origin"]).toBe(app.origin)
    expect(await (await page.request.get(`${app.origin}/auth/session`)).json()).toMatchObject({ user: { email: users.alice.email } })
    await context.close()
  })
})
