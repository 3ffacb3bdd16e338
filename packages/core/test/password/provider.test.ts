/**
 * The password provider through `Auth()`: sign-up, confirmation, sign-in, forgotten password and
 * reset, each with its bad inputs and the attacks on it (enumeration, replayed and expired links,
 * mail scanners, a second sign-up over a pending one, a change of password racing a sign-in).
 */
import type { AdapterUser } from "@sesame/core/adapters"
import type { AuthConfig, PasswordChangeMessage, PasswordEmailParams, SignInFailureMessage } from "@sesame/core"
import { changePassword, hasPassword, setPassword } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Email from "@sesame/core/providers/email"
import Passkey from "@sesame/core/providers/passkey"
import Password, { type PasswordOptions } from "@sesame/core/providers/password"
import { argon2id, withLegacyHashes } from "@sesame/core/password"
import bcrypt from "bcryptjs"
import { describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, origin, recordingLogger, secret, send } from "../helpers.js"
import { passwordModel, storedPassword, storePassword } from "../../src/password/storage.js"

/** Cheap Argon2id parameters: the tests check the flows, not the cost. */
const fastHasher = () => argon2id({ memoryCost: 64, timeCost: 1 })
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

function setup(options: Partial<PasswordOptions> = {}, overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const mails: PasswordEmailParams[] = []
  const events = { failures: [] as SignInFailureMessage[], changes: [] as PasswordChangeMessage[] }
  const hasher = options.hasher ?? fastHasher()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: (params) => void mails.push(params), hasher, ...options })],
    events: { signInFailure: (m) => void events.failures.push(m), passwordChange: (m) => void events.changes.push(m) },
    logger: quiet,
    ...overrides,
  }
  return { config, adapter, mails, events, hasher }
}

type Setup = ReturnType<typeof setup>

async function post(config: AuthConfig, path: string, form: Record<string, string>, jar = new CookieJar()) {
  const response = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "", jar }
}

const signUp = (config: AuthConfig, form: Record<string, string>, jar?: CookieJar) => post(config, "/auth/signup/password", form, jar)
const signIn = (config: AuthConfig, email: string, password: string, jar?: CookieJar) => post(config, "/auth/callback/password", { email, password }, jar)
const forgot = (config: AuthConfig, email: string) => post(config, "/auth/forgot-password/password", { email })
const signedIn = (jar: CookieJar) => jar.get("sesame.session-token") !== undefined

