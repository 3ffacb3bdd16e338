/**
 * An attacker's review of creating users, sending password reset links, what the capabilities keep
 * for a user (`userDetails(...).about`), and of impersonation sessions that are meant to end with
 * their record, their admin's suspension or demotion, or the admin's own sessions.
 *
 * Each attack is a test: a plain `it` where the defence holds (it asserts the attack fails, beside
 * the legitimate flow), an `it.fails` where it succeeds (a documented limit), with a comment
 * saying what was found. Five of its findings were fixed with it; their tests are plain `it`. The attackers: someone not signed in, a user who is not an admin, an admin acting as
 * someone else, a suspended or demoted admin, a cross-site form, a stranger squatting an address,
 * a hostile plugin, and a thief with a copy of the admin's cookies.
 */
import { Auth, callModuleApi, html, revokeOtherSessions, type AuthConfig, type PasswordEmailParams, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import { verifyApiToken } from "@sesame/core/verify"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, recordingLogger } from "../../core/test/helpers.js"
import { client, oidc, signIn as oauthSignIn, startIdp } from "../../core/test/oauth/harness.js"
import { ada, app as twoFactorApp, enrol, signInWithPassword } from "../../core/test/two-factor/harness.js"
import { admin } from "@sesame/admin"
import { bossSignedIn, chiefSignedIn, makeWorld, origin, type WorldOptions } from "./world.js"

type World = ReturnType<typeof makeWorld>
type Browser = ReturnType<World["browser"]>

const form = { "content-type": "application/x-www-form-urlencoded", origin }

/** Posts a form as the browser would, with its CSRF token. */
async function postForm(browser: Browser, path: string, fields: Record<string, string>): Promise<Response> {
  return browser.send(path, { method: "POST", headers: form, body: new URLSearchParams({ csrfToken: await browser.csrf(), ...fields }).toString() })
}

/** Posts the user page's "see the app as" form; the redirect's target. */
async function impersonate(admins: Browser, userId: string): Promise<string> {
  return (await postForm(admins, "admin/act", { action: "impersonate", userId })).headers.get("location") ?? ""
}

/** Posts the banner's "stop" form; the redirect's target. */
async function stop(browser: Browser): Promise<string> {
  return (await postForm(browser, "admin/acting", {})).headers.get("location") ?? ""
}

/** The tokens of every password link sent. */
const tokensOf = (mails: PasswordEmailParams[]): string[] => mails.map((m) => new URL(m.url).searchParams.get("token")!).filter(Boolean)

/**
 * A memory adapter that runs `race.run` (once) right after the admin module stores an
 * impersonation's row: between `impersonate`'s checks and the acting session it starts.
 */
function racingAdapter() {
  const adapter = MemoryAdapter()
  const race: { run?: () => Promise<void> } = {}
  const create = adapter.store.create.bind(adapter.store)
  adapter.store.create = async (model, row) => {
    const created = await create(model, row)
    const run = model.name === "adminImpersonation" ? race.run : undefined
    race.run = undefined
    if (run) await run()
    return created
  }
  return { adapter, race }
}

/** Boss (admin) signed in, Pat (user) stored, with a password provider. */
const setUp = (options: WorldOptions = {}, extra: (world: World) => void = () => {}) => bossSignedIn({ password: {}, ...options }, extra)

// ---------------------------------------------------------------------------------------------
// Who may create a user or send a reset link, and what the refusal tells

