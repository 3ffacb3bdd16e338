/**
 * Attacks on the password provider, through its HTTP endpoints and its server functions: account
 * enumeration, stolen or replayed links (and confirmation links used without the account's
 * password), account pre-takeover, CSRF and cross-site posts, open redirects, injection through the
 * fields and the query, throttling bypasses, races, oversize and malformed input, and the endpoints
 * asked with the wrong method or provider. Each attack is made
 * the way an attacker would make it and must fail; beside it, the legitimate flow still works.
 *
 * A test that fails here is a vulnerability, not a broken test: see the comment above it.
 */
import type { AuthConfig, OIDCConfig, PasswordEmailParams } from "@sesame/core"
import { changePassword, setPassword } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Passkey from "@sesame/core/providers/passkey"
import Password, { type PasswordOptions } from "@sesame/core/providers/password"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { confirmationForm, recordingEmail } from "../email/helpers.js"
import { CookieJar, csrfToken, origin, secret, send, setAsideAddressOf } from "../helpers.js"
import { atProvider, callbackUrl, client, clientSecret, deliver, startIdp, startSignIn } from "../oauth/harness.js"
import { authenticate, register } from "../webauthn/harness.js"
import { storedPassword } from "../../src/password/storage.js"

/** Cheap Argon2id parameters: the attacks are on the flows, not on the cost. */
const fastHasher = () => argon2id({ memoryCost: 64, timeCost: 1 })

const victim = "victim@example.com"
const attackerPassword = "mallory chose this one"
const victimPassword = "victim's own passphrase"

