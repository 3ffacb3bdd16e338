/**
 * Threat: cookie tossing against the signed double-submit CSRF token. The attacker fetches a valid
 * CSRF cookie/token pair for himself, plants that cookie in the victim's browser (a sibling
 * subdomain may set cookies for the parent domain; a network attacker may answer a plain-http
 * request), then has the victim's browser post his form with his token, to sign the victim in as
 * him or ask for a sign-in email. The pair verifies, since nothing ties it to a browser; what
 * must stop it (see `http/csrf.ts`): a CSRF cookie sent twice is never verified, the `__Host-`
 * name on https cannot be planted, and a post from the sibling's page is refused by its origin.
 * The duplicate tests send no `Origin` / `Sec-Fetch-Site`, so that the cookie rule alone is tested.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it, vi } from "vitest"
import { aliceCredentials, CookieJar, origin, secret, send, users } from "../helpers.js"
import { recordingEmail } from "../email/helpers.js"
import { quietLogger, session } from "../oauth/harness.js"

const csrfCookie = "sesame.csrf-token"

/** An app with the alice credentials provider (whose `authorize` is watched) and an email provider. */
function app(overrides: Partial<AuthConfig> = {}) {
  const authorized = vi.fn()
  const credentials = aliceCredentials({
    authorize: async (fields) => {
      authorized(fields)
      return fields.username === "alice" && fields.password === users.alice.password
        ? { id: users.alice.id, name: users.alice.name, email: users.alice.email }
        : null
    },
  })
  const { provider: email, sent } = recordingEmail()
  const { errors, logger } = quietLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [credentials, email], logger, ...overrides }
  return { config, authorized, sent, errors }
}

interface Pair {
  /** The cookie's value as the browser stores and sends it. */
  cookie: string
  token: string
}

/** A CSRF pair, as anyone gets one: `GET csrf` in a browser of one's own. */
async function pairOf(config: AuthConfig, base = `${origin}/auth`, name = csrfCookie): Promise<Pair> {
  const jar = new CookieJar()
  const response = await send(config, `${base}/csrf`, { jar })
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  const cookie = jar.cookies.get(name)
  if (!cookie) throw new Error(`GET csrf set no ${name} cookie`)
  return { cookie, token: csrfToken }
}

function signInForm(token: string): Record<string, string> {
  return { csrfToken: token, username: "alice", password: users.alice.password }
}

function sessionCookieSet(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => /^(__Secure-)?sesame\.session-token(\.\d+)?=[^;]/.test(line))
}

/** A forged post that the CSRF check refused: back to the sign-in page with MissingCSRF, no session. */
function expectMissingCsrf(response: Response, errors: Error[]): void {
  expect(response.status).toBe(302)
  expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
  expect(sessionCookieSet(response)).toBe(false)
  expect(errors.map((e) => e.name)).toEqual(["MissingCSRF"])
}