describe("creating a user and sending a reset link: who may", () => {
  it("a visitor and a user who is not an admin are refused, with the same answer whether the address or the user exists (no enumeration)", async () => {
    const { pat, browser, adapter, mails, user } = await setUp()
    const pats = browser()
    await pats.signIn(pat.email)
    const visitor = browser()
    const other = await user("other@example.com")
    for (const [who, status] of [[pats, 403], [visitor, 401]] as const) {
      // The JSON endpoint: a taken address and a fresh one.
      const taken = await who.post("admin/create-user", { email: pat.email, sendPasswordReset: true })
      const fresh = await who.post("admin/create-user", { email: "fresh@example.com", sendPasswordReset: true })
      expect(taken.status).toBe(status)
      expect(fresh.status).toBe(status)
      expect(await taken.json()).toEqual(await fresh.json())
      // The reset endpoint: a user that exists (and one that is an admin) and one that does not.
      const answers = await Promise.all([other.id, "no-such-user", pat.id].map(async (userId) => {
        const response = await who.post("admin/send-password-reset", { userId })
        return [response.status, await response.json()]
      }))
      expect(answers[0]![0]).toBe(status)
      expect(answers[1]).toEqual(answers[0])
      expect(answers[2]).toEqual(answers[0])
      // The page's form: the same redirect for a taken address and a fresh one.
      const formTaken = await postForm(who, "admin/act", { action: "create", email: pat.email, sendPasswordReset: "on" })
      const formFresh = await postForm(who, "admin/act", { action: "create", email: "fresh@example.com", sendPasswordReset: "on" })
      expect(formTaken.headers.get("location")).toBe(formFresh.headers.get("location"))
      expect(formTaken.headers.get("location")).not.toContain("Conflict")
      const formReset = await postForm(who, "admin/act", { action: "send-reset", userId: other.id })
      const formNobody = await postForm(who, "admin/act", { action: "send-reset", userId: "no-such-user" })
      expect(new URL(formReset.headers.get("location")!).searchParams.get("error")).toBe(new URL(formNobody.headers.get("location")!).searchParams.get("error"))
    }
    expect(await adapter.getUserByEmail!("fresh@example.com")).toBeNull()
    expect(mails).toHaveLength(0)
  })

  it("an admin acting as a user can neither create a user nor send a reset link, by the endpoint, the page's form or the server function", async () => {
    const { admins, pat, adapter, mails, user } = await setUp()
    const other = await user("other@example.com")
    expect(await impersonate(admins, pat.id)).toBe(`${origin}/`)
    expect((await admins.post("admin/create-user", { email: "sock@example.com", emailVerified: true })).status).toBe(403)
    expect((await admins.post("admin/send-password-reset", { userId: other.id })).status).toBe(403)
    expect((await postForm(admins, "admin/act", { action: "create", email: "sock@example.com" })).headers.get("location")).toContain("error=NotAdmin")
    expect((await postForm(admins, "admin/act", { action: "send-reset", userId: other.id })).headers.get("location")).toContain("error=NotAdmin")
    await expect(admins.api("createUser", { email: "sock@example.com" })).rejects.toMatchObject({ code: "NotAdmin" })
    await expect(admins.api("sendPasswordReset", pat.id)).rejects.toMatchObject({ code: "NotAdmin" })
    expect(await adapter.getUserByEmail!("sock@example.com")).toBeNull()
    expect(mails).toHaveLength(0)
    // Still acting as Pat, and back to the admin's own session, who may.
    expect(await admins.who()).toBe(pat.email)
    await stop(admins)
    expect(await admins.api("sendPasswordReset", other.id)).toBe(true)
  })

  it("a cross-site form, a post without the CSRF token and a text/plain JSON post create nothing and send nothing", async () => {
    const { admins, pat, adapter, mails } = await setUp()
    const posts: [string, Record<string, string>][] = [
      ["admin/create-user", { email: "csrf@example.com", emailVerified: "true" }],
      ["admin/send-password-reset", { userId: pat.id }],
      ["admin/act", { action: "create", email: "csrf@example.com", emailVerified: "on", sendPasswordReset: "on" }],
      ["admin/act", { action: "send-reset", userId: pat.id }],
    ]
    for (const [path, fields] of posts) {
      const bare = await admins.send(path, { method: "POST", headers: form, body: new URLSearchParams(fields).toString() })
      expect(bare.status, `${path} without a token`).not.toBe(200)
      expect(bare.headers.get("location") ?? "").not.toContain("done=")
      const cross = await admins.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: new URLSearchParams({ ...fields, csrfToken: await admins.csrf() }).toString(),
      })
      expect(cross.status, `${path} cross-site`).not.toBe(200)
      expect(cross.headers.get("location") ?? "").not.toContain("done=")
      // A "simple" cross-site request: JSON in a text/plain body, which needs no preflight.
      const plain = await admins.send(path, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: JSON.stringify({ ...fields, emailVerified: true, csrfToken: await admins.csrf() }),
      })
      expect(plain.status, `${path} text/plain`).not.toBe(200)
    }
    expect(await adapter.getUserByEmail!("csrf@example.com")).toBeNull()
    expect(mails).toHaveLength(0)
  })
})

// ---------------------------------------------------------------------------------------------
// What createUser takes

