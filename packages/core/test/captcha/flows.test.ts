/**
 * The captcha on the flows it guards, against a local stand-in for each provider's siteverify
 * (`siteverify-stand-in.ts`): sign-up with every provider, and password sign-in, credentials
 * sign-in, the forgotten-password request and the email-link request with at least one each;
 * missing, invalid, expired and replayed tokens; reCAPTCHA v3's action, host name and score; a
 * siteverify that is down, answers garbage or cannot be reached; JSON callers; the start-up checks.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Credentials from "@sesame/core/providers/credentials"
import Password from "@sesame/core/providers/password"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { recordingEmail } from "../email/helpers.js"
import { CookieJar, csrfToken, origin, secret, send } from "../helpers.js"
import { standInSecret, standInSiteKey, startSiteverify, type SiteverifyStandIn, type StandInProvider } from "./siteverify-stand-in.js"

type Provider = "turnstile" | "hcaptcha" | "recaptcha-v2" | "recaptcha-v3"

const fields: Record<Provider, string> = {
  turnstile: "cf-turnstile-response",
  hcaptcha: "h-captcha-response",
  "recaptcha-v2": "g-recaptcha-response",
  "recaptcha-v3": "g-recaptcha-response",
}
const standIn: Record<Provider, StandInProvider> = { turnstile: "turnstile", hcaptcha: "hcaptcha", "recaptcha-v2": "recaptcha", "recaptcha-v3": "recaptcha" }
/** What a v3 token of each flow is asked for by the page's script. */
const v3Actions = { "sign-up": "signup", "sign-in": "signin", "forgot-password": "forgot_password", email: "email_signin" } as const

let verify: SiteverifyStandIn
beforeAll(async () => {
  verify = await startSiteverify()
})
afterAll(() => verify.close())
beforeEach(() => {
  verify.mode = "ok"
})

interface App {
  config: AuthConfig
  mails: { kind: string; to: string }[]
  links: () => number
  authorized: () => number
  errors: string[]
}

function app(provider: Provider, captcha: Partial<NonNullable<AuthConfig["captcha"]>> = {}): App {
  const mails: { kind: string; to: string }[] = []
  const email = recordingEmail()
  let authorized = 0
  const errors: string[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [
      Password({ sendEmail: ({ kind, to }) => void mails.push({ kind, to }), hasher: argon2id({ memoryCost: 64, timeCost: 1 }), requireEmailVerification: false }),
      email.provider,
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize(input) {
          authorized++
          return input.username === "alice" && input.password === "correct horse" ? { id: "alice", email: "alice@example.com" } : null
        },
      }),
    ],
    captcha: { provider, siteKey: standInSiteKey, secretKey: standInSecret, verifyUrl: verify.url(standIn[provider]), ...captcha },
    logger: { error: (e) => void errors.push(`${e.name}: ${e.message}`), warn: () => {}, debug: () => {} },
  }
  return { config, mails, links: () => email.sent.length, authorized: () => authorized, errors }
}

/** A token for `flow` as the provider's widget would make it on this app's page. */
function token(provider: Provider, flow: keyof typeof v3Actions, options: Parameters<SiteverifyStandIn["issue"]>[0] = {}): string {
  return verify.issue(provider === "recaptcha-v3" ? { action: v3Actions[flow], score: 0.9, hostname: "localhost", ...options } : options)
}

async function post(config: AuthConfig, path: string, form: Record<string, string>, headers?: Record<string, string>) {
  const jar = new CookieJar()
  const response = await send(config, path, { jar, headers, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "" }
}

const signUp = (target: App, form: Record<string, string>) => post(target.config, "/auth/signup/password", { email: "ada@example.com", password: "a long enough passphrase", ...form })
const refusedSignUp = `${origin}/auth/signup?error=CaptchaFailed&email=ada%40example.com`

describe.each(["turnstile", "hcaptcha", "recaptcha-v2", "recaptcha-v3"] as const)("sign-up with %s", (provider) => {
  const field = fields[provider]

  it("is refused without a token, with an invalid one, an expired one and a replayed one, and works with a valid one", async () => {
    const target = app(provider)
    expect((await signUp(target, {})).location).toBe(refusedSignUp)
    expect((await signUp(target, { [field]: "forged-token" })).location).toBe(refusedSignUp)
    expect((await signUp(target, { [field]: token(provider, "sign-up", { expired: true }) })).location).toBe(refusedSignUp)
    // Nothing was stored or sent for the refused posts.
    expect(target.mails).toEqual([])
    const good = token(provider, "sign-up")
    const created = await signUp(target, { [field]: good })
    // requireEmailVerification: false, so the new user is signed in at once.
    expect(created.location).toBe(`${origin}/`)
    expect(created.response.headers.getSetCookie().some((c) => c.startsWith("sesame.session-token="))).toBe(true)
    // The same token again: the provider has seen it.
    expect((await signUp(target, { email: "bob@example.com", [field]: good })).location).toBe(`${origin}/auth/signup?error=CaptchaFailed&email=bob%40example.com`)
  })

  it("asks the provider's siteverify with the secret and the token (and the site key, for hCaptcha), and the client's address as the configuration tells it", async () => {
    const target = app(provider)
    const behindProxy = { ...target.config, trustedProxy: { header: "x-client-ip" } } satisfies AuthConfig
    const before = verify.verifications.length
    const good = token(provider, "sign-up")
    await post(behindProxy, "/auth/signup/password", { email: "ada@example.com", password: "a long enough passphrase", [field]: good }, { "x-client-ip": "203.0.113.80" })
    const asked = verify.verifications.slice(before)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.provider).toBe(standIn[provider])
    expect(asked[0]!.fields).toEqual({ secret: standInSecret, response: good, remoteip: "203.0.113.80", ...(provider === "hcaptcha" ? { sitekey: standInSiteKey } : {}) })
  })
})