/** The link of the last email of `kind`, with its token and address. */
function lastLink(mails: PasswordEmailParams[], kind: PasswordEmailParams["kind"]) {
  const mail = mails.filter((m) => m.kind === kind).at(-1)
  if (!mail) throw new Error(`no ${kind} email`)
  const url = new URL(mail.url)
  return { url, path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")!, email: url.searchParams.get("email")! }
}

/** Signs up and confirms Ada; returns her user. */
async function adaConfirmed({ config, adapter, mails }: Setup, password = "correct horse battery"): Promise<AdapterUser> {
  await signUp(config, { email: "ada@example.com", password, name: "Ada" })
  const link = lastLink(mails, "verify-email")
  await post(config, `/auth/verify-email/password`, { token: link.token, email: link.email, password })
  return (await adapter.getUserByEmail!("ada@example.com"))!
}

const sentSignUp = `${origin}/auth/signup?sent=1`
const wrongAnswer = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`

describe("sign-up and confirmation", () => {
  it("stores the user unconfirmed with an Argon2id hash, emails a link whose page consumes nothing, and the posted link confirms and signs in", async () => {
    const s = setup()
    const { location } = await signUp(s.config, { email: " Ada@Example.com ", password: "correct horse battery", name: " Ada Lovelace " })
    expect(location).toBe(sentSignUp)
    const user = (await s.adapter.getUserByEmail!("ada@example.com"))!
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", emailVerified: null })
    expect((await storedPassword(s.adapter, user.id))!.hash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/)
    expect(s.mails).toHaveLength(1)
    expect(s.mails[0]).toMatchObject({ kind: "verify-email", to: "ada@example.com" })
    expect(s.mails[0]!.message.subject).toBe("Confirm your email address for localhost:3000")
    expect(s.mails[0]!.message.text).toContain(s.mails[0]!.url)

    // A mail scanner opens the link (twice); a prefetch gets nothing at all.
    const link = lastLink(s.mails, "verify-email")
    expect((await send(s.config, link.path, { headers: { "sec-purpose": "prefetch" } })).status).toBe(503)
    for (let i = 0; i < 2; i++) {
      const page = await send(s.config, link.path)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain("To confirm ada@example.com for your account on localhost:3000, enter the password you chose")
      expect(html).toContain('autocomplete="current-password"')
    }
    expect((await s.adapter.getUserByEmail!("ada@example.com"))!.emailVerified).toBeNull()

    // Only whoever chose the password can confirm: a wrong one goes back to the page, the link kept.
    const wrong = await post(s.config, "/auth/verify-email/password", { token: link.token, email: link.email, password: "not my password" })
    expect(wrong.location).toBe(`${origin}/auth/verify-email/password?token=${link.token}&email=ada%40example.com&callbackUrl=${encodeURIComponent(`${origin}/`)}&error=wrong-password`)
    expect(signedIn(wrong.jar)).toBe(false)
    expect(await (await send(s.config, wrong.location)).text()).toContain("That password is not right.")
    const confirmed = await post(s.config, "/auth/verify-email/password", { token: link.token, email: link.email, password: "correct horse battery" })
    expect(confirmed.location).toBe(`${origin}/`)
    expect(signedIn(confirmed.jar)).toBe(true)
    expect((await s.adapter.getUserByEmail!("ada@example.com"))!.emailVerified).toBeInstanceOf(Date)

    // Used once: a replay (another browser) gets the Verification error, and no session.
    const replay = await post(s.config, "/auth/verify-email/password", { token: link.token, email: link.email, password: "correct horse battery" })
    expect(replay.location).toBe(`${origin}/auth/error?error=Verification`)
    expect(signedIn(replay.jar)).toBe(false)
  })

  it("refuses a confirmation post without the page's CSRF token (another site cannot confirm for the visitor)", async () => {
    const s = setup()
    await signUp(s.config, { email: "ada@example.com", password: "correct horse battery" })
    const link = lastLink(s.mails, "verify-email")
    const forged = await send(s.config, "/auth/verify-email/password", { form: { token: link.token, email: link.email, password: "correct horse battery" } })
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    // The link is still good for its owner.
    expect(signedIn((await post(s.config, "/auth/verify-email/password", { token: link.token, email: link.email, password: "correct horse battery" })).jar)).toBe(true)
  })

  it("answers a taken address exactly like a new one, changes nothing, and tells the owner instead", async () => {
    const s = setup()
    const ada = await adaConfirmed(s)
    const hashBefore = (await storedPassword(s.adapter, ada.id))!.hash
    const hashes = vi.spyOn(s.hasher, "hash")
    const taken = await signUp(s.config, { email: "ada@example.com", password: "attacker password 1", name: "Mallory" })
    const fresh = await signUp(s.config, { email: "grace@example.com", password: "attacker password 1", name: "Grace" })
    expect(taken.location).toBe(sentSignUp)
    expect(fresh.location).toBe(sentSignUp)
    expect(taken.response.status).toBe(fresh.response.status)
    // The same work on both paths: one hash each (so the two take about as long).
    expect(hashes).toHaveBeenCalledTimes(2)
    expect((await storedPassword(s.adapter, ada.id))!.hash).toBe(hashBefore)
    expect((await s.adapter.getUserByEmail!("ada@example.com"))!.name).toBe("Ada")
    const toAda = s.mails.filter((m) => m.to === "ada@example.com").at(-1)!
    expect(toAda.kind).toBe("account-exists")
    expect(toAda.message.text).toContain("already has one")
    // Its link lets the owner choose a new password.
    expect(new URL(toAda.url).pathname).toBe("/auth/reset-password/password")
  })

  it("does not let a second sign-up replace the password of an unconfirmed one", async () => {
    const s = setup()
    await signUp(s.config, { email: "ada@example.com", password: "first password here" })
    const user = (await s.adapter.getUserByEmail!("ada@example.com"))!
    const hash = (await storedPassword(s.adapter, user.id))!.hash
    expect((await signUp(s.config, { email: "ada@example.com", password: "second password here" })).location).toBe(sentSignUp)
    expect((await storedPassword(s.adapter, user.id))!.hash).toBe(hash)
    expect(s.mails.map((m) => m.kind)).toEqual(["verify-email", "account-exists"])
  })

  it("sends weak, breached and context passwords back to the form with the reason, never the password, and stores nothing", async () => {
    const breached = vi.fn(async (password: string) => password === "password1234")
    const s = setup({ policy: { breached } })
    const cases: [string, string][] = [
      ["tiny pw", "too-short"],
      ["x".repeat(257), "too-long"],
      ["password1234", "breached"],
      ["ada@example.com", "matches-context"],
    ]
    for (const [password, reason] of cases) {
      const { location } = await signUp(s.config, { email: "ada@example.com", password })
      expect(location).toBe(`${origin}/auth/signup?error=${reason}&email=ada%40example.com`)
      expect(location).not.toContain("password=")
      if (reason !== "matches-context") expect(decodeURIComponent(location)).not.toContain(password.slice(0, 6))
    }
    expect((await signUp(s.config, { email: "ada@@example.com", password: "long enough password" })).location).toBe(`${origin}/auth/signup?error=invalid-email`)
    expect(await s.adapter.getUserByEmail!("ada@example.com")).toBeNull()
    expect(s.mails).toEqual([])
    // The page names the reason in words.
    const page = await send(s.config, "/auth/signup?error=breached&email=ada%40example.com")
    const html = await page.text()
    expect(html).toContain("This password has appeared in a data breach")
    expect(html).toContain('value="ada@example.com"')
    // An unknown reason is never echoed.
    expect(await (await send(s.config, "/auth/signup?error=%3Cscript%3E")).text()).not.toContain("<script>")
  })

  it("with requireEmailVerification: false, signs a new account in at once, its address still unproven", async () => {
    const s = setup({ requireEmailVerification: false })
    const { location, jar } = await signUp(s.config, { email: "ada@example.com", password: "correct horse battery" })
    expect(location).toBe(`${origin}/`)
    expect(signedIn(jar)).toBe(true)
    // Nothing proved the address: its owner's proof would set it aside (account/set-aside.ts).
    expect((await s.adapter.getUserByEmail!("ada@example.com"))!.emailVerified).toBeNull()
    expect(s.mails).toEqual([])
  })

  it("with signUp: false, has no sign-up page or endpoint, and the sign-in page offers none", async () => {
    const s = setup({ signUp: false })
    expect((await send(s.config, "/auth/signup")).status).toBe(404)
    expect((await signUp(s.config, { email: "ada@example.com", password: "correct horse battery" })).response.status).toBe(404)
    const page = await (await send(s.config, "/auth/signin")).text()
    expect(page).toContain("/auth/forgot-password?")
    expect(page).not.toContain("/auth/signup?")
  })
})

describe("sign-in", () => {
  it("signs in with the right password only, and answers an unknown address like a wrong password, with the same work", async () => {
    const s = setup()
    await adaConfirmed(s)
    const verify = vi.spyOn(s.hasher, "verify")
    expect((await signIn(s.config, "ada@example.com", "wrong password")).location).toBe(wrongAnswer)
    expect((await signIn(s.config, "nobody@example.com", "wrong password")).location).toBe(wrongAnswer)
    // One verification each: a real hash, then a dummy one of the same cost.
    expect(verify).toHaveBeenCalledTimes(2)
    expect(verify.mock.calls[1]![0]).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/)
    const ok = await signIn(s.config, "ADA@example.com", "correct horse battery")
    expect(ok.location).toBe(`${origin}/`)
    expect(signedIn(ok.jar)).toBe(true)
    const session = await (await send(s.config, "/auth/session", { jar: ok.jar })).json()
    expect(session.user).toMatchObject({ email: "ada@example.com", name: "Ada" })
    expect(s.events.failures.map((f) => [f.identifier, f.reason])).toEqual([
      ["ada@example.com", "credentials"],
      ["nobody@example.com", "credentials"],
    ])
    expect(JSON.stringify(s.events.failures)).not.toContain("wrong password")
  })

  it("refuses an unconfirmed address even with the right password, and sends a new link; a wrong password gets no link", async () => {
    const s = setup()
    await signUp(s.config, { email: "ada@example.com", password: "correct horse battery" })
    expect((await signIn(s.config, "ada@example.com", "wrong password")).location).toBe(wrongAnswer)
    expect(s.mails).toHaveLength(1)
    const unconfirmed = await signIn(s.config, "ada@example.com", "correct horse battery")
    expect(unconfirmed.location).toBe(`${origin}/auth/signin?error=EmailNotVerified`)
    expect(signedIn(unconfirmed.jar)).toBe(false)
    expect(s.mails.map((m) => m.kind)).toEqual(["verify-email", "verify-email"])
    expect(s.events.failures.at(-1)).toEqual({ provider: "password", identifier: "ada@example.com", reason: "unverified" })
    expect(await (await send(s.config, unconfirmed.location)).text()).toContain("Confirm your email address first")
  })

  it("throttles guessing with the answer of a wrong password plus Retry-After", async () => {
    const s = setup()
    await adaConfirmed(s)
    for (let i = 0; i < 5; i++) expect((await signIn(s.config, "ada@example.com", `guess ${i}`)).response.headers.get("retry-after")).toBeNull()
    const refused = await signIn(s.config, "ada@example.com", "correct horse battery")
    expect(refused.location).toBe(wrongAnswer)
    expect(refused.response.headers.get("retry-after")).toBe("1")
    expect(signedIn(refused.jar)).toBe(false)
  })

  it("counts wrong passwords per client address too: a password sprayed over many accounts from one address is throttled", async () => {
    const s = setup({ throttle: { ip: { freeAttempts: 3 } } })
    const from = (ip: string) => ({ "x-forwarded-for": ip })
    const attempt = async (email: string, ip: string) => {
      const jar = new CookieJar()
      const form = { csrfToken: await csrfToken(s.config, jar), email, password: "Summer2026!" }
      return send(s.config, "/auth/callback/password", { jar, form, headers: from(ip) })
    }
    for (let i = 0; i < 3; i++) expect((await attempt(`user${i}@example.com`, "203.0.113.7")).headers.get("retry-after")).toBeNull()
    const sprayed = await attempt("user3@example.com", "203.0.113.7")
    expect(sprayed.headers.get("location")).toBe(wrongAnswer)
    expect(sprayed.headers.get("retry-after")).toBe("1")
    // Another client is not held back.
    expect((await attempt("user3@example.com", "198.51.100.2")).headers.get("retry-after")).toBeNull()
  })

  it("rehashes a hash made with older parameters at the next sign-in", async () => {
    const s = setup()
    const ada = await adaConfirmed(s)
    const upgraded = { ...s.config, providers: [Password({ sendEmail: () => {}, hasher: argon2id({ memoryCost: 128, timeCost: 2 }) })] }
    expect(signedIn((await signIn(upgraded, "ada@example.com", "correct horse battery")).jar)).toBe(true)
    expect((await storedPassword(s.adapter, ada.id))!.hash).toMatch(/^\$argon2id\$v=19\$m=128,t=2,p=1\$/)
    expect(signedIn((await signIn(upgraded, "ada@example.com", "correct horse battery")).jar)).toBe(true)
  })

  it("accepts an imported bcrypt hash and replaces it with Argon2id; a wrong password leaves it", async () => {
    const bcryptFormat = { matches: (hash: string) => /^\$2[aby]\$/.test(hash), verify: (hash: string, password: string) => bcrypt.compare(password, hash) }
    const s = setup({ hasher: withLegacyHashes(fastHasher(), [bcryptFormat]) })
    const user = await s.adapter.createUser!({ id: "imported", email: "grace@example.com", name: "Grace", emailVerified: new Date() })
    const imported = await bcrypt.hash("compiler pioneer", 4)
    await storePassword(s.adapter, { userId: user.id, hash: imported, updatedAt: new Date() })
    expect((await signIn(s.config, "grace@example.com", "not the password")).location).toBe(wrongAnswer)
    expect((await storedPassword(s.adapter, user.id))!.hash).toBe(imported)
    expect(signedIn((await signIn(s.config, "grace@example.com", "compiler pioneer")).jar)).toBe(true)
    expect((await storedPassword(s.adapter, user.id))!.hash).toMatch(/^\$argon2id\$/)
    expect(signedIn((await signIn(s.config, "grace@example.com", "compiler pioneer")).jar)).toBe(true)
  })

  it("ends a session whose sign-in checked the old password while the password changed (database sessions)", async () => {
    const s = setup()
    await adaConfirmed(s)
    const owner = await signIn(s.config, "ada@example.com", "correct horse battery")
    // The attacker's sign-in with the old password is held after its check until the owner's change is done.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const verify = s.hasher.verify.bind(s.hasher)
    let checked!: () => void
    const checkedOld = new Promise<void>((resolve) => (checked = resolve))
    vi.spyOn(s.hasher, "verify").mockImplementationOnce(async (hash, password) => {
      const result = await verify(hash, password)
      checked()
      await held
      return result
    })
    const attacker = signIn(s.config, "ada@example.com", "correct horse battery")
    await checkedOld
    const request = new Request(`${origin}/settings`, { headers: { cookie: owner.jar.header() } })
    expect(await changePassword(request, s.config, { currentPassword: "correct horse battery", newPassword: "a brand new passphrase" })).toEqual({ changed: true, sessionsEnded: 1 })
    release()
    const late = await attacker
    expect(late.location).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(signedIn(late.jar)).toBe(false)
    expect((await s.adapter.listSessionsByUserId!((await s.adapter.getUserByEmail!("ada@example.com"))!.id)).length).toBe(1)
    expect(signedIn((await signIn(s.config, "ada@example.com", "a brand new passphrase")).jar)).toBe(true)
  })
})

describe("forgotten password", () => {
  it("answers every address alike: a reset link to an account, a no-account email otherwise", async () => {
    const s = setup()
    await adaConfirmed(s)
    const known = await forgot(s.config, "ada@example.com")
    const unknown = await forgot(s.config, "nobody@example.com")
    expect(known.location).toBe(`${origin}/auth/forgot-password?sent=1`)
    expect(unknown.location).toBe(known.location)
    expect(s.mails.slice(-2).map((m) => [m.kind, m.to])).toEqual([
      ["reset-password", "ada@example.com"],
      ["no-account", "nobody@example.com"],
    ])
    expect(new URL(s.mails.at(-1)!.url).pathname).toBe("/auth/signup")
    expect((await forgot(s.config, "not an address")).location).toBe(`${origin}/auth/forgot-password?error=invalid-email`)
  })

  it("limits emails per address, answering the same", async () => {
    const s = setup()
    await adaConfirmed(s)
    for (let i = 0; i < 4; i++) expect((await forgot(s.config, "ada@example.com")).location).toBe(`${origin}/auth/forgot-password?sent=1`)
    expect(s.mails.filter((m) => m.kind === "reset-password")).toHaveLength(3)
    // Confirmation links are counted apart: whoever re-sends them cannot hold back the owner's emails.
    const pending = setup()
    await signUp(pending.config, { email: "grace@example.com", password: "grace's password" })
    for (let i = 0; i < 4; i++) await signIn(pending.config, "grace@example.com", "grace's password")
    expect(pending.mails.filter((m) => m.kind === "verify-email")).toHaveLength(3)
    await forgot(pending.config, "grace@example.com")
    expect(pending.mails.at(-1)!.kind).toBe("reset-password")
  })

  it("resets with the link: its page consumes nothing, a refused password keeps the link, the new one works, the old one and the link stop working, sessions end", async () => {
    const s = setup({}, { session: { strategy: "database" } })
    await adaConfirmed(s)
    const elsewhere = await signIn(s.config, "ada@example.com", "correct horse battery")
    await forgot(s.config, "ada@example.com")
    const link = lastLink(s.mails, "reset-password")
    expect(link.url.pathname).toBe("/auth/reset-password/password")
    for (let i = 0; i < 2; i++) expect(await (await send(s.config, link.path)).text()).toContain("For the account ada@example.com.")

    const weak = await post(s.config, "/auth/reset-password/password", { token: link.token, email: link.email, password: "short" })
    expect(weak.location).toBe(`${origin}/auth/reset-password/password?token=${link.token}&email=ada%40example.com&callbackUrl=${encodeURIComponent(`${origin}/`)}&error=too-short`)
    const done = await post(s.config, "/auth/reset-password/password", { token: link.token, email: link.email, password: "a new long passphrase" })
    expect(done.location).toBe(`${origin}/auth/signin?notice=PasswordReset`)
    expect(await (await send(s.config, done.location)).text()).toContain("Your password was changed. Sign in with the new one.")
    expect(s.events.changes.map((c) => [c.how, c.sessionsEnded])).toEqual([["reset", 2]])
    expect(JSON.stringify(s.events.changes)).not.toContain("passphrase")

    // The session that knew the old password is over; the old password fails; the new one works.
    expect(await (await send(s.config, "/auth/session", { jar: elsewhere.jar })).json()).toBeNull()
    expect((await signIn(s.config, "ada@example.com", "correct horse battery")).location).toBe(wrongAnswer)
    expect(signedIn((await signIn(s.config, "ada@example.com", "a new long passphrase")).jar)).toBe(true)
    // Replayed: the Verification error, and the password stays.
    const replay = await post(s.config, "/auth/reset-password/password", { token: link.token, email: link.email, password: "attacker passphrase" })
    expect(replay.location).toBe(`${origin}/auth/error?error=Verification`)
    expect(signedIn((await signIn(s.config, "ada@example.com", "a new long passphrase")).jar)).toBe(true)
  })

  it("refuses a link for another address, and every older link once the password changed", async () => {
    const s = setup({ resetMaxAge: 60 })
    await adaConfirmed(s)
    await forgot(s.config, "ada@example.com")
    const older = lastLink(s.mails, "reset-password")
    await forgot(s.config, "ada@example.com")
    const newer = lastLink(s.mails, "reset-password")
    const reset = (link: { token: string; email: string }, password: string) => post(s.config, "/auth/reset-password/password", { ...link, password })
    expect((await reset({ token: older.token, email: "grace@example.com" }, "some new passphrase")).location).toBe(`${origin}/auth/error?error=Verification`)
    expect((await reset(newer, "the newest passphrase")).location).toBe(`${origin}/auth/signin?notice=PasswordReset`)
    expect((await reset(older, "an attacker passphrase")).location).toBe(`${origin}/auth/error?error=Verification`)

  })

  it("refuses a link past its lifetime (resetMaxAge)", async () => {
    const s = setup({ resetMaxAge: 60 })
    await adaConfirmed(s)
    await forgot(s.config, "ada@example.com")
    const link = lastLink(s.mails, "reset-password")
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] })
    try {
      expect((await post(s.config, "/auth/reset-password/password", { token: link.token, email: link.email, password: "late passphrase" })).location).toBe(`${origin}/auth/error?error=Verification`)
    } finally {
      vi.useRealTimers()
    }
    expect(signedIn((await signIn(s.config, "ada@example.com", "correct horse battery")).jar)).toBe(true)
  })

  it("carries the callback URL through the emailed link to the sign-in page, and a refused sign-up keeps the name", async () => {
    const s = setup()
    await adaConfirmed(s)
    await post(s.config, "/auth/forgot-password/password", { email: "ada@example.com", callbackUrl: `${origin}/private` })
    const link = lastLink(s.mails, "reset-password")
    expect(link.url.searchParams.get("callbackUrl")).toBe(`${origin}/private`)
    expect(await (await send(s.config, link.path)).text()).toContain(`<input type="hidden" name="callbackUrl" value="${origin}/private">`)
    const done = await post(s.config, "/auth/reset-password/password", { token: link.token, email: link.email, password: "a new long passphrase", callbackUrl: `${origin}/private` })
    expect(done.location).toBe(`${origin}/auth/signin?notice=PasswordReset&callbackUrl=${encodeURIComponent(`${origin}/private`)}`)
    const refused = await signUp(s.config, { email: "grace@example.com", password: "tiny pw", name: "Grace Hopper" })
    expect(refused.location).toBe(`${origin}/auth/signup?error=too-short&email=grace%40example.com&name=Grace+Hopper`)
    expect(await (await send(s.config, refused.location)).text()).toContain('name="name" type="text" autocomplete="name" maxlength="200" value="Grace Hopper"')
  })

  it("a reset email that cannot be sent leaves no usable link, and its token is not in the log even when the mail library quotes it", async () => {
    const { lines, logger } = recordingLogger()
    let failing = false
    const sent: PasswordEmailParams[] = []
    const s = setup({
      sendEmail: (params) => {
        sent.push(params)
        if (failing) throw Object.assign(new Error(`550 refused while sending ${params.url}`), { responseCode: 550 })
      },
    }, { logger })
    await adaConfirmed({ ...s, mails: sent })
    failing = true
    expect((await forgot(s.config, "ada@example.com")).location).toBe(`${origin}/auth/forgot-password?sent=1`)
    const link = new URL(sent.at(-1)!.url)
    const token = link.searchParams.get("token")!
    const log = lines.join("\n")
    expect(log).toContain("could not send its reset-password email")
    expect(log).toContain("responseCode=550")
    expect(log).not.toContain(token)
    expect(log).not.toContain(encodeURIComponent(token))
    const used = await post(s.config, "/auth/reset-password/password", { token, email: "ada@example.com", password: "a new long passphrase" })
    expect(used.location).toBe(`${origin}/auth/error?error=Verification`)
  })

  it("answers a malformed link with the Verification error, never a 500", async () => {
    const s = setup()
    expect((await send(s.config, "/auth/reset-password/password")).headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect((await send(s.config, `/auth/reset-password/password?token=${"x".repeat(600)}&email=a%40b.c`)).headers.get("location")).toBe(
      `${origin}/auth/error?error=Verification`,
    )
    expect((await send(s.config, "/auth/verify-email/password?token=abc")).headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
  })
})

describe("password management", () => {
  const requestWith = (jar: CookieJar) => new Request(`${origin}/settings`, { headers: { cookie: jar.header() } })

  it("changePassword needs the right current password and a good new one, keeps this session and ends the others", async () => {
    const s = setup({}, { session: { strategy: "database" } })
    await adaConfirmed(s)
    const here = await signIn(s.config, "ada@example.com", "correct horse battery")
    const there = await signIn(s.config, "ada@example.com", "correct horse battery")
    const request = requestWith(here.jar)
    expect(await changePassword(request, s.config, { currentPassword: "wrong", newPassword: "a new long passphrase" })).toEqual({ changed: false, reason: "WrongPassword" })
    expect(await changePassword(request, s.config, { currentPassword: "correct horse battery", newPassword: "short" })).toEqual({ changed: false, reason: "too-short" })
    expect(await changePassword(request, s.config, { currentPassword: "correct horse battery", newPassword: "a new long passphrase" })).toEqual({ changed: true, sessionsEnded: 2 })
    expect(await (await send(s.config, "/auth/session", { jar: here.jar })).json()).not.toBeNull()
    expect(await (await send(s.config, "/auth/session", { jar: there.jar })).json()).toBeNull()
    expect(s.events.changes.map((c) => c.how)).toEqual(["changed"])
    expect(await changePassword(new Request(`${origin}/settings`), s.config, { currentPassword: "x", newPassword: "y" })).toEqual({ changed: false, reason: "NotSignedIn" })
  })

  it("changePassword counts wrong current passwords against the sign-in throttle", async () => {
    const s = setup()
    await adaConfirmed(s)
    const { jar } = await signIn(s.config, "ada@example.com", "correct horse battery")
    for (let i = 0; i < 5; i++) expect((await changePassword(requestWith(jar), s.config, { currentPassword: `guess ${i}`, newPassword: "a new long passphrase" })).changed).toBe(false)
    expect(await changePassword(requestWith(jar), s.config, { currentPassword: "correct horse battery", newPassword: "a new long passphrase" })).toEqual({
      changed: false,
      reason: "TooManyAttempts",
      retryAfter: 1,
    })
  })

  it("setPassword gives an email-link user a first password after a fresh sign-in, once", async () => {
    const links: string[] = []
    const s = setup({}, {})
    const config: AuthConfig = {
      ...s.config,
      providers: [...(s.config.providers as never[]), Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
    }
    const jar = new CookieJar()
    await post(config, "/auth/signin/email", { email: "grace@example.com" }, jar)
    const link = new URL(links[0]!)
    await post(config, "/auth/callback/email", { token: link.searchParams.get("token")!, email: "grace@example.com" }, jar)
    expect(await hasPassword(requestWith(jar), config)).toBe(false)
    expect(await setPassword(requestWith(jar), config, { newPassword: "short" })).toEqual({ set: false, reason: "too-short" })
    expect(await setPassword(requestWith(jar), config, { newPassword: "grace's first password" })).toEqual({ set: true })
    expect(await hasPassword(requestWith(jar), config)).toBe(true)
    expect(await setPassword(requestWith(jar), config, { newPassword: "another password here" })).toEqual({ set: false, reason: "HasPassword" })
    expect(signedIn((await signIn(config, "grace@example.com", "grace's first password")).jar)).toBe(true)
    expect(s.events.changes.map((c) => c.how)).toEqual(["set"])
  })

  it("setPassword refuses a session whose sign-in is older than ten minutes", async () => {
    const s = setup({ requireEmailVerification: false })
    const { jar } = await signUp(s.config, { email: "new@example.com", password: "correct horse battery" })
    expect(await hasPassword(requestWith(jar), s.config)).toBe(true)
    vi.useFakeTimers({ now: Date.now() + 11 * 60_000, toFake: ["Date"] })
    try {
      await s.adapter.store.delete(passwordModel, { userId: (await s.adapter.getUserByEmail!("new@example.com"))!.id })
      expect(await setPassword(requestWith(jar), s.config, { newPassword: "another password here" })).toEqual({ set: false, reason: "SignInTooOld" })
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("configuration", () => {
  it("needs an adapter and a sendEmail function", async () => {
    const noAdapter = await send({ secret, trustHost: true, logger: quiet, providers: [Password({ sendEmail: () => {} })] }, "/auth/providers")
    expect(noAdapter.status).toBe(500)
    const noSend = await send({ secret, trustHost: true, logger: quiet, adapter: MemoryAdapter(), providers: [Password({} as PasswordOptions)] }, "/auth/providers")
    expect(noSend.status).toBe(500)
  })

  it("lists the provider with its callback URL, and the sign-in page shows its form with the ways to sign up and reset", async () => {
    const s = setup()
    expect(await (await send(s.config, "/auth/providers")).json()).toEqual({
      password: { id: "password", name: "Password", type: "password", signinUrl: `${origin}/auth/signin/password`, callbackUrl: `${origin}/auth/callback/password` },
    })
    const page = await (await send(s.config, "/auth/signin?callbackUrl=%2Fprivate")).text()
    expect(page).toContain(`action="${origin}/auth/callback/password"`)
    expect(page).toContain('autocomplete="current-password"')
    const callbackUrl = new URLSearchParams({ callbackUrl: `${origin}/private` }).toString()
    expect(page).toContain(`href="${origin}/auth/forgot-password?${callbackUrl.replace(/&/g, "&amp;")}"`)
    expect(page).toContain(`href="${origin}/auth/signup?${callbackUrl}"`)
  })

  it("asks for the address once when the page offers a password, an email link and a passkey; the link button sends that address", async () => {
    const links: string[] = []
    const s = setup({}, { experimental: { enableWebAuthn: true } })
    const all = (passkey = Passkey()): AuthConfig => ({
      ...s.config,
      providers: [passkey, ...(s.config.providers as never[]), Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
    })
    const page = await (await send(all(), "/auth/signin")).text()
    expect(page.match(/name="email"/g)).toHaveLength(1)
    expect(page).toContain('<input id="signin-email" name="email" type="email" autocomplete="username webauthn" required')
    expect(page).toContain(`formaction="${origin}/auth/callback/password"`)
    expect(page).toContain(`formaction="${origin}/auth/signin/email"`)
    expect(page).toContain('data-email-field="signin-email"')
    // The email-link button posts the shared form: the address, and a password field it ignores.
    const sent = await post(all(), "/auth/signin/email", { email: "grace@example.com", password: "" })
    expect(sent.location).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
    expect(new URL(links[0]!).searchParams.get("email")).toBe("grace@example.com")
    // A passkey form with fields of its own keeps them, beside the shared address.
    const own = await (await send(all(Passkey({ enableConditionalUI: false, formFields: { email: { type: "email" }, nickname: { type: "text" } } })), "/auth/signin")).text()
    expect(own.match(/name="email"/g)).toHaveLength(2)
    expect(own).not.toContain("data-email-field")
    // One address provider alone keeps its own form.
    expect(await (await send(s.config, "/auth/signin")).text()).not.toContain('id="signin-email"')
  })
})