describe("creating a user: input of the wrong type or shape", () => {
  it("refuses arrays, objects, numbers, overlong text and non-boolean flags, by the endpoint and the form, and creates nothing", async () => {
    const { admins, adapter, mails, security } = await setUp()
    const long = `${"a".repeat(320)}@example.com`
    const inputs: Record<string, unknown>[] = [
      { email: ["arr@example.com"] },
      { email: { toString: "obj@example.com" } },
      { email: 42 },
      { email: null },
      { email: long },
      { email: "two@at@example.com" },
      { email: "spa ce@example.com" },
      { email: "tab@example.com\tx" },
      { email: "typed@example.com", name: ["Typed"] },
      { email: "typed@example.com", name: { first: "Typed" } },
      { email: "typed@example.com", name: 7 },
      { email: "typed@example.com", name: "n".repeat(201) },
      { email: "typed@example.com", emailVerified: "true" },
      { email: "typed@example.com", emailVerified: 1 },
      { email: "typed@example.com", emailVerified: [true] },
      { email: "typed@example.com", sendPasswordReset: "true" },
      { email: "typed@example.com", sendPasswordReset: {} },
    ]
    for (const input of inputs) {
      const response = await admins.post("admin/create-user", input)
      expect(response.status, JSON.stringify(input)).toBe(400)
      expect(await response.json()).toMatchObject({ error: "InvalidInput" })
    }
    // The same fields as a form posted to the JSON endpoint: text, never a boolean.
    const formPosted = await postForm(admins, "admin/create-user", { email: "typed@example.com", emailVerified: "true", sendPasswordReset: "true" })
    expect(formPosted.status).toBe(400)
    // The page's form with an overlong address: back to the list, which says why.
    const page = await postForm(admins, "admin/act", { action: "create", email: long })
    expect(page.headers.get("location")).toBe(`${origin}/auth/admin?error=InvalidInput`)
    for (const address of ["typed@example.com", "arr@example.com", "obj@example.com", long]) expect(await adapter.getUserByEmail!(address)).toBeNull()
    expect(security.filter((e) => e.type === "admin.user-created")).toHaveLength(0)
    expect(mails).toHaveLength(0)
  })

  it("the page's checkboxes vouch only when ticked (\"on\"): any other value leaves the address unproven and sends nothing", async () => {
    const { admins, adapter, mails } = await setUp()
    await postForm(admins, "admin/act", { action: "create", email: "boxes@example.com", emailVerified: "true", sendPasswordReset: "1" })
    const created = await adapter.getUserByEmail!("boxes@example.com")
    expect(created!.emailVerified).toBeNull()
    expect(mails).toHaveLength(0)
  })

  it("takes nothing but the address, the name and the two flags: no id, role, image or admin flag, and no prototype pollution", async () => {
    const { admins, boss, adapter, mails } = await setUp({ admins: (user) => user.email === "boss@example.com" || (user as unknown as { role?: string }).role === "admin" })
    const response = await admins.post("admin/create-user", { email: "mass@example.com", id: boss.id, role: "admin", admin: true, image: "https://evil.example/x.png", emailVerified: false })
    expect(response.status).toBe(200)
    const { result } = (await response.json()) as { result: { user: { id: string; admin: boolean } } }
    expect(result.user.id).not.toBe(boss.id)
    expect(result.user.admin).toBe(false)
    const stored = await adapter.getUser!(result.user.id)
    expect(stored).toMatchObject({ email: "mass@example.com", image: null, emailVerified: null })
    expect((stored as unknown as { role?: unknown }).role).toBeUndefined()
    expect(await adapter.getUser!(boss.id)).toMatchObject({ email: "boss@example.com" })
    // `__proto__` in the JSON body: an own key, never an inherited `emailVerified` or `sendPasswordReset`.
    const raw = `{"csrfToken":${JSON.stringify(await admins.csrf())},"email":"proto@example.com","__proto__":{"emailVerified":true,"sendPasswordReset":true}}`
    const polluted = await admins.send("admin/create-user", { method: "POST", headers: { "content-type": "application/json", origin }, body: raw })
    expect(polluted.status).toBe(200)
    expect((await adapter.getUserByEmail!("proto@example.com"))!.emailVerified).toBeNull()
    expect(mails).toHaveLength(0)
    expect(({} as Record<string, unknown>).emailVerified).toBeUndefined()
  })

  it("an address that differs from a user's by case and surrounding whitespace is that user's: Conflict, nothing created", async () => {
    const { admins, adapter } = await setUp()
    for (const email of ["PAT@example.com", " Pat@Example.COM\t", "\npat@EXAMPLE.com "]) {
      const response = await admins.post("admin/create-user", { email, emailVerified: true })
      expect(response.status, JSON.stringify(email)).toBe(409)
      expect(await response.json()).toMatchObject({ error: "Conflict" })
    }
    expect((await adapter.listUsers!({ limit: 100 })).users.filter((u) => u.email.includes("pat"))).toHaveLength(1)
  })

  // Found by this review and fixed (`addressOf` now folds with the core's `normalizeEmail`): it
  // trimmed and lowercased, but did not fold
  // Unicode as the core does (`foldEmail`: NFKC): the Conflict check looks up "ｐａｔ@example.com"
  // (full-width letters) and finds no one, then `ModuleUsers.create` stores `providerEmail(email)`,
  // the NFKC-folded "pat@example.com", which Pat holds. On the memory adapter (and every adapter with
  // a unique address) the create throws a plain Error: the app's error page (302 to `error`) instead
  // of `Conflict`; on an adapter without a unique constraint, a second user with Pat's address.
  it("an address that is a user's once Unicode-folded (full-width letters) is that user's: Conflict, not a 500 or a second user", async () => {
    const { admins, adapter } = await setUp()
    const response = await admins.post("admin/create-user", { email: "ｐａｔ@example.com", emailVerified: true })
    expect((await adapter.listUsers!({ limit: 100 })).users.filter((u) => u.email === "pat@example.com")).toHaveLength(1)
    expect(response.status).toBe(409)
  })

  // Found by this review and fixed: `addressOf` accepted what the core's `normalizeEmail` refuses (and what no
  // provider of the configuration could ever name): format characters (a zero-width space, which
  // makes a look-alike of a user's address), and a display-name form that a mail library reads as
  // another mailbox ("pat<attacker@evil.example>": the reset link of `sendPasswordReset` goes to
  // attacker@evil.example while the admin pages show a user "pat<…>"). Such a user can never sign
  // in by email link or the forgotten-password form either.
  it("refuses an address the core's own providers would refuse (a zero-width character, a display-name form)", async () => {
    const { admins, adapter } = await setUp()
    for (const email of ["pat\u200b@example.com", "pat<attacker@evil.example>", "a,b@example.com"]) {
      const response = await admins.post("admin/create-user", { email })
      expect(response.status, JSON.stringify(email)).toBe(400)
    }
    expect((await adapter.listUsers!({ limit: 100 })).users).toHaveLength(2)
  })
})