describe("password sign-in (Turnstile)", () => {
  const field = fields.turnstile
  const signIn = (target: App, form: Record<string, string>) => post(target.config, "/auth/callback/password", { email: "ada@example.com", password: "a long enough passphrase", ...form })
  const refused = `${origin}/auth/signin?error=CaptchaFailed`

  it("is refused without, with an invalid and with a replayed token, before the password is checked; works with a valid one", async () => {
    const target = app("turnstile")
    await signUp(target, { [field]: token("turnstile", "sign-up") })
    expect((await signIn(target, {})).location).toBe(refused)
    expect((await signIn(target, { [field]: "nope" })).location).toBe(refused)
    const good = token("turnstile", "sign-in")
    expect((await signIn(target, { [field]: good })).location).toBe(`${origin}/`)
    expect((await signIn(target, { [field]: good })).location).toBe(refused)
    // Refused before the password: a wrong one without a token is answered alike.
    expect((await signIn(target, { password: "wrong wrong wrong" })).location).toBe(refused)
  })
})

describe("credentials sign-in (hCaptcha)", () => {
  const field = fields.hcaptcha
  const signIn = (target: App, form: Record<string, string>) => post(target.config, "/auth/callback/credentials", { username: "alice", password: "correct horse", ...form })

  it("never calls authorize without a valid token", async () => {
    const target = app("hcaptcha")
    const refused = `${origin}/auth/signin?error=CaptchaFailed`
    expect((await signIn(target, {})).location).toBe(refused)
    expect((await signIn(target, { [field]: "invalid" })).location).toBe(refused)
    expect(target.authorized()).toBe(0)
    const good = token("hcaptcha", "sign-in")
    // Past the captcha, authorize ran (the user is no stored user of the adapter: the app's decision, not the captcha's).
    expect((await signIn(target, { [field]: good })).location).not.toContain("Captcha")
    expect(target.authorized()).toBe(1)
    expect((await signIn(target, { [field]: good })).location).toBe(refused)
    expect(target.authorized()).toBe(1)
  })
})

describe("forgotten password (reCAPTCHA v2)", () => {
  const field = fields["recaptcha-v2"]
  const forgot = (target: App, email: string, form: Record<string, string> = {}) => post(target.config, "/auth/forgot-password/password", { email, ...form })

  it("sends nothing without a valid token, and answers a known and an unknown address alike", async () => {
    const target = app("recaptcha-v2")
    await signUp(target, { [field]: token("recaptcha-v2", "sign-up") })
    const known = await forgot(target, "ada@example.com")
    const unknown = await forgot(target, "nobody@example.com")
    expect(known.location).toBe(`${origin}/auth/forgot-password?error=CaptchaFailed&email=ada%40example.com`)
    expect(unknown.location).toBe(`${origin}/auth/forgot-password?error=CaptchaFailed&email=nobody%40example.com`)
    expect(known.response.status).toBe(unknown.response.status)
    expect((await forgot(target, "ada@example.com", { [field]: "invalid" })).location).toContain("error=CaptchaFailed")
    expect(target.mails).toEqual([])
    const good = token("recaptcha-v2", "forgot-password")
    expect((await forgot(target, "ada@example.com", { [field]: good })).location).toBe(`${origin}/auth/forgot-password?sent=1`)
    expect(target.mails.map((m) => m.kind)).toEqual(["reset-password"])
    expect((await forgot(target, "ada@example.com", { [field]: good })).location).toContain("error=CaptchaFailed")
    expect(target.mails).toHaveLength(1)
  })
})

