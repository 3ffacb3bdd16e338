/**
 * One life of a user, driven through the endpoints and the server functions as a browser and an
 * app's server code would, in which every core security event type happens: a sign-up and its
 * confirmation, failures of each kind (a wrong password, a lockout, a wrong second-factor code, an
 * identity provider's refusal, an email link used twice), a second factor turned on and off,
 * passkeys, a linked provider account, sessions revoked, a reset, the account deleted.
 *
 * Each step says which events it must cause, exactly once each. The core's tests check the
 * `security` event with it (`security-events.test.ts`); `@sesame/audit` checks its log with the
 * same steps on every adapter. Every request carries the same `X-Forwarded-For` and `User-Agent`,
 * and the world keeps every secret it used (passwords, session tokens, codes, link tokens, the
 * client secret), so that a test can search for them where nothing secret belongs.
 */
import type { AuthConfig, SecurityEvent, SesameModule } from "@sesame/core"
import { changePassword, deletePasskey, deleteUser, listPasskeys, listSessions, revokeOtherSessions, revokeSession, setPassword, unlinkAccount, updateUserFields } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Email, { memoryRateLimitStore, type SendVerificationRequestParams } from "@sesame/core/providers/email"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"
import type { PasswordEmailParams } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { expect } from "vitest"
import { AuthenticatorApp, recoveryCodesOf } from "../two-factor/harness.js"
import { atProvider, clientSecret } from "../oauth/harness.js"
import { confirmationForm } from "../email/helpers.js"
import { CookieJar, origin, request, secret, send } from "../helpers.js"

/** What every request of the scenario says about its client: a proxy's list, then the user agent. */
export const clientHeaders = { "x-forwarded-for": "198.51.100.23, 203.0.113.7", "user-agent": "SecurityScenario/1.0 (a test browser)" }
/** The IP the events must name: the last entry, the one the trusted proxy added. */
export const clientIp = "203.0.113.7"

/** A browser of the scenario: its cookies, and the client's headers on every request. */
export class ScenarioBrowser {
  readonly jar = new CookieJar()
  constructor(
    private readonly config: AuthConfig,
    private readonly secrets: Set<string>,
  ) {}

  async send(path: string, options: { form?: Record<string, string>; json?: unknown } = {}): Promise<Response> {
    const response = await send(this.config, path, { ...options, jar: this.jar, headers: clientHeaders })
    for (const [name, value] of this.jar.cookies) if (name.includes("session-token") || name.includes("csrf")) this.secrets.add(decodeURIComponent(value))
    return response
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    const { csrfToken } = (await (await this.send("/auth/csrf")).json()) as { csrfToken: string }
    this.secrets.add(csrfToken)
    return this.send(path, { form: { csrfToken, ...form } })
  }

  /** The request the app's server code is handling for this browser (for a server function). */
  request(): Request {
    return request("/account", { jar: this.jar, headers: clientHeaders })
  }
}

/** One step: what it does, and the event types it must cause, once each, in any order. */
export interface ScenarioStep {
  name: string
  expect: string[]
  run(): Promise<void>
  /** More to check of the step's events. */
  check?(events: SecurityEvent[]): void
}

export interface ScenarioOptions {
  adapter: Adapter
  /** A dev IdP started by the test (`startIdp`) with the client `dev` and the account `idpAccount`. */
  idp: DevIdp
  idpAccount: { id: string; email: string }
  plugins?: SesameModule[]
  /** Receives every security event (the app's `events.security`). */
  onEvent?(event: SecurityEvent): void
}

const fastHasher = () => argon2id({ memoryCost: 64, timeCost: 1 })
const unique = () => crypto.randomUUID().slice(0, 8)