// ---------------------------------------------------------------------------------------------
// Account pre-hijacking through an admin-created user

describe("an admin-created user and the address's owner (pre-hijacking)", () => {
  let idp: DevIdp
  beforeAll(async () => {
    // "mallory" claims alice's address without the IdP vouching for it; "alice" is its owner.
    idp = await startIdp({
      clients: [client("dev")],
      accounts: [
        { id: "alice", email: "alice@example.com", name: "Alice" },
        { id: "mallory", email: "alice@example.com", name: "Mallory", email_verified: false },
      ],
    })
  })
  afterAll(() => idp?.close())

  const withIdp = (dangerous: boolean) => (world: World) => void world.config.providers.push(oidc(idp, dangerous ? { allowDangerousEmailAccountLinking: true } : {}))

  it("a stranger cannot attach a way in to an unproven admin-created user before its owner arrives (password sign-up, a provider that does not vouch), and the owner gets it clean", async () => {
    const world = await setUp({}, withIdp(true))
    const { admins, adapter, mails, browser, config } = world
    const { user } = (await admins.api("createUser", { email: "alice@example.com", name: "Alice" })) as { user: { id: string } }
    // The stranger signs up with a password for the address: nothing is stored.
    const stranger = browser()
    await postForm(stranger, "signup/password", { email: "alice@example.com", password: "the stranger's passphrase" })
    expect(await stranger.who()).toBeNull()
    // The stranger's IdP account claims the address without the IdP vouching: not linked, even with dangerous linking.
    await oauthSignIn(config, stranger.jar, "dev", { query: { login_hint: "mallory" } })
    expect(await stranger.who()).toBeNull()
    expect(await adapter.listAccountsByUserId!(user.id)).toEqual([])
    // The stranger cannot sign in with the password they chose.
    const tried = await postForm(browser(), "callback/password", { email: "alice@example.com", password: "the stranger's passphrase" })
    expect(tried.headers.get("location")).not.toBe(`${origin}/`)

    // The owner: the admin's reset link, a password of her own; then her IdP account, which vouches.
    expect(await admins.api("sendPasswordReset", user.id)).toBe(true)
    const link = new URL(mails.filter((m) => m.kind === "reset-password").at(-1)!.url)
    const owner = browser()
    await postForm(owner, "reset-password/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: "alice's own passphrase" })
    expect((await postForm(owner, "callback/password", { email: "alice@example.com", password: "alice's own passphrase" })).headers.get("location")).toBe(`${origin}/`)
    expect(await owner.who()).toBe("alice@example.com")
    expect((await adapter.getUser!(user.id))!.emailVerified).toBeInstanceOf(Date)
    // Nothing of the stranger's on it.
    expect((await adapter.listAccountsByUserId!(user.id)).filter((a) => a.providerAccountId === "mallory")).toEqual([])
    expect((await postForm(browser(), "callback/password", { email: "alice@example.com", password: "the stranger's passphrase" })).headers.get("location")).not.toBe(`${origin}/`)
  })

  it("without dangerous linking, the owner's vouching provider does not merge into the admin-created user (OAuthAccountNotLinked); with it, it links to that user", async () => {
    const strict = await setUp({}, withIdp(false))
    const created = (await strict.admins.api("createUser", { email: "alice@example.com" })) as { user: { id: string } }
    const owner = strict.browser()
    await oauthSignIn(strict.config, owner.jar, "dev", { query: { login_hint: "alice" } })
    expect(await owner.who()).toBeNull()
    expect(await strict.adapter.listAccountsByUserId!(created.user.id)).toEqual([])

    const lenient = await setUp({}, withIdp(true))
    const made = (await lenient.admins.api("createUser", { email: "alice@example.com" })) as { user: { id: string } }
    const her = lenient.browser()
    await oauthSignIn(lenient.config, her.jar, "dev", { query: { login_hint: "alice" } })
    expect(await her.who()).toBe("alice@example.com")
    expect((await lenient.adapter.listAccountsByUserId!(made.user.id)).map((a) => a.providerAccountId)).toEqual(["alice"])
  })

  it("a stranger who squatted the address first (an unconfirmed password sign-up) keeps nothing of the owner's: the admin gets Conflict, and the admin's reset link sets the squatter aside", async () => {
    const { admins, adapter, mails, browser } = await setUp()
    const stranger = browser()
    await postForm(stranger, "signup/password", { email: "victim@example.com", password: "the squatter's passphrase" })
    const squat = await adapter.getUserByEmail!("victim@example.com")
    expect(squat).not.toBeNull()
    // The admin cannot create the owner's user over it, nor vouch for the squatter's.
    await expect(admins.api("createUser", { email: "victim@example.com", emailVerified: true })).rejects.toMatchObject({ code: "Conflict" })
    expect((await adapter.getUser!(squat!.id))!.emailVerified).toBeNull()
    // The admin sends the owner a reset link instead: it goes to the address, and proves it.
    expect(await admins.api("sendPasswordReset", squat!.id)).toBe(true)
    const link = new URL(mails.filter((m) => m.kind === "reset-password").at(-1)!.url)
    const owner = browser()
    await postForm(owner, "reset-password/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: "the owner's passphrase" })
    const mine = await adapter.getUserByEmail!("victim@example.com")
    expect(mine!.id).not.toBe(squat!.id)
    expect((await adapter.getUser!(squat!.id))!.email).toMatch(/@sesame\.invalid$/)
    // The squatter's password opens nothing at the address.
    expect((await postForm(browser(), "callback/password", { email: "victim@example.com", password: "the squatter's passphrase" })).headers.get("location")).not.toBe(`${origin}/`)
    expect((await postForm(owner, "callback/password", { email: "victim@example.com", password: "the owner's passphrase" })).headers.get("location")).toBe(`${origin}/`)
  })
})

// ---------------------------------------------------------------------------------------------
// The reset link's secret

describe("the reset link's token", () => {
  it("never appears in the security events, the log, the JSON answers or the page's redirects, whatever became of the email", async () => {
    const { lines, logger } = recordingLogger()
    const answers: string[] = []
    const { admins, pat, mails, security } = await setUp({}, (w) => void (w.config.logger = logger))
    const keep = async (response: Response) => {
      answers.push(`${response.status} ${response.headers.get("location") ?? ""} ${await response.text()}`)
    }
    await keep(await admins.post("admin/create-user", { email: "new@example.com", sendPasswordReset: true }))
    await keep(await admins.post("admin/send-password-reset", { userId: pat.id }))
    await keep(await postForm(admins, "admin/act", { action: "send-reset", userId: pat.id }))
    await keep(await postForm(admins, "admin/act", { action: "create", email: "form@example.com", sendPasswordReset: "on" }))
    answers.push(JSON.stringify(await admins.api("createUser", { email: "api@example.com", sendPasswordReset: true })))
    answers.push(JSON.stringify(await admins.api("userDetails", pat.id)))
    const tokens = tokensOf(mails)
    expect(tokens).toHaveLength(5)
    const seen = [JSON.stringify(security), lines.join("\n"), answers.join("\n")].join("\n")
    for (const token of tokens) expect(seen).not.toContain(token)
  })

  it("is cut out of the log when the mail library's error quotes the message (the link in it)", async () => {
    const { lines, logger } = recordingLogger()
    const sent: PasswordEmailParams[] = []
    const { admins, pat, security } = await setUp({}, (w) => {
      w.config.logger = logger
      // A mail library whose error repeats what it was given, the link included.
      w.config.providers[1] = Password({
        hasher: argon2id({ memoryCost: 64, timeCost: 1 }),
        sendEmail: (params) => {
          sent.push(params)
          throw new Error(`550 mailbox unavailable for ${params.to}: ${params.url} / ${params.message.text}`)
        },
      })
    })
    const response = await admins.post("admin/send-password-reset", { userId: pat.id })
    expect(response.status).toBe(502)
    const body = await response.text()
    const token = new URL(sent[0]!.url).searchParams.get("token")!
    expect(lines.join("\n")).toContain("550 mailbox unavailable")
    expect(lines.join("\n")).not.toContain(token)
    expect(body).not.toContain(token)
    expect(JSON.stringify(security)).not.toContain(token)
  })
})

describe("where the reset link leads", () => {
  it("(no trustHost) a forged Host or X-Forwarded-Host on the admin's request does not send the user a link to another site", async () => {
    const { admins, pat, mails } = await setUp({}, (w) => void delete w.config.trustHost)
    // X-Forwarded-* are not read without trustHost: the link names the app.
    const forwarded = await admins.send("admin/send-password-reset", { json: { csrfToken: await admins.csrf(), userId: pat.id }, headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } })
    expect(forwarded.status).toBe(200)
    // A Host that is not the app's is refused before anything is sent (UntrustedHost).
    const hosted = await admins.send("admin/send-password-reset", { json: { csrfToken: await admins.csrf(), userId: pat.id }, headers: { host: "evil.example" } })
    expect(hosted.status).toBe(500)
    expect(mails).toHaveLength(1)
    for (const mail of mails) expect(new URL(mail.url).origin).toBe(origin)
  })
})

/** RFC 4648 base32, unpadded: how an authenticator app's secret is written. */
function base32(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return bits > 0 ? out + alphabet[(value << (5 - bits)) & 31] : out
}

// ---------------------------------------------------------------------------------------------
// What the capabilities keep for a user

describe("what a plugin keeps for a user, on the admin's page", () => {
  const hostile = `"><img src=x onerror=alert(1)><script>alert(2)</script>`

  it("a plugin's title and items are escaped on the page, and a marked-up answer (html``) is refused, not rendered", async () => {
    const loud: SesameModule = { id: "loud", aboutUser: () => ({ title: hostile, items: [hostile, `</li></ul>${hostile}`] }) }
    const sly: SesameModule = { id: "sly", aboutUser: () => ({ title: "Sly", items: [html`<script>alert(3)</script>`] }) as never }
    const { admins, pat } = await setUp({ plugins: [loud, sly] })
    const details = (await admins.api("userDetails", pat.id)) as { about: { source: string }[] }
    expect(details.about.map((f) => f.source)).toEqual(["two-factor", "loud"])
    const page = await (await admins.send("admin/view", { query: { userId: pat.id } })).text()
    expect(page).not.toContain("<script>alert")
    expect(page).not.toContain("<img src=x")
    expect(page).toContain("&lt;script&gt;alert(2)&lt;/script&gt;")
  })

  // Found by this review and fixed (the answer is read once, then checked): `aboutUser`
  // (packages/core/src/modules/about-user.ts) checked a
  // plugin's answer and then reads it again: `isFacts(facts)` reads `title` and `items`, then
  // `found.push({ title: facts.title, items: [...facts.items] })` reads them a second time. An answer
  // whose getters return text to the check and markup (`html`…``) afterwards passes as "lines of plain
  // text", and the admin page (`userPage`, packages/admin/src/pages.ts) renders the markup unescaped.
  // A plugin is code the app runs (it could call `unsafeHtml` on its own pages), so this matters for
  // the admin's origin only where a plugin is less trusted than the app; the documented rule ("plain
  // text, escaped where shown") does not hold.
  it("a plugin's answer that turns into markup after the check is still shown escaped", async () => {
    let reads = 0
    const markup = html`<script>alert("about")</script>`
    const twoFaced: SesameModule = {
      id: "two-faced",
      aboutUser: () => ({
        get title() {
          return reads++ < 1 ? "Harmless" : (markup as unknown as string)
        },
        items: [],
      }),
    }
    const { admins, pat } = await setUp({ plugins: [twoFaced] })
    const page = await (await admins.send("admin/view", { query: { userId: pat.id } })).text()
    expect(page).not.toContain(`<script>alert("about")</script>`)
  })

  it("the second factor's facts name the method and the count of recovery codes, never the secret or a code", async () => {
    const adminIds: string[] = []
    const a = twoFactorApp({ overrides: {} })
    a.config.plugins = [admin({ admins: (user) => adminIds.includes(user.id) })]
    const boss = await ada(a, "boss@example.com")
    adminIds.push(boss.id)
    const pat = await ada(a, "pat@example.com")
    const { authenticator, codes } = await enrol(a, "pat@example.com")
    const bosses = new CookieJar()
    expect((await signInWithPassword(a.config, bosses, "boss@example.com")).location).toBe(`${origin}/`)
    const details = await callModuleApi(new Request(`${origin}/`, { headers: { cookie: bosses.header() } }), a.config, "userDetails", pat.id)
    const page = await (await Auth(new Request(`${origin}/auth/admin/view?userId=${pat.id}`, { headers: { cookie: bosses.header() } }), a.config)).text()
    const secret = base32(authenticator.key)
    expect(JSON.stringify(details)).toContain("10")
    for (const text of [JSON.stringify(details), page]) {
      expect(text.toUpperCase()).not.toContain(secret)
      expect(text).not.toContain(Buffer.from(authenticator.key).toString("hex"))
      for (const code of codes) expect(text).not.toContain(code)
    }
  })

  it("is asked for no one but an admin: not for a user, a visitor, nor an admin acting as someone else", async () => {
    let asked = 0
    const counting: SesameModule = { id: "counting", aboutUser: () => (asked++, { title: "Counted", items: [] }) }
    const { admins, pat, browser } = await setUp({ plugins: [counting] })
    const pats = browser()
    await pats.signIn(pat.email)
    await impersonate(admins, pat.id)
    for (const who of [pats, admins, browser()]) {
      await expect(who.api("userDetails", pat.id)).rejects.toMatchObject({ code: expect.stringMatching(/^(NotAdmin|NotSignedIn)$/) })
      expect((await who.send("admin/user", { query: { userId: pat.id } })).status).toBeGreaterThanOrEqual(400)
      const view = await who.send("admin/view", { query: { userId: pat.id } })
      expect(await view.text()).not.toContain("Counted")
    }
    expect(asked).toBe(0)
  })
})

// ---------------------------------------------------------------------------------------------
// Keeping an impersonation alive

for (const strategy of ["database", "jwt"] as const) {
  describe(`keeping an impersonation alive (${strategy} sessions)`, () => {
    const world = (options: WorldOptions = {}, extra?: (w: World) => void) =>
      setUp({ strategy, actOnAdmins: true, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}), ...options }, extra)

    /** Each way the impersonation should end, and whether the admin's own session survives it. */
    const endings: [string, boolean, (w: Awaited<ReturnType<typeof world>>, chiefs: Browser, demote: () => void) => Promise<unknown>][] = [
      ["the admin stops", true, (w) => stop(w.admins)],
      ["the admin is suspended", false, (w, chiefs) => chiefs.api("banUser", w.boss.id, { reason: "rogue" })],
      ["the admin is no longer an admin", true, async (_w, _chiefs, demote) => demote()],
      ["another admin ends the admin's sessions", false, (w, chiefs) => chiefs.api("revokeUserSessions", w.boss.id)],
      ["the admin is deleted", false, (w, chiefs) => chiefs.api("removeUser", w.boss.id)],
      [
        "the admin signs out everywhere else from another browser",
        false,
        async (w) => {
          const laptop = w.browser()
          await laptop.signIn(w.boss.email)
          await revokeOtherSessions(new Request(`${origin}/`, { headers: { cookie: laptop.jar.header() } }), w.config)
        },
      ],
    ]

    for (const [how, ownSurvives] of endings.map(([h, s]) => [h, s] as const)) {
      it(`a copy of the acting cookies in a second browser, and the admin's own browser, stop acting when ${how}`, async () => {
        let demoted = false
        const ids: string[] = []
        const w = await world({ admins: (user) => ids.includes(user.id) && !(demoted && user.email === "boss@example.com") })
        ids.push(w.boss.id)
        const chief = await w.user("chief@example.com")
        ids.push(chief.id)
        const chiefs = w.browser()
        await chiefs.signIn(chief.email)
        expect(await impersonate(w.admins, w.pat.id)).toBe(`${origin}/`)
        const thief = w.browser()
        for (const [name, value] of w.admins.jar.cookies) thief.jar.cookies.set(name, value)
        expect(await thief.who()).toBe(w.pat.email)
        const end = endings.find(([h]) => h === how)![2]
        await end(w, chiefs, () => (demoted = true))
        expect(await thief.who()).not.toBe(w.pat.email)
        expect(await w.admins.who()).not.toBe(w.pat.email)
        // The way back: the admin's own session only where it survives, and no admin powers after a demotion.
        await stop(w.admins)
        expect(await w.admins.who()).toBe(ownSurvives ? w.boss.email : null)
        if (how.includes("no longer")) expect(await w.admins.api("isAdmin")).toBe(false)
        // The thief's copy of the kept cookie brings no one back once the admin's sessions ended.
        if (!ownSurvives) {
          await stop(thief)
          expect(await thief.who()).toBeNull()
        }
      })
    }

    it("an admin suspended while starting an impersonation (the ban lands between the checks and the session) does not act", async () => {
      const { adapter, race } = racingAdapter()
      const w = await world({ adapter })
      const { chiefs } = await chiefSignedIn(w)
      race.run = async () => void (await chiefs.api("banUser", w.boss.id, { reason: "rogue" }))
      await impersonate(w.admins, w.pat.id)
      expect(await w.admins.who()).not.toBe(w.pat.email)
      await stop(w.admins)
      expect(await w.admins.who()).toBeNull()
    })

    // Found by this review and fixed (`impersonationHolds` now asks about the user too): the
    // impersonation's check (`impersonationHolds`, packages/admin/src/impersonation.ts)
    // asks about the admin (suspended? still an admin?) but never about the user. `impersonate`
    // refuses a suspended user once, before the session exists; a suspension of the user that lands
    // between that check and `actAs` ends the user's sessions before the acting one is made, and
    // nothing ends the acting one afterwards: the admin sees the app as a suspended user for the
    // whole `impersonation.maxAge` (the race the core closes for sign-ins with a re-check after the
    // session is stored, "a sign-in racing a suspension does not outlive it"). With JWT sessions
    // without `session.revocation`, an impersonation also outlives a suspension of its user that
    // comes at any time later.
    it("an impersonation started while another admin suspends its user does not outlive the suspension", async () => {
      const { adapter, race } = racingAdapter()
      const w = await world({ adapter })
      const { chiefs } = await chiefSignedIn(w)
      race.run = async () => {
        await chiefs.api("banUser", w.pat.id, { reason: "abuse" })
        // The acting session starts a few milliseconds after the suspension (with JWT sessions, one
        // started in the very millisecond of the cut counts as cut).
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      await impersonate(w.admins, w.pat.id)
      expect(await chiefs.api("userBan", w.pat.id)).toMatchObject({ userId: w.pat.id })
      expect(await w.admins.who()).not.toBe(w.pat.email)
    })

    // A documented limit (docs/features/admin.md, "Limits"), pinned as `it.fails`: an API token minted in the impersonation (`GET token`) is
    // checked by its signature alone (`@sesame/core/verify`), so it keeps the admin acting as the
    // user at every API for up to `apiTokens.maxAge` (15 minutes by default) after the admin stopped,
    // was suspended or demoted; `actingHolds` is asked when the token is minted, never when it is
    // used. docs/features/admin.md says such a token "ends with it", which holds only for its time
    // (`exp` ≤ `until`). A fix: cap an acting session's token at a short lifetime, or let APIs ask
    // (an introspection endpoint that runs `actingHolds` for tokens with `act`).
    it.fails("an API token minted while impersonating is worth nothing once the impersonation stopped", async () => {
      const w = await world({}, (x) => void (x.config.apiTokens = { audience: "https://api.example.com" }))
      await impersonate(w.admins, w.pat.id)
      const { token } = (await (await w.admins.send("token", { headers: { "sec-fetch-site": "same-origin" } })).json()) as { token: string }
      const jwks = await (await w.admins.send("jwks")).json()
      const options = { jwks, issuer: `${origin}/auth`, audience: "https://api.example.com" }
      expect((await verifyApiToken(token, options)).act).toEqual({ sub: w.boss.id })
      await stop(w.admins)
      expect(await w.admins.who()).toBe(w.boss.email)
      await expect(verifyApiToken(token, options)).rejects.toThrow()
    })
  })
}