describe("a CSRF cookie sent twice (planted beside the victim's own) is never verified", () => {
  /**
   * Each case posts the token of the cookie that comes first, which is the one a first-wins parser
   * would verify: the planted cookie comes first when the attacker gave it a longer Path.
   */
  const cases: [string, (attacker: Pair, victim: Pair) => { cookie: string; token: string }][] = [
    ["the planted cookie first, with the attacker's token", (a, v) => ({ cookie: `${csrfCookie}=${a.cookie}; ${csrfCookie}=${v.cookie}`, token: a.token })],
    ["the victim's own cookie first, with the victim's token", (a, v) => ({ cookie: `${csrfCookie}=${v.cookie}; ${csrfCookie}=${a.cookie}`, token: v.token })],
  ]

  describe.each(cases)("%s", (_name, forge) => {
    it("a forged credentials sign-in: refused, authorize never runs, no session", async () => {
      const { config, authorized, errors } = app()
      const { cookie, token } = forge(await pairOf(config), await pairOf(config))
      expectMissingCsrf(await send(config, "/auth/callback/credentials", { cookie, form: signInForm(token) }), errors)
      expect(authorized).not.toHaveBeenCalled()
    })

    it("a forged email sign-in: no email is sent", async () => {
      const { config, sent, errors } = app()
      const { cookie, token } = forge(await pairOf(config), await pairOf(config))
      expectMissingCsrf(await send(config, "/auth/signin/email", { cookie, form: { csrfToken: token, email: "victim@example.com" } }), errors)
      expect(sent).toEqual([])
    })
  })

  it("and no copy is reused for a form: GET csrf mints a new token and cookie", async () => {
    const { config } = app()
    const attacker = await pairOf(config)
    const victim = await pairOf(config)
    const jar = new CookieJar()
    const response = await send(config, "/auth/csrf", { cookie: `${csrfCookie}=${attacker.cookie}; ${csrfCookie}=${victim.cookie}`, jar })
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    expect(csrfToken).not.toBe(attacker.token)
    expect(csrfToken).not.toBe(victim.token)
    const minted = jar.cookies.get(csrfCookie)
    expect(minted).toBeDefined()
    expect([attacker.cookie, victim.cookie]).not.toContain(minted)
  })

  it("beside it: the victim's own cookie, sent once, with its token, signs in", async () => {
    const { config, authorized, errors } = app()
    const victim = await pairOf(config)
    const jar = new CookieJar()
    jar.cookies.set(csrfCookie, victim.cookie)
    const response = await send(config, "/auth/callback/credentials", { jar, form: signInForm(victim.token) })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/`)
    expect(authorized).toHaveBeenCalledOnce()
    expect(errors).toEqual([])
    expect(await session(config, jar)).toMatchObject({ user: { email: users.alice.email } })
  })
})

describe("the planted cookie alone, posted from the sibling's page (plain http)", () => {
  const appOrigin = "http://app.example.com"
  const sibling = "http://evil.example.com"
  const fromSibling: [string, Record<string, string>][] = [
    ["Origin: the sibling's", { origin: sibling, "sec-fetch-site": "same-site" }],
    ["Sec-Fetch-Site: same-site without Origin", { "sec-fetch-site": "same-site" }],
  ]

  it.each(fromSibling)("%s: refused by the origin check, no session, no email", async (_name, headers) => {
    const { config, authorized, sent } = app()
    const attacker = await pairOf(config, `${appOrigin}/auth`)
    const cookie = `${csrfCookie}=${attacker.cookie}`
    const signIn = await send(config, `${appOrigin}/auth/callback/credentials`, { cookie, form: signInForm(attacker.token), headers })
    expect(signIn.status).toBe(403)
    expect(sessionCookieSet(signIn)).toBe(false)
    expect(authorized).not.toHaveBeenCalled()
    const email = await send(config, `${appOrigin}/auth/signin/email`, { cookie, form: { csrfToken: attacker.token, email: "victim@example.com" }, headers })
    expect(email.status).toBe(403)
    expect(sent).toEqual([])
  })

  it("beside it: the same post from the app's own page signs in", async () => {
    const { config } = app()
    const own = await pairOf(config, `${appOrigin}/auth`)
    const jar = new CookieJar()
    jar.cookies.set(csrfCookie, own.cookie)
    const response = await send(config, `${appOrigin}/auth/callback/credentials`, {
      jar,
      form: signInForm(own.token),
      headers: { origin: appOrigin, "sec-fetch-site": "same-origin" },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${appOrigin}/`)
    expect(sessionCookieSet(response)).toBe(true)
  })
})

describe("on https the CSRF cookie is __Host-, which no sibling or network attacker can plant", () => {
  const secureApp = "https://app.example.com"
  const hostCookie = `__Host-${csrfCookie}`

  it("is set as __Host-sesame.csrf-token: Secure, Path=/, no Domain", async () => {
    const { config } = app()
    const response = await send(config, `${secureApp}/auth/csrf`)
    const line = response.headers.getSetCookie().find((l) => l.startsWith(`${hostCookie}=`))
    expect(line).toBeDefined()
    expect(line).toMatch(/; Path=\/;/)
    expect(line).toMatch(/; Secure/)
    expect(line).not.toMatch(/Domain=/i)
    expect(response.headers.getSetCookie().filter((l) => l.startsWith(`${csrfCookie}=`))).toEqual([])
  })

  const plantable = [csrfCookie, `__Secure-${csrfCookie}`]
  it.each(plantable)("the attacker's valid pair planted as %s is not read: the forged sign-in is refused", async (name) => {
    const { config, authorized, errors } = app()
    const attacker = await pairOf(config, `${secureApp}/auth`, hostCookie)
    const response = await send(config, `${secureApp}/auth/callback/credentials`, { cookie: `${name}=${attacker.cookie}`, form: signInForm(attacker.token) })
    expectMissingCsrf(response, errors)
    expect(authorized).not.toHaveBeenCalled()
  })

  it("beside it: the browser's own __Host- cookie with its token signs in", async () => {
    const { config } = app()
    const own = await pairOf(config, `${secureApp}/auth`, hostCookie)
    const response = await send(config, `${secureApp}/auth/callback/credentials`, { cookie: `${hostCookie}=${own.cookie}`, form: signInForm(own.token) })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${secureApp}/`)
    expect(sessionCookieSet(response)).toBe(true)
  })
})