describe("email link request (reCAPTCHA v3)", () => {
  const field = fields["recaptcha-v3"]
  const ask = (target: App, form: Record<string, string> = {}) => post(target.config, "/auth/signin/email", { email: "ada@example.com", ...form })
  const refused = `${origin}/auth/signin?error=CaptchaFailed`

  it("sends no link without a token, with an invalid or replayed one, another action's, another host's, or a low score", async () => {
    const target = app("recaptcha-v3")
    expect((await ask(target)).location).toBe(refused)
    expect((await ask(target, { [field]: "invalid" })).location).toBe(refused)
    expect((await ask(target, { [field]: token("recaptcha-v3", "email", { action: "signin" }) })).location).toBe(refused)
    expect((await ask(target, { [field]: token("recaptcha-v3", "email", { hostname: "evil.example" }) })).location).toBe(refused)
    expect((await ask(target, { [field]: token("recaptcha-v3", "email", { score: 0.3 }) })).location).toBe(refused)
    expect(target.links()).toBe(0)
    const good = token("recaptcha-v3", "email")
    expect((await ask(target, { [field]: good })).location).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
    expect(target.links()).toBe(1)
    expect((await ask(target, { [field]: good })).location).toBe(refused)
    expect(target.links()).toBe(1)
  })

  it("lets a score at `minScore` through and refuses one under it", async () => {
    const target = app("recaptcha-v3", { minScore: 0.7 })
    expect((await ask(target, { [field]: token("recaptcha-v3", "email", { score: 0.69 }) })).location).toBe(refused)
    expect((await ask(target, { [field]: token("recaptcha-v3", "email", { score: 0.7 }) })).location).toContain("/auth/verify-request")
  })
})

describe("guarding only some flows (`on`)", () => {
  it("leaves the others alone", async () => {
    const target = app("turnstile", { on: ["sign-up"] })
    const jar = new CookieJar()
    const response = await send(target.config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(target.config, jar), username: "alice", password: "correct horse" } })
    expect(response.headers.get("location")).not.toContain("Captcha")
    expect(target.authorized()).toBe(1)
    expect((await signUp(target, {})).location).toBe(refusedSignUp)
  })
})

describe("siteverify that cannot answer", () => {
  const field = fields.turnstile
  const unavailable = `${origin}/auth/signup?error=CaptchaUnavailable&email=ada%40example.com`

  it.each(["down", "garbage"] as const)("fails closed when it is %s, logged once, with the try-again message and no 500", async (mode) => {
    const target = app("turnstile")
    verify.mode = mode
    const first = await signUp(target, { [field]: token("turnstile", "sign-up") })
    const second = await signUp(target, { [field]: token("turnstile", "sign-up") })
    expect(first.response.status).toBe(302)
    expect(first.location).toBe(unavailable)
    expect(second.location).toBe(unavailable)
    expect(target.mails).toEqual([])
    expect(target.errors).toHaveLength(1)
    expect(target.errors[0]).toMatch(/^CaptchaUnavailable: The captcha's siteverify \(turnstile\) failed/)
    expect(target.errors[0]).not.toContain(standInSecret)
    // Back up: the next post goes through.
    verify.mode = "ok"
    expect((await signUp(target, { [field]: token("turnstile", "sign-up") })).location).toBe(`${origin}/`)
  })

  it("fails closed when it cannot be reached or does not answer in time", async () => {
    const closed = await startSiteverify()
    const url = closed.url("turnstile")
    await closed.close()
    const target = app("turnstile", { verifyUrl: url, timeout: 2000 })
    expect((await signUp(target, { [field]: "any-token" })).location).toBe(unavailable)
    expect(target.errors).toHaveLength(1)
  })

  it("fails closed when the app's secret is wrong (the provider's invalid-input-secret), and says so in the log", async () => {
    const target = app("turnstile", { secretKey: "0x-wrong-secret" })
    expect((await signUp(target, { [field]: token("turnstile", "sign-up") })).location).toBe(unavailable)
    expect(target.errors[0]).toContain("invalid-input-secret")
  })
})

describe("JSON callers", () => {
  const field = fields.turnstile
  async function postJson(config: AuthConfig, path: string, body: Record<string, string>, headers: Record<string, string> = {}) {
    const jar = new CookieJar()
    return send(config, path, { jar, headers, json: { csrfToken: await csrfToken(config, jar), ...body } })
  }

  it("get 400 CaptchaFailed for a missing or bad token, 503 CaptchaUnavailable with Retry-After when siteverify is down", async () => {
    const target = app("turnstile")
    const missing = await postJson(target.config, "/auth/signup/password", { email: "ada@example.com", password: "a long enough passphrase" })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: "CaptchaFailed", message: expect.stringContaining("captcha") })
    const bad = await postJson(target.config, "/auth/signin/email", { email: "ada@example.com", [field]: "invalid" }, { "X-Auth-Return-Redirect": "1" })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toBe("CaptchaFailed")
    verify.mode = "down"
    const down = await postJson(target.config, "/auth/forgot-password/password", { email: "ada@example.com", [field]: token("turnstile", "forgot-password") })
    expect(down.status).toBe(503)
    expect(down.headers.get("retry-after")).toBe("5")
    expect(down.headers.get("cache-control")).toContain("no-store")
    expect(((await down.json()) as { error: string }).error).toBe("CaptchaUnavailable")
  })

  it("go through with a valid token in the JSON body", async () => {
    const target = app("turnstile")
    const ok = await postJson(target.config, "/auth/signin/email", { email: "ada@example.com", [field]: token("turnstile", "email") }, { "X-Auth-Return-Redirect": "1" })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ url: `${origin}/auth/verify-request?provider=email&type=email` })
  })
})