// ---------------------------------------------------------------------------------------------
// A suspended admin's own session

describe("a suspended admin's own powers", () => {
  it("(database sessions) a suspended admin can do nothing more, at once", async () => {
    const w = await setUp({ actOnAdmins: true })
    const { chief, chiefs } = await chiefSignedIn(w)
    await chiefs.api("banUser", w.boss.id, { reason: "rogue" })
    await expect(w.admins.api("removeUser", w.pat.id)).rejects.toMatchObject({ code: "NotSignedIn" })
    await expect(w.admins.api("banUser", chief.id)).rejects.toMatchObject({ code: "NotSignedIn" })
    expect(await w.adapter.getUser!(w.pat.id)).not.toBeNull()
  })

  // Found by this review and fixed (`adminOf` now refuses a caller with a suspension in force):
  // `adminOf` (packages/admin/src/access.ts) asked whether the
  // caller is an admin, never whether they are suspended; it leans on the suspension ending their
  // sessions. A JWT session ends only through `session.revocation`, whose rows are read through a
  // cache (`cache`, 30 s by default, 10 s in the docs' example): on an instance other than the one
  // that wrote the ban, the suspended admin's session stays valid that long, and with it every admin
  // action: here the rogue admin, suspended on instance A, deletes a user and suspends the admin
  // who suspended them, on instance B. (Without `session.revocation`, for the session's whole
  // life.) The impersonation check added in this change (`impersonationHolds`) reads the ban at
  // every use, uncached, so an impersonation ends at once while the plain admin powers do not. A fix:
  // `adminOf` refuses a caller with a suspension in force (`banRow`, one lookup per admin action).
  it("(JWT sessions, revocation cached, two instances) a suspended admin can do nothing more, at once, on any instance", async () => {
    const w = await setUp({ strategy: "jwt", revocation: { cache: 10 }, actOnAdmins: true })
    const { chief, chiefs } = await chiefSignedIn(w)
    // A second instance of the app: the same store and secret, its own cache.
    const instanceB: AuthConfig = { ...w.config }
    const onB = (jar: CookieJar, name: string, ...args: unknown[]) => callModuleApi(new Request(`${origin}/`, { headers: { cookie: jar.header() } }), instanceB, name, ...args)
    expect(await onB(w.admins.jar, "isAdmin")).toBe(true)
    // The rogue admin is suspended on instance A.
    await chiefs.api("banUser", w.boss.id, { reason: "rogue" })
    // Instance A refuses the session at once (a copy of the cookies, so that A's clearing stays there).
    const onA = w.browser()
    for (const [name, value] of w.admins.jar.cookies) onA.jar.cookies.set(name, value)
    expect(await onA.who()).toBeNull()
    // On instance B, within the cache's seconds.
    const deleted = await onB(w.admins.jar, "removeUser", w.pat.id).catch((error: unknown) => error)
    const retaliated = await onB(w.admins.jar, "banUser", chief.id, { reason: "payback" }).catch((error: unknown) => error)
    expect(await w.adapter.getUser!(w.pat.id)).not.toBeNull()
    expect(deleted).toMatchObject({ code: "NotSignedIn" })
    expect(retaliated).toMatchObject({ code: "NotSignedIn" })
  })
})