const sentSignUp = `${origin}/auth/signup?sent=1`
const sentForgot = `${origin}/auth/forgot-password?sent=1`
const wrongAnswer = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`
const badLink = `${origin}/auth/error?error=Verification`
const resetDone = `${origin}/auth/signin?notice=PasswordReset`

interface App {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  /** The password provider's emails. */
  mails: PasswordEmailParams[]
  /** The email provider's sign-in links. */
  links: string[]
  hasher: ReturnType<typeof fastHasher>
  errors: Error[]
}

/**
 * The app under attack: the password provider beside an email-link provider (id `email`), a memory
 * adapter, JWT sessions unless `overrides.session` says otherwise, and `extra` providers.
 */
function app(options: Partial<PasswordOptions> = {}, overrides: Partial<AuthConfig> = {}, extra: AuthConfig["providers"] = []): App {
  const adapter = MemoryAdapter()
  const mails: PasswordEmailParams[] = []
  const email = recordingEmail()
  const hasher = fastHasher()
  const errors: Error[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: (params) => void mails.push(params), hasher, ...options }), email.provider, ...extra],
    logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...overrides,
  }
  return {
    config,
    adapter,
    mails,
    get links() {
      return email.sent.map((s) => s.url)
    },
    hasher,
    errors,
  }
}

/** Posts `form` to `path` from the app's page: a CSRF token fetched into the jar first. */
async function post(config: AuthConfig, path: string, form: Record<string, string>, jar = new CookieJar(), headers?: Record<string, string>) {
  const response = await send(config, path, { jar, headers, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "", jar }
}

const signUp = (config: AuthConfig, form: Record<string, string>, jar?: CookieJar) => post(config, "/auth/signup/password", form, jar)
const signIn = (config: AuthConfig, email: string, password: string, jar?: CookieJar) => post(config, "/auth/callback/password", { email, password }, jar)
const forgot = (config: AuthConfig, email: string, extra: Record<string, string> = {}) => post(config, "/auth/forgot-password/password", { email, ...extra })
const reset = (config: AuthConfig, link: { token: string; email: string }, password: string, extra: Record<string, string> = {}) =>
  post(config, "/auth/reset-password/password", { token: link.token, email: link.email, password, ...extra })
/** Posts a confirmation link's form, with the account's `password` as its page asks (none: the field left out). */
const confirm = (config: AuthConfig, link: { token: string; email: string }, password: string | undefined, jar?: CookieJar, extra: Record<string, string> = {}) =>
  post(config, "/auth/verify-email/password", { token: link.token, email: link.email, ...(password === undefined ? {} : { password }), ...extra }, jar)
/** Where a confirmation post with a wrong password goes: back to the link's page, which says so. */
const wrongPasswordPage = (link: { token: string; email: string }, callbackUrl = `${origin}/`) =>
  `${origin}/auth/verify-email/password?${new URLSearchParams({ token: link.token, email: link.email, callbackUrl, error: "wrong-password" })}`
const sessionOf = async (config: AuthConfig, jar: CookieJar) => (await send(config, "/auth/session", { jar })).json() as Promise<{ user?: { email?: string; name?: string } } | null>
const signedIn = async (config: AuthConfig, jar: CookieJar) => (await sessionOf(config, jar)) !== null

/** The link of the last password email of `kind` (to `to`, if given). */
function lastLink(mails: PasswordEmailParams[], kind: PasswordEmailParams["kind"], to?: string) {
  const mail = mails.filter((m) => m.kind === kind && (to === undefined || m.to === to)).at(-1)
  if (!mail) throw new Error(`no ${kind} email`)
  const url = new URL(mail.url)
  return { url, path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")!, email: url.searchParams.get("email")! }
}

/** What a person does with a password email's link: opens it in `jar`'s browser and posts its page's form. */
async function follow(config: AuthConfig, jar: CookieJar, url: string, extra: Record<string, string> = {}): Promise<Response> {
  const page = await send(config, url, { jar })
  expect(page.status).toBe(200)
  const { action, fields } = confirmationForm(await page.text())
  return send(config, action, { jar, form: { ...fields, ...extra } })
}

/** Signs up and confirms `email`; returns its user. */
async function confirmedUser(target: App, email = victim, password = victimPassword) {
  await signUp(target.config, { email, password, name: "Victim" })
  expect((await confirm(target.config, lastLink(target.mails, "verify-email", email), password)).location).toBe(`${origin}/`)
  return (await target.adapter.getUserByEmail(email))!
}

/** Signs in with the email provider's link for `email` in `jar`'s browser. */
async function emailLinkSignIn(target: App, jar: CookieJar, email: string): Promise<void> {
  await post(target.config, "/auth/signin/email", { email }, jar)
  const link = target.links.at(-1)!
  expect(new URL(link).searchParams.get("email")).toBe(email)
  const page = await send(target.config, link, { jar })
  const { action, fields } = confirmationForm(await page.text())
  await send(target.config, action, { jar, form: fields })
}

/** What a response tells the visitor: everything but the values of its cookies. */
async function answer(response: Response) {
  return {
    status: response.status,
    location: response.headers.get("location"),
    retryAfter: response.headers.get("retry-after"),
    cookies: response.headers
      .getSetCookie()
      .map((c) => c.split("=")[0])
      .sort(),
    contentType: response.headers.get("content-type"),
    body: await response.clone().text(),
  }
}

describe("account enumeration", () => {
  it("sign-in answers an account with a password, an unconfirmed one, one without a password and no account alike, with or without the throttle", async () => {
    const target = app()
    await confirmedUser(target)
    await signUp(target.config, { email: "pending@example.com", password: "pending passphrase" })
    await target.adapter.createUser({ id: "oauth-only", email: "oauth@example.com", name: null, image: null, emailVerified: new Date() })
    const addresses = [victim, "pending@example.com", "oauth@example.com", "nobody@example.com"]
    const mailsBefore = target.mails.length

    for (let i = 0; i < 6; i++) {
      const answers = await Promise.all(addresses.map(async (address) => answer((await signIn(target.config, address, `wrong guess ${i}`)).response)))
      const expected = { status: 302, location: wrongAnswer, retryAfter: i < 5 ? null : "1" }
      for (const a of answers) expect(a).toMatchObject(expected)
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    }
    // A wrong password sends nothing, even to an unconfirmed address.
    expect(target.mails.length).toBe(mailsBefore)
  })

  it("sign-up answers a taken address (confirmed, pending, without a password) like a new one, and tells only the owner", async () => {
    const target = app()
    await confirmedUser(target)
    await signUp(target.config, { email: "pending@example.com", password: "pending passphrase" })
    await target.adapter.createUser({ id: "oauth-only", email: "oauth@example.com", name: null, image: null, emailVerified: new Date() })
    const before = target.mails.length
    const answers = []
    for (const address of [victim, "pending@example.com", "oauth@example.com", "new@example.com"]) {
      answers.push(await answer((await signUp(target.config, { email: address, password: attackerPassword, name: "Mallory" })).response))
    }
    for (const a of answers) expect(a).toEqual(answers.at(-1))
    expect(answers[0]!.location).toBe(sentSignUp)
    // One email each, to the address typed, and none to anyone else.
    expect(target.mails.slice(before).map((m) => [m.to, m.kind])).toEqual([
      [victim, "account-exists"],
      ["pending@example.com", "account-exists"],
      ["oauth@example.com", "account-exists"],
      ["new@example.com", "verify-email"],
    ])
    // Nothing of the attacker's got in: no password on the provider-only user, the old names stay.
    expect(await storedPassword(target.adapter, "oauth-only")).toBeNull()
    expect((await target.adapter.getUserByEmail(victim))!.name).toBe("Victim")
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)
  })

  it("forgot-password answers alike for an account, no account, and an address over its email limit", async () => {
    const target = app()
    await confirmedUser(target)
    const known = await answer((await forgot(target.config, victim)).response)
    const unknown = await answer((await forgot(target.config, "nobody@example.com")).response)
    expect(known).toEqual(unknown)
    expect(known.location).toBe(sentForgot)
    // This reset was the first of three (the sign-up's confirmation is counted apart): two more, then nothing is sent.
    for (let i = 0; i < 2; i++) await forgot(target.config, victim)
    const over = await answer((await forgot(target.config, victim)).response)
    expect(over).toEqual(known)
    expect(target.mails.filter((m) => m.to === victim).map((m) => m.kind)).toEqual(["verify-email", "reset-password", "reset-password", "reset-password"])
  })

  it("a made-up reset or confirmation link answers the same for an address with an account and one without", async () => {
    const target = app()
    await confirmedUser(target)
    await signUp(target.config, { email: "pending@example.com", password: "pending passphrase" })
    const token = "A".repeat(43)
    const known = await answer((await reset(target.config, { token, email: victim }, "a long enough passphrase")).response)
    const unknown = await answer((await reset(target.config, { token, email: "nobody@example.com" }, "a long enough passphrase")).response)
    expect(known).toEqual(unknown)
    expect(known.location).toBe(badLink)
    // A confirmation is checked against the account's password first: a confirmed account, a pending
    // one and no account all send a wrong one back to the page, which differs only by the address.
    const wrong = []
    for (const email of [victim, "pending@example.com", "nobody@example.com"]) {
      const a = await answer((await confirm(target.config, { token, email }, "a long enough passphrase")).response)
      expect(a.location, email).toBe(wrongPasswordPage({ token, email }))
      wrong.push({ ...a, location: a.location!.replace(encodeURIComponent(email), "ADDRESS") })
    }
    for (const a of wrong) expect(a).toEqual(wrong[0])
    // With the right password, a made-up token is the link error; nothing was confirmed.
    expect((await confirm(target.config, { token, email: "pending@example.com" }, "pending passphrase")).location).toBe(badLink)
    expect((await target.adapter.getUserByEmail("pending@example.com"))!.emailVerified).toBeNull()
    for (const path of ["/auth/reset-password/password", "/auth/verify-email/password"]) {
      // The pages the links open do not look anything up.
      const pageKnown = await send(target.config, `${path}?token=${token}&email=${encodeURIComponent(victim)}`)
      const pageUnknown = await send(target.config, `${path}?token=${token}&email=nobody%40example.com`)
      expect(pageKnown.status).toBe(200)
      expect(pageUnknown.status).toBe(200)
    }
  })
})

describe("stolen and replayed links", () => {
  it("a reset link works once, even posted twice at once; the other post changes nothing", async () => {
    const target = app({}, { session: { strategy: "database" } })
    await confirmedUser(target)
    await forgot(target.config, victim)
    const link = lastLink(target.mails, "reset-password")
    const [first, second] = await Promise.all([reset(target.config, link, "first new passphrase"), reset(target.config, link, "second new passphrase")])
    const locations = [first.location, second.location].sort()
    expect(locations).toEqual([badLink, resetDone].sort())
    const winner = first.location === resetDone ? "first new passphrase" : "second new passphrase"
    const loser = winner === "first new passphrase" ? "second new passphrase" : "first new passphrase"
    expect(await signedIn(target.config, (await signIn(target.config, victim, loser)).jar)).toBe(false)
    expect(await signedIn(target.config, (await signIn(target.config, victim, winner)).jar)).toBe(true)
    // And a third time, later: still refused.
    expect((await reset(target.config, link, "third new passphrase")).location).toBe(badLink)
  })

  it("a confirmation link confirms and signs in once, even posted twice at once", async () => {
    const target = app({}, { session: { strategy: "database" } })
    await signUp(target.config, { email: victim, password: victimPassword })
    const link = lastLink(target.mails, "verify-email")
    const results = await Promise.all([confirm(target.config, link, victimPassword), confirm(target.config, link, victimPassword)])
    const sessions = await Promise.all(results.map((r) => signedIn(target.config, r.jar)))
    expect(sessions.filter(Boolean)).toHaveLength(1)
    expect(results.map((r) => r.location).sort()).toEqual([`${origin}/`, badLink].sort())
  })

  it("the attacker's own reset link does not reset the victim's password, nor does the victim's link with another address", async () => {
    const target = app()
    await confirmedUser(target)
    await confirmedUser(target, "mallory@example.com", attackerPassword)
    await forgot(target.config, "mallory@example.com")
    const own = lastLink(target.mails, "reset-password", "mallory@example.com")
    expect((await reset(target.config, { token: own.token, email: victim }, "taken over passphrase")).location).toBe(badLink)
    await forgot(target.config, victim)
    const victims = lastLink(target.mails, "reset-password", victim)
    expect((await reset(target.config, { token: victims.token, email: "mallory@example.com" }, "taken over passphrase")).location).toBe(badLink)
    expect(await signedIn(target.config, (await signIn(target.config, victim, "taken over passphrase")).jar)).toBe(false)
    // Neither misuse used up the links: each still works for its own address.
    expect((await reset(target.config, victims, "the victim's new passphrase")).location).toBe(resetDone)
    expect((await reset(target.config, own, "mallory's new passphrase")).location).toBe(resetDone)
  })

  // Each misuse posts the account's right password, so only the link's kind stands in its way.
  it("a link of one kind never works as the other (confirmation, reset, email sign-in), and the misuse costs the real link nothing", async () => {
    const target = app()
    await signUp(target.config, { email: victim, password: victimPassword })
    const verify = lastLink(target.mails, "verify-email")
    // A confirmation token posted as a reset: refused, and the password stays.
    expect((await reset(target.config, verify, "taken over passphrase")).location).toBe(badLink)
    // ...and as an email sign-in link (same address, same table of tokens).
    const asEmailLink = await send(target.config, `/auth/callback/email?token=${verify.token}&email=${encodeURIComponent(victim)}`)
    const emailJar = new CookieJar()
    expect(await signedIn(target.config, emailJar.apply(asEmailLink))).toBe(false)
    const asEmailPost = await post(target.config, "/auth/callback/email", { token: verify.token, email: victim })
    expect(asEmailPost.location).toContain("error=Verification")
    expect(await signedIn(target.config, asEmailPost.jar)).toBe(false)

    // The account-exists email's link is a reset link: it does not confirm and sign in.
    await signUp(target.config, { email: victim, password: attackerPassword })
    const exists = lastLink(target.mails, "account-exists")
    const asConfirmation = await confirm(target.config, exists, victimPassword)
    expect(asConfirmation.location).toBe(badLink)
    expect(await signedIn(target.config, asConfirmation.jar)).toBe(false)
    // An email sign-in token is not a confirmation or a reset either.
    await post(target.config, "/auth/signin/email", { email: "grace@example.com" })
    await signUp(target.config, { email: "grace@example.com", password: "grace's passphrase" })
    const emailToken = new URL(target.links.at(-1)!).searchParams.get("token")!
    expect((await confirm(target.config, { token: emailToken, email: "grace@example.com" }, "grace's passphrase")).location).toBe(badLink)

    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    // The real links still work, each for its own purpose.
    const confirmed = await confirm(target.config, verify, victimPassword)
    expect(confirmed.location).toBe(`${origin}/`)
    expect(await signedIn(target.config, confirmed.jar)).toBe(true)
    expect((await reset(target.config, exists, "a newer passphrase")).location).toBe(resetDone)
  })

  it("a link with the address in another case, with spaces or full-width letters is refused, and the link stays good", async () => {
    const target = app()
    await confirmedUser(target)
    await forgot(target.config, victim)
    const link = lastLink(target.mails, "reset-password")
    for (const email of ["VICTIM@example.com", ` ${victim}`, `${victim} `, "ｖｉｃｔｉｍ@example.com", `${victim}\u0000`]) {
      const variant = await reset(target.config, { token: link.token, email }, "taken over passphrase")
      expect(variant.response.status).toBe(302)
      expect(variant.location).toBe(badLink)
    }
    await signUp(target.config, { email: "new@example.com", password: "new user passphrase" })
    const verify = lastLink(target.mails, "verify-email", "new@example.com")
    expect((await confirm(target.config, { token: verify.token, email: "NEW@example.com" }, "new user passphrase")).location).toBe(badLink)
    expect((await reset(target.config, link, "the victim's new passphrase")).location).toBe(resetDone)
    expect((await confirm(target.config, verify, "new user passphrase")).location).toBe(`${origin}/`)
  })

  // A stolen or forwarded confirmation link is not enough: its page asks for the account's password,
  // and a wrong or missing one must cost the link nothing, or a guess would use up the owner's link.
  it("a wrong or missing password on the confirmation page sends it back with the error, and the link stays usable", async () => {
    const target = app({}, { session: { strategy: "database" } })
    await signUp(target.config, { email: victim, password: victimPassword })
    const link = lastLink(target.mails, "verify-email")
    const browser = new CookieJar()
    const html = await (await send(target.config, link.path, { jar: browser })).text()
    expect(html).toContain('name="password" type="password" autocomplete="current-password" required')
    const { action, fields } = confirmationForm(html)
    expect(fields).not.toHaveProperty("password")
    for (const password of [attackerPassword, "", undefined]) {
      const form = password === undefined ? fields : { ...fields, password }
      const refused = await send(target.config, action, { jar: browser, form })
      expect(refused.headers.get("location"), JSON.stringify(password)).toBe(wrongPasswordPage(link))
      expect(await signedIn(target.config, browser)).toBe(false)
    }
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    expect(target.adapter.tables.sessions.size).toBe(0)

    // The page it goes back to says so, and carries the same link.
    const again = await (await send(target.config, wrongPasswordPage(link), { jar: browser })).text()
    expect(again).toContain('<div class="alert" role="alert">That password is not right.</div>')
    expect(again).toContain('aria-invalid="true"')
    const retry = confirmationForm(again)
    expect(retry.fields).toMatchObject({ token: link.token, email: victim })
    // The right password: confirmed and signed in, and only now is the link used.
    const confirmed = await send(target.config, retry.action, { jar: browser, form: { ...retry.fields, password: victimPassword } })
    expect(confirmed.headers.get("location")).toBe(`${origin}/`)
    expect((await sessionOf(target.config, browser))?.user?.email).toBe(victim)
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeInstanceOf(Date)
    expect((await confirm(target.config, link, victimPassword)).location).toBe(badLink)
  })

  // A link's page shows its address ("confirm victim@… for your account"): an address other than the
  // one sent would let a link's maker put words of his own on the site's page.
  it("a link whose address is not the normalised one is the link error, on its pages and its posts, and the real link stays good", async () => {
    const target = app()
    await signUp(target.config, { email: victim, password: victimPassword })
    const verify = lastLink(target.mails, "verify-email")
    await forgot(target.config, victim)
    const resetLink = lastLink(target.mails, "reset-password")
    const variants = [
      "VICTIM@example.com",
      ` ${victim}`,
      `${victim} `,
      "ｖｉｃｔｉｍ@example.com",
      `${victim}\u0000`,
      `${victim}<script>alert(1)</script>`,
      `${victim}. To finish, call +1 555 0100`,
    ]
    for (const email of variants) {
      for (const [kind, link] of [["verify-email", verify], ["reset-password", resetLink]] as const) {
        const page = await send(target.config, `/auth/${kind}/password?${new URLSearchParams({ token: link.token, email, callbackUrl: `${origin}/` })}`)
        expect(page.headers.get("location"), `GET ${kind} ${JSON.stringify(email)}`).toBe(badLink)
        expect(await page.text()).not.toContain("555 0100")
      }
      expect((await confirm(target.config, { token: verify.token, email }, victimPassword)).location, JSON.stringify(email)).toBe(badLink)
      expect((await reset(target.config, { token: resetLink.token, email }, "taken over passphrase")).location, JSON.stringify(email)).toBe(badLink)
    }
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    // The links as they were sent: their pages open, and each still does its job once.
    for (const link of [verify, resetLink]) expect((await send(target.config, link.path)).status).toBe(200)
    const confirmed = await confirm(target.config, verify, victimPassword)
    expect(confirmed.location).toBe(`${origin}/`)
    expect(await signedIn(target.config, confirmed.jar)).toBe(true)
    expect((await reset(target.config, resetLink, "the victim's new passphrase")).location).toBe(resetDone)
    expect(await signedIn(target.config, (await signIn(target.config, victim, "the victim's new passphrase")).jar)).toBe(true)
  })

  it("every reset link sent before a change of password stops working (changePassword, setPassword)", async () => {
    const target = app()
    await confirmedUser(target)
    await forgot(target.config, victim)
    const beforeChange = lastLink(target.mails, "reset-password")
    const { jar } = await signIn(target.config, victim, victimPassword)
    const request = new Request(`${origin}/settings`, { headers: { cookie: jar.header() } })
    expect(await changePassword(request, target.config, { currentPassword: victimPassword, newPassword: "the changed passphrase" })).toMatchObject({ changed: true })
    expect((await reset(target.config, beforeChange, "stolen link passphrase")).location).toBe(badLink)
    expect(await signedIn(target.config, (await signIn(target.config, victim, "the changed passphrase")).jar)).toBe(true)

    // A user without a password (email links only) is sent a reset link; then sets a password while signed in.
    const browser = new CookieJar()
    await emailLinkSignIn(target, browser, "links@example.com")
    await forgot(target.config, "links@example.com")
    const noPasswordYet = lastLink(target.mails, "reset-password", "links@example.com")
    const signedInRequest = new Request(`${origin}/settings`, { headers: { cookie: browser.header() } })
    expect(await setPassword(signedInRequest, target.config, { newPassword: "first real passphrase" })).toEqual({ set: true })
    expect((await reset(target.config, noPasswordYet, "stolen link passphrase")).location).toBe(badLink)
  })

  it("the reset page keeps its token out of referrers and caches, and a send that fails leaves no usable link", async () => {
    const failing: PasswordEmailParams[] = []
    const target = app({
      sendEmail: (params) => {
        failing.push(params)
        throw new Error(`SMTP refused ${params.url}`)
      },
    })
    await target.adapter.createUser({ id: "v", email: victim, name: null, image: null, emailVerified: new Date() })
    expect((await forgot(target.config, victim)).location).toBe(sentForgot)
    const lost = new URL(failing.at(-1)!.url)
    const token = lost.searchParams.get("token")!
    expect((await reset(target.config, { token, email: victim }, "stolen link passphrase")).location).toBe(badLink)
    // The logged failure names no token.
    expect(target.errors.map((e) => e.message).join("\n")).not.toContain(token)

    const page = await send(target.config, `${lost.pathname}${lost.search}`)
    expect(page.headers.get("referrer-policy")).toBe("strict-origin")
    expect(page.headers.get("cache-control")).toContain("no-store")
  })
})

describe("account pre-takeover: the attacker claims the victim's address first", () => {
  let idp: DevIdp
  beforeAll(async () => {
    // "dev" vouches for its addresses; "loose" hands out an address it never checked (the attacker's account there).
    idp = await startIdp({
      clients: [client("dev"), client("loose")],
      accounts: [
        { id: "victim", email: victim, name: "Victim", email_verified: true },
        { id: "mallory", email: victim, name: "Victim (not really)", email_verified: false },
      ],
    })
  })
  afterAll(() => idp.close())

  const oidcProvider = (id: "dev" | "loose"): OIDCConfig => ({ id, name: id, type: "oidc", issuer: idp.issuer, clientId: id, clientSecret, checks: ["pkce", "nonce"] })

  async function viaIdp(config: AuthConfig, jar: CookieJar, id: "dev" | "loose", login: string): Promise<Response> {
    const start = await startSignIn(config, jar, id, { query: { login_hint: login } })
    return deliver(config, jar, await atProvider(start.headers.get("location")!, callbackUrl(id)))
  }

  function squatTarget(options: Partial<PasswordOptions> = {}, strategy: "database" | "jwt" = "database") {
    return app(options, { session: { strategy }, experimental: { enableWebAuthn: true } }, [Passkey(), oidcProvider("dev"), oidcProvider("loose")])
  }

  it("attacker signs up with the victim's address; the victim then uses an email link: the attacker's password is gone", async () => {
    const target = squatTarget()
    expect((await signUp(target.config, { email: victim, password: attackerPassword })).location).toBe(sentSignUp)
    const browser = new CookieJar()
    await emailLinkSignIn(target, browser, victim)
    expect((await sessionOf(target.config, browser))?.user?.email).toBe(victim)
    const user = (await target.adapter.getUserByEmail(victim))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect(await storedPassword(target.adapter, user.id)).toBeNull()
    expect((await signIn(target.config, victim, attackerPassword)).location).toBe(wrongAnswer)
  })

  // Behaviour change (issue 30): a vouching provider no longer takes an address back; it never
  // merges into an existing user, and the owner's way in is the reset or email link.
  it("attacker signs up with the victim's address; the victim's provider that vouches for it is refused, and never inherits the attacker's password", async () => {
    const target = squatTarget()
    await signUp(target.config, { email: victim, password: attackerPassword })
    const squatted = (await target.adapter.getUserByEmail(victim))!
    const browser = new CookieJar()
    const done = await viaIdp(target.config, browser, "dev", "victim")
    expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await sessionOf(target.config, browser)).toBeNull()
    expect(await target.adapter.getUserByEmail(victim)).toEqual(squatted)
    expect(await target.adapter.getUserByAccount({ provider: "dev", providerAccountId: "victim" })).toBeNull()
  })

  it("attacker signs up with the victim's address; the victim's own sign-up gets the owner's email and its reset link replaces the attacker's password", async () => {
    const target = squatTarget()
    await signUp(target.config, { email: victim, password: attackerPassword })
    expect((await signUp(target.config, { email: victim, password: victimPassword })).location).toBe(sentSignUp)
    // The victim's password was not stored over the attacker's (nor the other way round).
    expect((await signIn(target.config, victim, victimPassword)).location).toBe(wrongAnswer)
    const browser = new CookieJar()
    const done = await follow(target.config, browser, lastLink(target.mails, "account-exists").path, { password: victimPassword })
    expect(done.headers.get("location")).toBe(resetDone)
    expect((await signIn(target.config, victim, attackerPassword)).location).toBe(wrongAnswer)
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)
  })

  // Pre-takeover through the reset flow: the reset link proves the address, so on a user that never
  // proved it, it must set that user aside (account/set-aside.ts) like the email link does, not
  // just mark it verified with the squatter's passkey still on it.
  it("attacker squats the address with a passkey; the victim signs up, resets through the owner's email: the passkey must not sign in any more", async () => {
    const target = squatTarget()
    const key = new SoftAuthenticator()
    const squat = await register(target.config, new CookieJar(), key, victim)
    expect(squat.response.headers.get("location")).toBe(`${origin}/`)
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()

    // The victim, later: signs up (taken: the owner's email), follows its link, chooses a password.
    expect((await signUp(target.config, { email: victim, password: victimPassword })).location).toBe(sentSignUp)
    const done = await follow(target.config, new CookieJar(), lastLink(target.mails, "account-exists").path, { password: victimPassword })
    expect(done.headers.get("location")).toBe(resetDone)
    const owner = (await target.adapter.getUserByEmail(victim))!
    expect(owner.emailVerified).toBeInstanceOf(Date)
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)

    // The attacker comes back with his passkey: it reaches his own, set-aside user only.
    const attacker = new CookieJar()
    await authenticate(target.config, attacker, key)
    expect((await sessionOf(target.config, attacker))?.user?.email).toMatch(/@sesame\.invalid$/)
    expect(await target.adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
  })

  // The same through a provider account: the squatter's account at a provider that does not check
  // addresses must not stay linked after the owner's reset.
  it("attacker squats the address through a provider that does not check it; the victim resets: that account must not sign in any more", async () => {
    const target = squatTarget()
    const squat = await viaIdp(target.config, new CookieJar(), "loose", "mallory")
    expect(squat.headers.get("location")).toBe(`${origin}/`)
    const squatted = (await target.adapter.getUserByEmail(victim))!
    expect(squatted.emailVerified).toBeNull()

    expect((await forgot(target.config, victim)).location).toBe(sentForgot)
    const done = await follow(target.config, new CookieJar(), lastLink(target.mails, "reset-password").path, { password: victimPassword })
    expect(done.headers.get("location")).toBe(resetDone)

    const attacker = new CookieJar()
    await viaIdp(target.config, attacker, "loose", "mallory")
    expect((await sessionOf(target.config, attacker))?.user?.email).toMatch(setAsideAddressOf(squatted.id))
    expect(await target.adapter.listAccountsByUserId((await target.adapter.getUserByEmail(victim))!.id)).toEqual([])
  })

  // Without required confirmation, sign-up signs in at once but must not store the typed address
  // as verified: nothing proved it, and the owner's later proof must find an unproven user to take
  // back, or the attacker's password and session stay in the victim's account.
  it("without required confirmation, the attacker signs up first; the victim's email link must take the address from the attacker's password and session", async () => {
    const target = squatTarget({ requireEmailVerification: false })
    const attacker = (await signUp(target.config, { email: victim, password: attackerPassword })).jar
    expect((await sessionOf(target.config, attacker))?.user?.email).toBe(victim)
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()

    const browser = new CookieJar()
    await emailLinkSignIn(target, browser, victim)
    expect((await sessionOf(target.config, browser))?.user?.email).toBe(victim)

    // His session and password stay with his set-aside user, which no longer holds the address.
    expect((await sessionOf(target.config, attacker))?.user?.email).toMatch(/@sesame\.invalid$/)
    expect((await signIn(target.config, victim, attackerPassword)).location).toBe(wrongAnswer)
  })

  // The same with a vouching provider: refused (it never merges), and then the reset link sets the
  // attacker aside, after which the owner links the provider while signed in.
  it("without required confirmation, the attacker signs up first; the victim's vouching provider is refused until the owner's reset link, then links", async () => {
    const target = squatTarget({ requireEmailVerification: false })
    await signUp(target.config, { email: victim, password: attackerPassword })
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    const browser = new CookieJar()
    const refused = await viaIdp(target.config, browser, "dev", "victim")
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
    await forgot(target.config, victim)
    await follow(target.config, new CookieJar(), lastLink(target.mails, "reset-password").path, { password: victimPassword })
    const signedInJar = (await signIn(target.config, victim, victimPassword)).jar
    expect((await viaIdp(target.config, signedInJar, "dev", "victim")).headers.get("location")).toBe(`${origin}/`)
    expect((await sessionOf(target.config, signedInJar))?.user?.email).toBe(victim)
    expect((await signIn(target.config, victim, attackerPassword)).location).toBe(wrongAnswer)
  })

  // Confirmation must not adopt a password its confirmer never chose: the attacker signs up with the
  // victim's address, then signs in with his password again and again, each time mailing the victim
  // a fresh "confirm your address and finish creating your account" link. Were the link enough, the
  // victim following one would confirm the account with the attacker's password still on it. The
  // confirmation page asks for the account's password, which the victim does not know; the
  // confirmations, counted apart, do not hold back the owner's emails; and the victim's
  // forgotten-password link sets the attacker's user aside.
  it("the attacker's pending sign-up, confirmed by the victim from their inbox, must not keep the attacker's password", async () => {
    const target = squatTarget()
    await signUp(target.config, { email: victim, password: attackerPassword })
    for (let i = 0; i < 3; i++) expect((await signIn(target.config, victim, attackerPassword)).location).toBe(`${origin}/auth/signin?error=EmailNotVerified`)

    expect((await signUp(target.config, { email: victim, password: victimPassword })).location).toBe(sentSignUp)
    // Three confirmations (the fourth was over their limit), and the owner's warning still went.
    expect(target.mails.filter((m) => m.to === victim).map((m) => m.kind)).toEqual(["verify-email", "verify-email", "verify-email", "account-exists"])

    // The victim follows the newest confirmation and types the only password they know.
    const browser = new CookieJar()
    const attempt = lastLink(target.mails, "verify-email")
    const refused = await follow(target.config, browser, attempt.path, { password: victimPassword })
    expect(refused.headers.get("location")).toBe(wrongPasswordPage(attempt))
    expect(await signedIn(target.config, browser)).toBe(false)
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    // So the attacker's account stays unconfirmed: his password does not sign in.
    const early = await signIn(target.config, victim, attackerPassword)
    expect(early.location).toBe(`${origin}/auth/signin?error=EmailNotVerified`)
    expect(await signedIn(target.config, early.jar)).toBe(false)

    // The victim asks for a forgotten-password link instead: it sets the attacker's user aside.
    expect((await forgot(target.config, victim)).location).toBe(sentForgot)
    const done = await follow(target.config, new CookieJar(), lastLink(target.mails, "reset-password", victim).path, { password: victimPassword })
    expect(done.headers.get("location")).toBe(resetDone)
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeInstanceOf(Date)
    const attacker = await signIn(target.config, victim, attackerPassword)
    expect(attacker.location).toBe(wrongAnswer)
    expect(await signedIn(target.config, attacker.jar)).toBe(false)
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)
    // The confirmation the victim could not use was not used up, and it wants the account's password now, the victim's.
    expect((await confirm(target.config, attempt, attackerPassword)).location).toBe(wrongPasswordPage(attempt))
    expect((await confirm(target.config, attempt, victimPassword)).location).toBe(`${origin}/`)
  })
})

describe("cross-site requests", () => {
  /** Every new POST, with the fields a real request would carry. */
  async function endpoints(target: App) {
    await confirmedUser(target)
    await forgot(target.config, victim)
    const resetLink = lastLink(target.mails, "reset-password")
    await signUp(target.config, { email: "pending@example.com", password: "pending passphrase" })
    const verifyLink = lastLink(target.mails, "verify-email", "pending@example.com")
    return [
      ["signup/password", { email: "new@example.com", password: attackerPassword }],
      ["callback/password", { email: victim, password: victimPassword }],
      ["forgot-password/password", { email: victim }],
      ["reset-password/password", { token: resetLink.token, email: resetLink.email, password: attackerPassword }],
      ["verify-email/password", { token: verifyLink.token, email: verifyLink.email, password: "pending passphrase" }],
    ] as const
  }

  /** What a forged post could have changed. */
  async function state(target: App) {
    return {
      mails: target.mails.length,
      newUser: await target.adapter.getUserByEmail("new@example.com"),
      hash: (await storedPassword(target.adapter, (await target.adapter.getUserByEmail(victim))!.id))!.hash,
      pending: (await target.adapter.getUserByEmail("pending@example.com"))!.emailVerified,
    }
  }

  it("a post without the page's CSRF token is refused and changes nothing", async () => {
    const target = app()
    const cases = await endpoints(target)
    const before = await state(target)
    for (const [path, form] of cases) {
      const jar = new CookieJar()
      const forged = await send(target.config, `/auth/${path}`, { jar, form })
      expect(forged.headers.get("location"), path).toContain("error=MissingCSRF")
      expect(jar.get("sesame.session-token"), path).toBeUndefined()
      // A token that is not this browser's is no better.
      const other = await send(target.config, `/auth/${path}`, { jar: new CookieJar(), form: { ...form, csrfToken: await csrfToken(target.config, new CookieJar()) } })
      expect(other.headers.get("location"), path).toContain("error=MissingCSRF")
    }
    expect(await state(target)).toEqual(before)
    // The same posts from the app's page work.
    for (const [path, form] of cases) {
      const honest = await post(target.config, `/auth/${path}`, form)
      expect(honest.location, path).not.toContain("error=")
    }
    expect((await target.adapter.getUserByEmail("pending@example.com"))!.emailVerified).toBeInstanceOf(Date)
  })

  it("another site's post, even with a valid token pair, is refused with 403 and changes nothing", async () => {
    const target = app()
    const cases = await endpoints(target)
    const before = await state(target)
    const forgedHeaders: Record<string, string>[] = [{ origin: "https://evil.example", "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "cross-site" }, { origin: "null" }]
    for (const headers of forgedHeaders) {
      for (const [path, form] of cases) {
        const { response, jar } = await post(target.config, `/auth/${path}`, form, new CookieJar(), headers)
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403)
        expect(response.headers.get("location")).toBeNull()
        expect(jar.get("sesame.session-token")).toBeUndefined()
      }
    }
    expect(await state(target)).toEqual(before)
  })
})

describe("open redirects", () => {
  const hostile = ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "https://localhost:3000.evil.example/"]

  it("sign-up, its emailed link, the link's page and its post never lead off the site", async () => {
    const target = app()
    for (const [i, callbackUrl] of hostile.entries()) {
      const email = `user${i}@example.com`
      const signup = await signUp(target.config, { email, password: "long enough passphrase", callbackUrl })
      expect(new URL(signup.location).origin).toBe(origin)
      expect(signup.location).not.toContain("evil")
      const link = lastLink(target.mails, "verify-email", email)
      expect(link.url.origin).toBe(origin)
      const linkCallback = link.url.searchParams.get("callbackUrl")
      expect(linkCallback === null || new URL(linkCallback).origin === origin).toBe(true)
      // The attacker rewrites the link's callbackUrl before handing it on.
      const doctored = new URL(link.url)
      doctored.searchParams.set("callbackUrl", callbackUrl)
      const page = await (await send(target.config, `${doctored.pathname}${doctored.search}`)).text()
      expect(page).not.toContain("evil.example")
      expect(page).not.toContain("javascript:")
      // A wrong password goes back to the page, a right one confirms: neither leaves the site.
      const wrong = await confirm(target.config, link, "not the password", undefined, { callbackUrl })
      expect(new URL(wrong.location).origin).toBe(origin)
      expect(new URL(wrong.location).searchParams.get("error")).toBe("wrong-password")
      expect(wrong.location).not.toContain("evil")
      expect(wrong.location).not.toContain("javascript")
      const confirmed = await confirm(target.config, link, "long enough passphrase", undefined, { callbackUrl })
      expect(confirmed.location).toBe(`${origin}/`)
      expect(await signedIn(target.config, confirmed.jar)).toBe(true)
    }
  })

  it("forgot-password, its emails and the reset's post never lead off the site; a same-site callbackUrl is kept", async () => {
    const target = app()
    await confirmedUser(target)
    for (const callbackUrl of hostile) {
      for (const email of [victim, "nobody@example.com"]) {
        const asked = await forgot(target.config, email, { callbackUrl })
        expect(asked.location).toBe(sentForgot)
        const sent = target.mails.at(-1)!
        expect(new URL(sent.url).origin).toBe(origin)
        expect(sent.url).not.toContain("evil")
        expect(sent.message.html).not.toContain("evil.example")
      }
    }
    await forgot(target.config, victim)
    const link = lastLink(target.mails, "reset-password")
    for (const callbackUrl of hostile) {
      const weak = await reset(target.config, link, "short", { callbackUrl })
      expect(new URL(weak.location).origin).toBe(origin)
      expect(weak.location).not.toContain("evil")
    }
    const done = await reset(target.config, link, "a fresh passphrase", { callbackUrl: "https://evil.example/" })
    expect(done.location).toBe(resetDone)
    // The legitimate case: a page of the site survives the trip.
    const keep = await forgot(target.config, "nobody@example.com", { callbackUrl: `${origin}/account` })
    expect(keep.location).toBe(`${sentForgot}&callbackUrl=${encodeURIComponent(`${origin}/account`)}`)
  })

  it("the forms' pages do not carry another site's callbackUrl in their forms or links", async () => {
    const target = app()
    for (const page of ["signup", "forgot-password", "signin"]) {
      for (const callbackUrl of hostile) {
        const html = await (await send(target.config, `/auth/${page}?callbackUrl=${encodeURIComponent(callbackUrl)}`)).text()
        expect(html, `${page} ${callbackUrl}`).not.toContain("evil.example")
        expect(html).not.toContain("javascript:")
      }
    }
  })
})

describe("injection through names, addresses and the query", () => {
  it("a name with markup and line breaks is stored without control characters and never reaches a header or an email", async () => {
    const target = app({ requireEmailVerification: false })
    const name = '<script>alert(1)</script>\r\nSet-Cookie: planted=1\r\n\u0000"'
    const { response, jar } = await signUp(target.config, { email: "named@example.com", password: "long enough passphrase", name })
    expect(response.headers.getSetCookie().some((c) => c.startsWith("planted"))).toBe(false)
    const user = (await target.adapter.getUserByEmail("named@example.com"))!
    expect(user.name).not.toMatch(/[\r\n\u0000]/)
    expect((await sessionOf(target.config, jar))?.user?.name).toBe(user.name)
    await forgot(target.config, "named@example.com")
    expect(JSON.stringify(target.mails.map((m) => m.message))).not.toContain("<script>")
  })

  it("an address with a header break, a second recipient or a display name is refused before any email", async () => {
    const target = app()
    const hostile = [
      `${victim}\r\nBcc: mallory@evil.example`,
      `${victim}\nBcc: mallory@evil.example`,
      `${victim},mallory@evil.example`,
      `${victim};mallory@evil.example`,
      `"Victim" <mallory@evil.example>`,
      `mallory@evil.example <${victim}>`,
      `victim@example.com@evil.example`,
      `mallory@evil.example\u0000${victim}`,
    ]
    for (const email of hostile) {
      expect((await signUp(target.config, { email, password: "long enough passphrase" })).location).toBe(`${origin}/auth/signup?error=invalid-email`)
      expect((await forgot(target.config, email)).location).toBe(`${origin}/auth/forgot-password?error=invalid-email`)
      expect((await signIn(target.config, email, "long enough passphrase")).location).toBe(wrongAnswer)
    }
    expect(target.mails).toEqual([])
    expect(target.adapter.tables.users.size).toBe(0)
  })

  it("query values reach the pages escaped, and unknown error and notice codes are never echoed", async () => {
    const target = app()
    const markup = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    const q = encodeURIComponent(markup)
    const pages = [
      `/auth/signup?error=${q}&email=${q}`,
      `/auth/forgot-password?error=${q}&email=${q}`,
      `/auth/signin?error=${q}&notice=${q}&email=${q}`,
      // A link's address must be the one sent (see "a link whose address is not normalised…"): the rest is the maker's.
      `/auth/reset-password/password?token=${q}&email=${encodeURIComponent(victim)}&error=${q}`,
      `/auth/verify-email/password?token=${q}&email=${encodeURIComponent(victim)}&callbackUrl=${q}&error=${q}`,
      `/auth/signin?notice=${q}`,
      `/auth/signup?error=__proto__`,
      `/auth/signup?error=constructor`,
      `/auth/signin?notice=constructor`,
    ]
    for (const path of pages) {
      const response = await send(target.config, path)
      expect(response.status, path).toBe(200)
      const html = await response.text()
      expect(html, path).not.toContain("<script>alert")
      expect(html, path).not.toContain("<img src=x")
      expect(html, path).not.toMatch(/value="[^"]*"><script/)
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp, path).toContain("default-src")
      expect(csp).not.toContain("unsafe-inline")
    }
    // The values did reach the pages that show them, escaped (so the checks above look at real output).
    for (const path of pages.slice(3, 5)) expect(await (await send(target.config, path)).text(), path).toContain('name="token" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(await (await send(target.config, pages[0]!)).text()).toContain('value="&quot;&gt;&lt;script&gt;')
  })

  it("a link's token with a line break goes back in a Location only encoded", async () => {
    const target = app()
    const weak = await reset(target.config, { token: "abc\r\nSet-Cookie: planted=1", email: `${victim}\r\nX-Injected: 1` }, "short")
    expect(weak.response.headers.get("x-injected")).toBeNull()
    expect(weak.response.headers.getSetCookie().some((c) => c.startsWith("planted"))).toBe(false)
    expect(weak.location).not.toMatch(/[\r\n]/)
    expect(new URL(weak.location).origin).toBe(origin)
  })
})

describe("throttling bypasses", () => {
  it("the address in other cases, with spaces or in full-width letters is one account for the throttle", async () => {
    const target = app()
    await confirmedUser(target)
    const variants = ["VICTIM@example.com", ` ${victim} `, "Victim@Example.COM", "ｖｉｃｔｉｍ@example.com", `${victim}\t`]
    for (const [i, email] of variants.entries()) expect((await signIn(target.config, email, `guess ${i}`)).response.headers.get("retry-after")).toBeNull()
    for (const email of [victim, ...variants]) {
      const refused = await signIn(target.config, email, victimPassword)
      expect(refused.location, JSON.stringify(email)).toBe(wrongAnswer)
      expect(refused.response.headers.get("retry-after"), JSON.stringify(email)).not.toBeNull()
      expect(await signedIn(target.config, refused.jar)).toBe(false)
    }
  })

  it("changePassword and the sign-in form share one throttle: guesses on one count on the other", async () => {
    const target = app()
    await confirmedUser(target)
    const { jar } = await signIn(target.config, victim, victimPassword)
    const request = () => new Request(`${origin}/settings`, { headers: { cookie: jar.header() } })
    // Three guesses through the form, two through changePassword: the sixth is refused on either.
    for (let i = 0; i < 3; i++) await signIn(target.config, victim, `form guess ${i}`)
    for (let i = 0; i < 2; i++) expect(await changePassword(request(), target.config, { currentPassword: `fn guess ${i}`, newPassword: "a new long passphrase" })).toEqual({ changed: false, reason: "WrongPassword" })
    const refused = await signIn(target.config, victim, victimPassword)
    expect(refused.response.headers.get("retry-after")).not.toBeNull()
    expect(await signedIn(target.config, refused.jar)).toBe(false)
    expect(await changePassword(request(), target.config, { currentPassword: victimPassword, newPassword: "a new long passphrase" })).toMatchObject({ changed: false, reason: "TooManyAttempts" })
  })

  // The confirmation post checks a password too, with or without a real link: it must not be a
  // second, unthrottled way to guess one.
  it("guessing passwords through the confirmation endpoint hits the throttle shared with sign-in, and the refusals cost the link nothing", async () => {
    const target = app()
    await signUp(target.config, { email: victim, password: victimPassword })
    const link = lastLink(target.mails, "verify-email")
    const madeUp = { token: "A".repeat(43), email: victim }
    // Three guesses through confirmations (one without a real link), two through the sign-in form: the five free ones.
    for (const [i, guess] of [madeUp, link, link].entries()) expect((await confirm(target.config, guess, `link guess ${i}`)).location).toBe(wrongPasswordPage(guess))
    for (let i = 0; i < 2; i++) expect((await signIn(target.config, victim, `form guess ${i}`)).location).toBe(wrongAnswer)
    const verify = vi.spyOn(target.hasher, "verify")
    // The sixth is refused on either, right password and all, unchecked, answered like a wrong password at sign-in.
    for (const attempt of [() => confirm(target.config, link, victimPassword), () => signIn(target.config, victim, victimPassword)]) {
      const refused = await attempt()
      expect(await answer(refused.response)).toMatchObject({ status: 302, location: wrongAnswer, retryAfter: "1" })
      expect(await signedIn(target.config, refused.jar)).toBe(false)
    }
    expect(verify).not.toHaveBeenCalled()
    expect((await target.adapter.getUserByEmail(victim))!.emailVerified).toBeNull()
    // Once the wait is over, the owner confirms with the same link.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const confirmed = await confirm(target.config, link, victimPassword)
    expect(confirmed.location).toBe(`${origin}/`)
    expect(await signedIn(target.config, confirmed.jar)).toBe(true)
  })

  it("sign-up never checks a password against a taken address, so it cannot be used to guess one", async () => {
    const target = app()
    await confirmedUser(target)
    const verify = vi.spyOn(target.hasher, "verify")
    for (let i = 0; i < 10; i++) expect((await signUp(target.config, { email: victim, password: i === 5 ? victimPassword : `guess number ${i}` })).location).toBe(sentSignUp)
    expect(verify).not.toHaveBeenCalled()
    // And it leaves the sign-in throttle alone: the owner still signs in at once.
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)
  })

  it("the email limit per address holds across case, spaces and full-width variants and across the flows", async () => {
    const target = app()
    await target.adapter.createUser({ id: "v", email: victim, name: null, image: null, emailVerified: new Date() })
    const variants = [victim, "VICTIM@example.com", ` ${victim}`, "ｖｉｃｔｉｍ@example.com", "Victim@EXAMPLE.com"]
    for (const email of variants) expect((await forgot(target.config, email)).location).toBe(sentForgot)
    for (const email of variants) expect((await signUp(target.config, { email, password: attackerPassword })).location).toBe(sentSignUp)
    expect(target.mails.filter((m) => m.to === victim)).toHaveLength(3)
    expect(new Set(target.mails.map((m) => m.to))).toEqual(new Set([victim]))
    // Confirmation links have a limit of their own, held the same way, and using it up holds back none of the owner's emails.
    await signUp(target.config, { email: "pending@example.com", password: "pending passphrase" })
    for (const email of ["PENDING@example.com", " pending@example.com", "ｐｅｎｄｉｎｇ@example.com", "Pending@Example.com"]) {
      expect((await signIn(target.config, email, "pending passphrase")).location).toBe(`${origin}/auth/signin?error=EmailNotVerified`)
    }
    expect(target.mails.filter((m) => m.to === "pending@example.com").map((m) => m.kind)).toEqual(["verify-email", "verify-email", "verify-email"])
    expect((await forgot(target.config, "pending@example.com")).location).toBe(sentForgot)
    expect(target.mails.at(-1)).toMatchObject({ to: "pending@example.com", kind: "reset-password" })
  })

  it("a guess on an unconfirmed account is throttled before the password is checked, so EmailNotVerified is no faster oracle", async () => {
    const target = app()
    await signUp(target.config, { email: victim, password: victimPassword })
    for (let i = 0; i < 5; i++) expect((await signIn(target.config, victim, `guess ${i}`)).location).toBe(wrongAnswer)
    const refused = await signIn(target.config, victim, victimPassword)
    expect(refused.location).toBe(wrongAnswer)
    expect(refused.response.headers.get("retry-after")).toBe("1")
  })
})

describe("races", () => {
  it("two sign-ups with one address at once make one user with one of the two passwords; both see 'check your email'", async () => {
    const target = app()
    const [a, b] = await Promise.all([
      signUp(target.config, { email: victim, password: "first racing passphrase", name: "First" }),
      signUp(target.config, { email: victim, password: "second racing passphrase", name: "Second" }),
    ])
    expect(a.location).toBe(sentSignUp)
    expect(b.location).toBe(sentSignUp)
    expect([...target.adapter.tables.users.values()].filter((u) => u.email === victim)).toHaveLength(1)
    const user = (await target.adapter.getUserByEmail(victim))!
    const hash = (await storedPassword(target.adapter, user.id))!.hash
    const matches = await Promise.all(["first racing passphrase", "second racing passphrase"].map((p) => target.hasher.verify(hash, p)))
    expect(matches.filter(Boolean)).toHaveLength(1)
    expect(target.mails.map((m) => m.kind).sort()).toEqual(["account-exists", "verify-email"])
    expect(target.errors).toEqual([])
  })

  it("two resets with two different links at once leave the account with one of the two passwords, and both old links dead", async () => {
    const target = app()
    await confirmedUser(target)
    await forgot(target.config, victim)
    const one = lastLink(target.mails, "reset-password")
    await forgot(target.config, victim)
    const two = lastLink(target.mails, "reset-password")
    await Promise.all([reset(target.config, one, "passphrase from link one"), reset(target.config, two, "passphrase from link two")])
    const works = await Promise.all(["passphrase from link one", "passphrase from link two"].map(async (p) => signedIn(target.config, (await signIn(target.config, victim, p)).jar)))
    expect(works.filter(Boolean)).toHaveLength(1)
    expect((await reset(target.config, one, "a third passphrase")).location).toBe(badLink)
    expect((await reset(target.config, two, "a third passphrase")).location).toBe(badLink)
  })
})

describe("oversize and malformed input", () => {
  const megabyte = "x".repeat(1_000_000)
  const longAddress = `${"a".repeat(10_000)}@example.com`

  it("a 1 MB password is refused like a wrong or too long one, without being hashed", async () => {
    const target = app()
    await confirmedUser(target)
    await forgot(target.config, victim)
    const link = lastLink(target.mails, "reset-password")
    const hash = vi.spyOn(target.hasher, "hash")
    const verify = vi.spyOn(target.hasher, "verify")
    expect((await signIn(target.config, victim, megabyte)).location).toBe(wrongAnswer)
    expect((await signUp(target.config, { email: "big@example.com", password: megabyte })).location).toBe(`${origin}/auth/signup?error=too-long&email=big%40example.com`)
    const tooLong = await reset(target.config, link, megabyte)
    expect(new URL(tooLong.location).searchParams.get("error")).toBe("too-long")
    expect(hash).not.toHaveBeenCalled()
    expect(verify).not.toHaveBeenCalled()
    const { jar } = await signIn(target.config, victim, victimPassword)
    const request = new Request(`${origin}/settings`, { headers: { cookie: jar.header() } })
    expect(await changePassword(request, target.config, { currentPassword: megabyte, newPassword: "a new long passphrase" })).toEqual({ changed: false, reason: "WrongPassword" })
    expect(await changePassword(request, target.config, { currentPassword: victimPassword, newPassword: megabyte })).toEqual({ changed: false, reason: "too-long" })
    // The link survived the refused password.
    expect((await reset(target.config, link, "a sane new passphrase")).location).toBe(resetDone)
  })

  it("a body over the limit is a 413, on every new endpoint", async () => {
    const target = app()
    const huge = "x".repeat(1_100_000)
    for (const path of ["signup/password", "callback/password", "forgot-password/password", "reset-password/password", "verify-email/password"]) {
      const { response } = await post(target.config, `/auth/${path}`, { email: victim, password: huge, token: "t" })
      expect(response.status, path).toBe(413)
    }
  })

  it("a 10,000-character address gets the form's error or the link error, never a 500", async () => {
    const target = app()
    expect((await signUp(target.config, { email: longAddress, password: "long enough passphrase" })).location).toBe(`${origin}/auth/signup?error=invalid-email`)
    expect((await forgot(target.config, longAddress)).location).toBe(`${origin}/auth/forgot-password?error=invalid-email`)
    expect((await signIn(target.config, longAddress, "long enough passphrase")).location).toBe(wrongAnswer)
    expect((await reset(target.config, { token: "t", email: longAddress }, "long enough passphrase")).location).toBe(badLink)
    expect((await confirm(target.config, { token: "t", email: longAddress }, "long enough passphrase")).location).toBe(badLink)
    for (const path of ["reset-password", "verify-email"]) {
      const page = await send(target.config, `/auth/${path}/password?token=t&email=${longAddress}`)
      expect(page.status).toBeLessThan(500)
    }
    const form = await send(target.config, `/auth/signup?email=${longAddress}`)
    expect(form.status).toBeLessThan(500)
    expect(target.mails).toEqual([])
  })

  it("a 1 MB name is cut, not refused or stored whole", async () => {
    const target = app()
    expect((await signUp(target.config, { email: "long@example.com", password: "long enough passphrase", name: megabyte.slice(0, 900_000) })).location).toBe(sentSignUp)
    expect((await target.adapter.getUserByEmail("long@example.com"))!.name!.length).toBeLessThanOrEqual(200)
  })

  it("JSON bodies with fields of the wrong types get a 4xx or the form's answer, never a 500", async () => {
    const target = app()
    await confirmedUser(target)
    const odd: unknown[] = [null, 42, true, ["a@b.c"], { toString: "x" }, { length: 3 }]
    const paths = ["signup/password", "callback/password", "forgot-password/password", "reset-password/password", "verify-email/password"]
    for (const path of paths) {
      for (const value of odd) {
        const jar = new CookieJar()
        const token = await csrfToken(target.config, jar)
        const response = await send(target.config, `/auth/${path}`, {
          jar,
          json: { csrfToken: token, email: value, password: value, name: value, token: value, callbackUrl: value },
        })
        expect(response.status, `${path} ${JSON.stringify(value)}`).toBeLessThan(500)
        expect(await signedIn(target.config, jar)).toBe(false)
      }
    }
    expect(target.errors.filter((e) => !/EmailSignIn|Verification|CredentialsSignin/.test(e.name))).toEqual([])
    expect(await signedIn(target.config, (await signIn(target.config, victim, victimPassword)).jar)).toBe(true)
  })
})

describe("wrong method, wrong provider", () => {
  it("GET on the endpoints that only take a POST is a 4xx and does nothing", async () => {
    const target = app()
    await confirmedUser(target)
    const before = target.mails.length
    for (const path of [
      `/auth/signup/password?email=new%40example.com&password=long+enough+passphrase`,
      `/auth/forgot-password/password?email=${encodeURIComponent(victim)}`,
      `/auth/callback/password?email=${encodeURIComponent(victim)}&password=${encodeURIComponent(victimPassword)}`,
    ]) {
      const jar = new CookieJar()
      const response = await send(target.config, path, { jar })
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(response.status, path).toBeLessThan(500)
      expect(jar.get("sesame.session-token")).toBeUndefined()
    }
    expect(target.mails.length).toBe(before)
    expect(await target.adapter.getUserByEmail("new@example.com")).toBeNull()
    // And a POST to the pages that name no provider is not served either.
    for (const path of ["/auth/signup", "/auth/forgot-password"]) {
      const { response } = await post(target.config, path, { email: "new@example.com", password: "long enough passphrase" })
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(response.status, path).toBeLessThan(500)
    }
    expect(target.mails.length).toBe(before)
  })

  it("the new endpoints refuse an unknown provider and a provider of another kind with a 4xx, and do nothing", async () => {
    const target = app()
    await confirmedUser(target)
    await forgot(target.config, victim)
    const link = lastLink(target.mails, "reset-password")
    const before = target.mails.length
    const ids = ["email", "nope", "__proto__", "constructor", "%2e%2e", "password%00", "PASSWORD"]
    for (const id of ids) {
      for (const action of ["signup", "forgot-password", "reset-password", "verify-email"]) {
        const { response } = await post(target.config, `/auth/${action}/${id}`, { email: victim, password: attackerPassword, token: link.token })
        expect(response.status, `POST ${action}/${id}`).toBeGreaterThanOrEqual(400)
        expect(response.status, `POST ${action}/${id}`).toBeLessThan(500)
      }
      for (const action of ["reset-password", "verify-email"]) {
        const response = await send(target.config, `/auth/${action}/${id}?token=${link.token}&email=${encodeURIComponent(victim)}`)
        expect(response.status, `GET ${action}/${id}`).toBeGreaterThanOrEqual(400)
        expect(response.status, `GET ${action}/${id}`).toBeLessThan(500)
      }
    }
    expect(target.mails.length).toBe(before)
    // The link was not touched: it still resets, through the password provider.
    expect((await reset(target.config, link, "a fresh passphrase")).location).toBe(resetDone)
  })

  it("without a password provider, the pages are 404s", async () => {
    const email = recordingEmail()
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [email.provider], logger: { error: () => {}, warn: () => {}, debug: () => {} } }
    for (const path of ["/auth/signup", "/auth/forgot-password"]) expect((await send(config, path)).status, path).toBe(404)
  })
})