describe("the sign-in page's message", () => {
  it.each([
    ["en", "CaptchaFailed", "Complete the check that you’re a person"],
    ["de", "CaptchaUnavailable", "Wir konnten gerade nicht prüfen"],
    ["ja", "CaptchaFailed", "人間であることの確認を完了してから"],
  ])("in %s for %s", async (lang, error, text) => {
    const target = app("turnstile")
    const page = await send(target.config, `/auth/signin?error=${error}`, { headers: { "accept-language": lang } })
    const html = await page.text()
    expect(html).toMatch(new RegExp(`<div class="alert" role="alert">${text}`))
  })

  it("on the sign-up and forgotten-password pages, too", async () => {
    const target = app("turnstile")
    expect(await (await send(target.config, "/auth/signup?error=CaptchaFailed")).text()).toContain(`<div class="alert" role="alert">Complete the check that you’re a person`)
    expect(await (await send(target.config, "/auth/forgot-password?error=CaptchaUnavailable")).text()).toContain(`<div class="alert" role="alert">We couldn’t check that you’re a person just now.`)
  })
})

describe("configuration", () => {
  async function startUp(captcha: unknown, env?: Record<string, string>): Promise<string> {
    const errors: string[] = []
    const config = { secret, trustHost: true, providers: [], captcha, logger: { error: (e: Error) => void errors.push(`${e.message} ${String((e.cause as { err?: Error })?.err?.message ?? "")}`), warn: () => {}, debug: () => {} } } as unknown as AuthConfig
    const saved = { ...process.env }
    Object.assign(process.env, env ?? {})
    try {
      const response = await send(config, "/auth/providers")
      return response.status === 500 ? errors.join(" ") : "ok"
    } finally {
      for (const key of Object.keys(env ?? {})) if (!(key in saved)) delete process.env[key]
    }
  }

  it.each([
    [{ provider: "friendly-captcha", siteKey: "a", secretKey: "b" }, /`captcha.provider` must be one of "turnstile", "hcaptcha", "recaptcha-v2", "recaptcha-v3"/],
    [{ provider: "turnstile", secretKey: "b" }, /`captcha.siteKey` is missing: give it, or set SESAME_CAPTCHA_SITE_KEY/],
    [{ provider: "turnstile", siteKey: "a" }, /`captcha.secretKey` is missing: give it, or set SESAME_CAPTCHA_SECRET_KEY/],
    [{ provider: "turnstile", siteKey: "a b", secretKey: "b" }, /`captcha.siteKey` must be the key the provider issued/],
    [{ provider: "turnstile", siteKey: "a", secretKey: "b", on: [] }, /`captcha.on` must list one or more of/],
    [{ provider: "turnstile", siteKey: "a", secretKey: "b", on: ["sign-in", "checkout"] }, /`captcha.on` names "checkout"/],
    [{ provider: "turnstile", siteKey: "a", secretKey: "b", minScore: 0.5 }, /`captcha.minScore` applies to "recaptcha-v3" only/],
    [{ provider: "recaptcha-v3", siteKey: "a", secretKey: "b", minScore: 2 }, /`captcha.minScore` must be a number from 0 to 1/],
    [{ provider: "hcaptcha", siteKey: "a", secretKey: "b", verifyUrl: "/siteverify" }, /`captcha.verifyUrl` must be an absolute URL/],
    [{ provider: "hcaptcha", siteKey: "a", secretKey: "b", timeout: 0 }, /`captcha.timeout` must be a whole number of milliseconds/],
  ])("refuses %j at start-up", async (captcha, message) => {
    expect(await startUp(captcha)).toMatch(message)
  })

  it("takes the keys from SESAME_CAPTCHA_SITE_KEY and SESAME_CAPTCHA_SECRET_KEY", async () => {
    expect(await startUp({ provider: "turnstile" }, { SESAME_CAPTCHA_SITE_KEY: "site", SESAME_CAPTCHA_SECRET_KEY: "secret" })).toBe("ok")
  })
})