/** The scenario's configuration and its steps, in order. Run the steps one after the other. */
export function securityScenario(options: ScenarioOptions) {
  const secrets = new Set<string>([secret, clientSecret])
  const mails: PasswordEmailParams[] = []
  const links: SendVerificationRequestParams[] = []
  const run = unique()
  const ada = { email: `ada-${run}@example.com`, passwords: ["correct horse battery", "tr0ub4dor and 3", "a whole new password"] }
  const eve = { email: `eve-${run}@example.com`, password: "eve's first password" }
  const target = `nobody-${run}@example.com`
  for (const p of [...ada.passwords, eve.password, "wrong password entirely"]) secrets.add(p)
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: options.adapter,
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    providers: [
      Password({
        sendEmail: (params) => void mails.push(params),
        hasher: fastHasher(),
        // Two failures lock an address out: a lockout within a few requests.
        throttle: { freeAttempts: 2, lockoutAfter: 2, lockout: 60 },
      }),
      Email({ rateLimit: { store: memoryRateLimitStore() }, sendVerificationRequest: (params) => void links.push(params) }),
      Passkey(),
      { id: "dev", name: "Dev IdP", type: "oidc", issuer: options.idp.issuer, clientId: "dev", clientSecret, checks: ["pkce", "nonce"] },
    ],
    twoFactor: {},
    user: { fields: { nickname: { type: "string", optional: true, input: true } } },
    events: { security: (event) => options.onEvent?.(event) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...(options.plugins ? { plugins: options.plugins } : {}),
  }
  const browser = () => new ScenarioBrowser(config, secrets)
  const a = browser()
  const b = browser()
  const e = browser()
  const key = new SoftAuthenticator()
  let app: AuthenticatorApp | undefined
  let recovery: string[] = []
  let userId = ""
  let eveId = ""
  let confirmation: { action: string; fields: Record<string, string> } | undefined

  const lastMail = (kind: PasswordEmailParams["kind"]) => {
    const mail = mails.filter((m) => m.kind === kind).at(-1)
    if (!mail) throw new Error(`no ${kind} email`)
    const url = new URL(mail.url)
    secrets.add(url.searchParams.get("token")!)
    return { path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")!, email: url.searchParams.get("email")! }
  }
  const totp = (offset: number) => {
    const code = app!.code(offset)
    secrets.add(code)
    return code
  }
  const expectAt = (response: Response, where: string | RegExp) => {
    const location = response.headers.get("location") ?? ""
    if (typeof where === "string") expect(location).toBe(where)
    else expect(location).toMatch(where)
  }
  const oauthSignIn = async (who: ScenarioBrowser, loginHint: string) => {
    const start = await who.post("/auth/signin/dev?login_hint=" + encodeURIComponent(loginHint), {})
    expect(start.status).toBe(302)
    const location = start.headers.get("location")!
    const answer = await atProvider(location, new URL(location).searchParams.get("redirect_uri")!)
    if (answer.kind !== "redirect") throw new Error("The dev IdP answered with a form.")
    const code = new URL(answer.url).searchParams.get("code")
    if (code) secrets.add(code)
    return who.send(answer.url)
  }

  const steps: ScenarioStep[] = [
    {
      name: "a sign-up with a password",
      expect: ["user.created"],
      async run() {
        expectAt(await a.post("/auth/signup/password", { email: ada.email, password: ada.passwords[0]!, name: "Ada" }), `${origin}/auth/signup?sent=1`)
      },
    },
    {
      name: "the address confirmed, which signs in",
      expect: ["user.updated", "sign-in"],
      async run() {
        const link = lastMail("verify-email")
        expectAt(await a.post("/auth/verify-email/password", { token: link.token, email: link.email, password: ada.passwords[0]! }), `${origin}/`)
        const session = (await (await a.send("/auth/session")).json()) as { user: { email: string } }
        expect(session.user.email).toBe(ada.email)
      },
      check(events) {
        userId = events[0]!.userId!
        expect(events.find((x) => x.type === "user.updated")?.details).toEqual({ fields: ["emailVerified"] })
      },
    },
    {
      name: "a sign-out",
      expect: ["sign-out"],
      async run() {
        expectAt(await a.post("/auth/signout", {}), `${origin}/`)
      },
    },
    {
      name: "a wrong password",
      expect: ["sign-in.failed"],
      async run() {
        expectAt(await a.post("/auth/callback/password", { email: ada.email, password: "wrong password entirely" }), /error=CredentialsSignin/)
      },
      check([failed]) {
        // Whose account it was is the app's to know (never the visitor's): the user's own log shows it.
        expect(failed).toMatchObject({ provider: "password", reason: "credentials", userId, actorId: null })
      },
    },
    {
      name: "a sign-in with the password",
      expect: ["sign-in"],
      async run() {
        expectAt(await a.post("/auth/callback/password", { email: ada.email, password: ada.passwords[0]! }), `${origin}/`)
      },
      check([signIn]) {
        expect(signIn).toMatchObject({ provider: "password", userId, actorId: userId, details: { factors: ["password"], isNewUser: false } })
      },
    },
    {
      name: "the password changed (changePassword)",
      expect: ["password.changed"],
      async run() {
        expect(await changePassword(a.request(), config, { currentPassword: ada.passwords[0]!, newPassword: ada.passwords[1]! })).toMatchObject({ changed: true })
      },
      check([changed]) {
        expect(changed?.details).toMatchObject({ how: "changed" })
      },
    },
    {
      name: "a field the user may set (updateUserFields)",
      expect: ["user.updated"],
      async run() {
        expect(await updateUserFields(a.request(), config, { nickname: "Countess" })).toMatchObject({ updated: true })
      },
      check([updated]) {
        expect(updated?.details).toEqual({ fields: ["nickname"] })
      },
    },
    {
      name: "an authenticator app turned on",
      expect: ["two-factor.changed"],
      async run() {
        const page = await a.send("/auth/two-factor/setup")
        expect(page.status).toBe(200)
        app = AuthenticatorApp.fromSetupPage(await page.text())
        const confirmed = await a.post("/auth/two-factor/setup", { code: totp(-1) })
        expect(confirmed.status).toBe(200)
        recovery = recoveryCodesOf(await confirmed.text())
        for (const code of recovery) secrets.add(code)
      },
      check([changed]) {
        expect(changed?.details).toEqual({ change: "enabled", method: "totp" })
      },
    },
    {
      name: "a wrong code at the second factor",
      expect: ["sign-in.failed"],
      async run() {
        expectAt(await b.post("/auth/callback/password", { email: ada.email, password: ada.passwords[1]! }), `${origin}/auth/two-factor`)
        expectAt(await b.post("/auth/two-factor", { code: "000000" }), /error=InvalidCode/)
      },
      check([failed]) {
        expect(failed).toMatchObject({ provider: "password", reason: "InvalidCode", userId, actorId: null, details: { step: "second-factor", method: "totp" } })
      },
    },
    {
      name: "a recovery code at the second factor",
      expect: ["sign-in"],
      async run() {
        expectAt(await b.post("/auth/two-factor", { recoveryCode: recovery[0]! }), `${origin}/`)
      },
      check([signIn]) {
        expect(signIn?.details).toMatchObject({ factors: ["password", "recovery-code"] })
      },
    },
    {
      name: "new recovery codes",
      expect: ["two-factor.changed"],
      async run() {
        const renewed = await a.post("/auth/two-factor/recovery-codes", { code: totp(0) })
        expect(renewed.status).toBe(200)
        for (const code of recoveryCodesOf(await renewed.text())) secrets.add(code)
      },
      check([changed]) {
        expect(changed?.details).toEqual({ change: "recovery-codes", method: "totp" })
      },
    },
    {
      name: "the second factor turned off",
      expect: ["two-factor.changed"],
      async run() {
        expectAt(await a.post("/auth/two-factor/disable", { code: totp(1) }), `${origin}/auth/two-factor/setup?notice=disabled`)
      },
      check([changed]) {
        expect(changed?.details).toEqual({ change: "disabled", method: "totp" })
      },
    },
    {
      name: "a passkey added (which, as every ceremony, ends in a sign-in)",
      expect: ["passkey.added", "sign-in"],
      async run() {
        const asked = (await (await a.send("/auth/webauthn-options/passkey?action=register")).json()) as { options: Parameters<SoftAuthenticator["register"]>[0] }
        const data = key.register(asked.options, { origin })
        expect((await a.send("/auth/callback/passkey", { json: { action: "register", data } })).status).toBe(302)
      },
      check(events) {
        expect(events.find((x) => x.type === "passkey.added")).toMatchObject({ provider: "passkey", userId, actorId: userId })
      },
    },
    {
      name: "the passkey removed (deletePasskey)",
      expect: ["passkey.removed"],
      async run() {
        const [passkey] = (await listPasskeys(a.request(), config)) ?? []
        expect(await deletePasskey(a.request(), config, passkey!.id)).toEqual({ deleted: true })
      },
      check([removed]) {
        expect(removed).toMatchObject({ provider: "passkey", userId })
      },
    },
    {
      name: "a provider's account linked by the signed-in user",
      expect: ["account.linked", "sign-in"],
      async run() {
        expectAt(await oauthSignIn(a, options.idpAccount.id), `${origin}/`)
      },
      check(events) {
        expect(events.find((x) => x.type === "account.linked")).toMatchObject({ provider: "dev", userId, actorId: userId })
      },
    },
    {
      name: "the provider's account unlinked (unlinkAccount)",
      expect: ["account.unlinked"],
      async run() {
        expect(await unlinkAccount(a.request(), config, { provider: "dev", providerAccountId: options.idpAccount.id })).toEqual({ unlinked: true })
      },
    },
    {
      name: "an identity provider's refusal",
      expect: ["sign-in.failed"],
      async run() {
        expectAt(await oauthSignIn(browser(), `unknown-${run}`), /error=/)
      },
      check([failed]) {
        expect(failed).toMatchObject({ provider: "dev", userId: null, actorId: null })
        expect(failed?.reason).toMatch(/^[A-Za-z]+$/)
      },
    },
    {
      name: "a sign-up by email link",
      expect: ["user.created", "sign-in"],
      async run() {
        expectAt(await e.post("/auth/signin/email", { email: eve.email }), /verify-request/)
        const link = new URL(links.at(-1)!.url)
        secrets.add(link.searchParams.get("token")!)
        // Opening the link shows a button (a mail scanner must not sign in); pressing it does.
        const page = await e.send(`${link.pathname}${link.search}`)
        const { action, fields } = confirmationForm(await page.text())
        confirmation = { action, fields }
        expectAt(await e.send(action, { form: fields }), `${origin}/`)
      },
      check(events) {
        eveId = events[0]!.userId!
        expect(events.map((x) => x.provider)).toEqual(["email", "email"])
      },
    },
    {
      name: "the email link used again",
      expect: ["sign-in.failed"],
      async run() {
        // Another browser (a forwarded email): the page, then its button.
        const other = browser()
        const link = new URL(links.at(-1)!.url)
        const page = await other.send(`${link.pathname}${link.search}`)
        const { action, fields } = page.status === 200 ? confirmationForm(await page.text()) : confirmation!
        expectAt(await other.send(action, { form: fields }), /error=Verification/)
      },
      check([failed]) {
        expect(failed).toMatchObject({ provider: "email", reason: "Verification" })
      },
    },
    {
      name: "a first password (setPassword)",
      expect: ["password.changed"],
      async run() {
        expect(await setPassword(e.request(), config, { newPassword: eve.password })).toEqual({ set: true })
      },
      check([changed]) {
        expect(changed).toMatchObject({ userId: eveId, actorId: eveId, details: { how: "set" } })
      },
    },
    {
      name: "a wrong password for an address, again",
      expect: ["sign-in.failed"],
      async run() {
        expectAt(await browser().post("/auth/callback/password", { email: target, password: "wrong password entirely" }), /error=CredentialsSignin/)
      },
    },
    {
      name: "the wrong password that locks the address out",
      expect: ["sign-in.failed", "sign-in.throttled"],
      async run() {
        expectAt(await browser().post("/auth/callback/password", { email: target, password: "wrong password entirely" }), /error=CredentialsSignin/)
      },
      check(events) {
        expect(events.find((x) => x.type === "sign-in.throttled")).toMatchObject({ provider: "password", userId: null, details: { retryAfter: 60 } })
      },
    },
    {
      name: "an attempt while locked out",
      expect: ["sign-in.failed"],
      async run() {
        expectAt(await browser().post("/auth/callback/password", { email: target, password: "wrong password entirely" }), /error=CredentialsSignin/)
      },
      check([failed]) {
        expect(failed).toMatchObject({ reason: "throttled" })
        expect(failed?.details?.retryAfter).toBeGreaterThan(0)
      },
    },
    {
      name: "a password reset by link",
      expect: ["password.changed"],
      async run() {
        expectAt(await browser().post("/auth/forgot-password/password", { email: eve.email }), /sent=1/)
        const link = lastMail("reset-password")
        expectAt(await browser().post("/auth/reset-password/password", { token: link.token, email: link.email, password: "eve's reset password" }), /notice=PasswordReset/)
        secrets.add("eve's reset password")
      },
      check([changed]) {
        expect(changed).toMatchObject({ userId: eveId, actorId: null, provider: "password", details: { how: "reset" } })
      },
    },
    {
      name: "one of the user's other sessions revoked (revokeSession)",
      expect: ["session.revoked"],
      async run() {
        const sessions = (await listSessions(a.request(), config)) ?? []
        const other = sessions.find((s) => !s.current)
        expect(other).toBeDefined()
        expect(await revokeSession(a.request(), config, other!.id)).toBe(true)
      },
    },
    {
      name: "every other session revoked (revokeOtherSessions)",
      expect: ["sessions.revoked"],
      async run() {
        expectAt(await browser().post("/auth/callback/password", { email: ada.email, password: ada.passwords[1]! }), `${origin}/`)
        await revokeOtherSessions(a.request(), config)
      },
      check(events) {
        const revoked = events.find((x) => x.type === "sessions.revoked")
        expect(revoked?.details?.count).toBeGreaterThanOrEqual(1)
      },
    },
    {
      name: "the account deleted (deleteUser)",
      expect: ["user.deleted"],
      async run() {
        expect(await deleteUser(a.request(), config)).toEqual({ deleted: true })
      },
      check([deleted]) {
        expect(deleted).toMatchObject({ userId, actorId: userId })
      },
    },
  ]
  // The revokeOtherSessions step signs in first: its own `sign-in` is part of what it causes.
  steps.find((s) => s.name.startsWith("every other session"))!.expect.unshift("sign-in")

  return { config, steps, secrets, browser, browsers: { ada: a, eve: e }, emails: { ada: ada.email, eve: eve.email }, user: () => userId, eve: () => eveId }
}

/** The types of `events`, sorted: what a step's `expect` is compared with. */
export function typesOf(events: readonly { type: string }[]): string[] {
  return events.map((e) => e.type).sort()
}
