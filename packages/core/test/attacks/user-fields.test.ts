/**
 * Attacks on the app's user fields (`user.fields`, commit 9d2430f): a user setting a field users may
 * not set (through every endpoint that creates or updates a user), a field reaching the session or
 * the JWT over Sesame's own claims, fields declared `session: false` leaking, `updateUserFields`
 * from a browser that is not the user's, `setUserFields` type confusion, a squatter's fields carried
 * to the owner's new user by the set-aside flow, hostile values (wrong types, huge, invalid dates,
 * JSON with prototypes), and an Auth.js adapter receiving keys it did not expect.
 *
 * Each attack is checked to reach Sesame (the request carried it, the legitimate flow beside it
 * works) before its failure is asserted.
 */
import { Auth, setUserFields, updateUserFields, type AuthConfig, type UserFieldDeclarations } from "@sesame/core"
import { MemoryAdapter, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import { decode, type JWT } from "@sesame/core/jwt"
import Credentials from "@sesame/core/providers/credentials"
import Password, { type PasswordOptions } from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import type { PasswordEmailParams } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { decodeJwt } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, csrfToken, origin, request, secret, send } from "../helpers.js"
import { followLink, recordingEmail, requestLink } from "../email/helpers.js"
import { accounts, atProvider, deliver, oidc, session, signIn as oauthSignIn, startIdp, startSignIn } from "../oauth/harness.js"

const fields = {
  // Only the app sets these.
  role: { type: "string", default: "member" },
  beta: { type: "boolean", default: false },
  notes: { type: "text", optional: true, session: false },
  // Users set these.
  locale: { type: "string", optional: true, input: true },
  seats: { type: "integer", default: 1, input: true },
  prefs: { type: "json", optional: true, input: true },
  birthday: { type: "date", optional: true, input: true },
  // Users set it, but it stays off the session.
  recovery: { type: "string", optional: true, input: true, session: false },
} as const satisfies UserFieldDeclarations

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const cookieName = "sesame.session-token"
const fastHasher = () => argon2id({ memoryCost: 64, timeCost: 1 })

type Stored = AdapterUser & Record<string, unknown>
const stored = (adapter: ReturnType<typeof MemoryAdapter>, email: string) => [...adapter.tables.users.values()].find((u) => u.email === email) as Stored | undefined
const allUsers = (adapter: ReturnType<typeof MemoryAdapter>) => [...adapter.tables.users.values()] as Stored[]

/** The JWT session cookie's claims (decrypted as the server does). */
async function jwtClaims(jar: CookieJar): Promise<JWT | null> {
  const raw = jar.get(cookieName) ?? [0, 1, 2, 3, 4, 5, 6, 7].map((i) => jar.get(`${cookieName}.${i}`) ?? "").join("")
  if (!raw) return null
  return decode({ token: raw, secret, salt: cookieName })
}

function passwordSetup(options: Partial<PasswordOptions> = {}, overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const mails: PasswordEmailParams[] = []
  const email = recordingEmail()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: (p) => void mails.push(p), hasher: fastHasher(), requireEmailVerification: false, ...options }), email.provider],
    user: { fields },
    logger: quiet,
    ...overrides,
  }
  return { adapter, config, mails, sent: email.sent }
}

const passphrase = "correct horse battery staple"

async function signUpForm(config: AuthConfig, form: Record<string, string>, jar = new CookieJar()) {
  const response = await send(config, "/auth/signup/password", { jar, form: { csrfToken: await csrfToken(config, jar), password: passphrase, ...form } })
  return { response, jar, location: response.headers.get("location") ?? "" }
}

async function signUpBody(config: AuthConfig, init: { body: string; type: string }, jar = new CookieJar()) {
  const token = await csrfToken(config, jar)
  const body = init.body.replace("CSRF", encodeURIComponent(token))
  const response = await send(config, "/auth/signup/password", { jar, body, headers: { "content-type": init.type } })
  return { response, jar, location: response.headers.get("location") ?? "" }
}

const errorOf = (location: string) => new URL(location, origin).searchParams.get("error")

describe("attack: a user sets fields users may not set, through every endpoint that creates a user", () => {
  it("password sign-up as a JSON body: the input field is read, the others are not", async () => {
    const { adapter, config } = passwordSetup()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/signup/password", {
      jar,
      json: {
        csrfToken: token,
        email: "eve@example.com",
        password: passphrase,
        // Legitimate: reaches the user.
        locale: "fr",
        // Not input: never read, whatever its type.
        role: "admin",
        beta: true,
        notes: "vip",
        emailVerified: "2020-01-01T00:00:00Z",
        id: "chosen-id",
        // Input fields in JSON's own types rather than a form's text: taken as typed.
        seats: 500,
        prefs: { admin: true },
      },
    })
    expect(response.status).toBe(302)
    const eve = stored(adapter, "eve@example.com")
    expect(eve, "the JSON body reached the sign-up").toMatchObject({ locale: "fr" })
    expect(eve).toMatchObject({ role: "member", beta: false, notes: null, emailVerified: null, seats: 500, prefs: { admin: true } })
    expect(eve!.id).not.toBe("chosen-id")
    expect((await session(config, jar))?.user).toMatchObject({ email: "eve@example.com", role: "member", beta: false, locale: "fr" })
  })

  it("password sign-up with duplicated form keys is refused whole", async () => {
    const { adapter, config } = passwordSetup()
    for (const body of [
      `csrfToken=CSRF&email=dup1%40example.com&password=${encodeURIComponent(passphrase)}&locale=fr&locale=de`,
      `csrfToken=CSRF&email=dup2%40example.com&password=${encodeURIComponent(passphrase)}&role=member&role=admin`,
      `csrfToken=CSRF&email=dup3%40example.com&email=dup4%40example.com&password=${encodeURIComponent(passphrase)}`,
    ]) {
      const { response } = await signUpBody(config, { body, type: "application/x-www-form-urlencoded" })
      expect(response.status, body).toBe(400)
    }
    expect(allUsers(adapter)).toHaveLength(0)
    // The same form, keys once: accepted.
    const { response } = await signUpBody(config, { body: `csrfToken=CSRF&email=once%40example.com&password=${encodeURIComponent(passphrase)}&locale=fr`, type: "application/x-www-form-urlencoded" })
    expect(response.status).toBe(302)
    expect(stored(adapter, "once@example.com")).toMatchObject({ locale: "fr", role: "member" })
  })

  it("password sign-up with `__proto__` and `constructor` keys (form, multipart, JSON) sets nothing and pollutes nothing", async () => {
    const { adapter, config } = passwordSetup()
    const pw = encodeURIComponent(passphrase)
    await signUpBody(config, { body: `csrfToken=CSRF&email=p1%40example.com&password=${pw}&__proto__%5Brole%5D=admin&__proto__=x&constructor=y&locale=fr`, type: "application/x-www-form-urlencoded" })
    const jar = new CookieJar()
    const csrf = await csrfToken(config, jar)
    await send(config, "/auth/signup/password", {
      jar,
      body: `{"csrfToken":${JSON.stringify(csrf)},"email":"p2@example.com","password":${JSON.stringify(passphrase)},"__proto__":{"role":"admin","locale":"xx","beta":true},"constructor":{"prototype":{"role":"admin"}},"locale":"de"}`,
      headers: { "content-type": "application/json" },
    })
    const jar3 = new CookieJar()
    const multipart = new FormData()
    multipart.set("csrfToken", await csrfToken(config, jar3))
    multipart.set("email", "p3@example.com")
    multipart.set("password", passphrase)
    multipart.set("__proto__", "admin")
    multipart.set("locale", "it")
    await send(config, "/auth/signup/password", { jar: jar3, body: multipart })

    expect(stored(adapter, "p1@example.com"), "the form reached the sign-up").toMatchObject({ locale: "fr", role: "member", beta: false })
    expect(stored(adapter, "p2@example.com"), "the JSON body reached the sign-up").toMatchObject({ locale: "de", role: "member", beta: false })
    expect(stored(adapter, "p3@example.com"), "the multipart body reached the sign-up").toMatchObject({ locale: "it", role: "member", beta: false })
    for (const user of allUsers(adapter)) {
      expect(Object.getPrototypeOf(user)).toBe(Object.prototype)
      expect(Object.hasOwn(user, "__proto__")).toBe(false)
      expect(Object.hasOwn(user, "constructor")).toBe(false)
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined()
    expect(({} as Record<string, unknown>).locale).toBeUndefined()
  })

  it("email sign-in: fields in the sign-in form and the confirmation form are never read", async () => {
    const { adapter, config, sent } = passwordSetup()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const asked = await send(config, "/auth/signin/email", { jar, form: { csrfToken: token, email: "mail@example.com", role: "admin", locale: "fr", seats: "9", beta: "true" } })
    expect(asked.status).toBe(302)
    expect(sent, "the sign-in form reached Sesame").toHaveLength(1)
    const link = sent[0]!.url
    const page = await send(config, link, { jar })
    expect(page.status).toBe(200)
    const html = await page.text()
    const action = /<form action="([^"]*)" method="POST">/.exec(html)![1]!.replace(/&amp;/g, "&")
    const hidden: Record<string, string> = {}
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[name!] = value!.replace(/&amp;/g, "&")
    const done = await send(config, action, { jar, form: { ...hidden, role: "admin", locale: "fr", seats: "9", beta: "true" } })
    expect(done.status).toBe(302)
    const user = stored(adapter, "mail@example.com")
    expect(user, "the email sign-in created the user").toBeDefined()
    expect(user).toMatchObject({ role: "member", locale: null, seats: 1, beta: false })
    expect((await session(config, jar))?.user).toMatchObject({ email: "mail@example.com", role: "member", seats: 1 })
  })

  it("credentials: the form's fields reach `authorize`, never the new user (unless `authorize` returns them)", async () => {
    const adapter = MemoryAdapter()
    const seen: Record<string, unknown>[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [
        Credentials({
          credentials: { email: {} },
          createUser: true,
          authorize: (c) => {
            seen.push({ ...c })
            return { email: String(c.email) }
          },
        }),
      ],
      user: { fields },
      logger: quiet,
    }
    const jar = new CookieJar()
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "cred@example.com", role: "admin", locale: "fr", beta: "true" } })
    expect(stored(adapter, "cred@example.com"), "the sign-in created the user").toBeDefined()
    expect(stored(adapter, "cred@example.com")).toMatchObject({ role: "member", locale: null, beta: false })
    expect((await session(config, jar))?.user).toMatchObject({ role: "member", beta: false })
    expect(seen, "the form reached authorize").toEqual([expect.objectContaining({ email: "cred@example.com", role: "admin" })])
  })
})

describe("attack: a hostile identity provider, or a browser tampering with the callback", () => {
  let idp: DevIdp
  beforeAll(async () => {
    idp = await startIdp({
      accounts: [
        ...accounts,
        {
          id: "mallory",
          email: "mallory@example.com",
          name: "Mallory",
          // Claims named like the app's fields, and like Sesame's own claims.
          claims: { role: "admin", beta: true, notes: "leak", locale: "xx", auth_time: 1, factors: ["totp", "password"], email_unverified: false, exp: 4102444800 },
        },
      ],
    })
  })
  afterAll(() => idp.close())

  for (const strategy of ["database", "jwt"] as const) {
    it(`claims named like fields or Sesame's claims change nothing (${strategy} sessions)`, async () => {
      const adapter = MemoryAdapter()
      const released: unknown[] = []
      const config: AuthConfig = {
        secret,
        trustHost: true,
        adapter,
        session: { strategy },
        providers: [oidc(idp)],
        user: { fields },
        events: { signIn: ({ profile }) => void released.push(profile) },
        logger: quiet,
      }
      const jar = new CookieJar()
      const done = await oauthSignIn(config, jar, "dev", { query: { login_hint: "mallory" } })
      expect(done.status).toBe(302)
      expect(released[0], "the provider sent the claims").toMatchObject({ role: "admin", notes: "leak", factors: ["totp", "password"] })
      expect(stored(adapter, "mallory@example.com")).toMatchObject({ role: "member", beta: false, notes: null, locale: null })
      const current = (await session(config, jar))!
      expect(current.user).toMatchObject({ email: "mallory@example.com", role: "member", beta: false, locale: null })
      expect(current.user).not.toHaveProperty("notes")
      if (strategy === "jwt") {
        const claims = (await jwtClaims(jar))!
        expect(claims.role).toBe("member")
        expect(claims.factors).toEqual(["oidc"])
        expect(claims.auth_time).toBeGreaterThan(1_000_000)
        expect(claims).not.toHaveProperty("notes")
      }
    })
  }

  it("`profileFromCallback` parameters the browser adds to the callback never reach a field", async () => {
    const adapter = MemoryAdapter()
    const profiles: Record<string, unknown>[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [oidc(idp, { profileFromCallback: ["role", "locale", "user"] } as never)],
      user: { fields },
      events: { signIn: ({ profile }) => void profiles.push(profile as Record<string, unknown>) },
      logger: quiet,
    }
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev", { query: { login_hint: "alice" } })
    const location = start.headers.get("location")!
    const answer = await atProvider(location, new URL(location).searchParams.get("redirect_uri")!)
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    const tampered = { kind: "redirect" as const, url: `${answer.url}&role=admin&locale=xx&user=${encodeURIComponent(JSON.stringify({ role: "admin" }))}` }
    const done = await deliver(config, jar, tampered)
    expect(done.status).toBe(302)
    expect(profiles[0], "the parameters reached the profile").toMatchObject({ role: "admin", locale: "xx" })
    expect(stored(adapter, "alice@example.com")).toMatchObject({ role: "member", locale: null })
    expect((await jwtClaims(jar))?.role).toBe("member")
  })
})

describe("attack: a field over Sesame's own claims, or the session's user", () => {
  const names = ["sub", "email_unverified", "factors", "auth_time", "iat", "exp", "jti", "iss", "aud", "nbf", "picture", "name", "email", "image", "id", "emailVerified"]
  it.each(names)("a field named %s is a configuration error", async (name) => {
    const errors: Error[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [],
      user: { fields: { [name]: { type: "string", optional: true, input: true } } },
      logger: { ...quiet, error: (e: Error) => void errors.push(e) },
    }
    const response = await Auth(request("/auth/session"), config)
    expect(response.status).toBe(500)
    expect(errors[0]?.message).toContain(`user.fields.${name}`)
  })

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"])("a field named %s is a configuration error", async (name) => {
    const errors: Error[] = []
    const declared = JSON.parse(`{${JSON.stringify(name)}:{"type":"string","optional":true,"input":true}}`) as UserFieldDeclarations
    expect(Object.keys(declared)).toEqual([name])
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [], user: { fields: declared }, logger: { ...quiet, error: (e: Error) => void errors.push(e) } }
    expect((await Auth(request("/auth/session"), config)).status).toBe(500)
    expect(errors[0]?.message).toMatch(/user\.fields/)
  })

  it("a user's input fields in the JWT never displace Sesame's claims or the user's own (sub, email, auth_time, factors)", async () => {
    const { adapter, config } = passwordSetup({}, { session: { strategy: "jwt" } })
    const { jar } = await signUpForm(config, { email: "own@example.com", name: "Real Name", locale: "fr", seats: "3" })
    const user = stored(adapter, "own@example.com")!
    expect(user, "the form's fields reached the user").toMatchObject({ locale: "fr", seats: 3 })
    const claims = (await jwtClaims(jar))!
    expect(claims).toMatchObject({ sub: user.id, email: "own@example.com", name: "Real Name", locale: "fr", seats: 3, role: "member", factors: ["password"], email_unverified: "own@example.com" })
    expect(typeof claims.auth_time).toBe("number")
    expect((await session(config, jar))!.user).toMatchObject({ name: "Real Name", email: "own@example.com", locale: "fr" })
  })
})

describe("attack: the browser updates its own session (POST session)", () => {
  for (const strategy of ["database", "jwt"] as const) {
    it(`posted data naming fields changes neither the session nor the user (${strategy} sessions)`, async () => {
      const { adapter, config } = passwordSetup({}, { session: { strategy } })
      const { jar } = await signUpForm(config, { email: "upd@example.com", locale: "fr" })
      const token = await csrfToken(config, jar)
      const data = { role: "admin", beta: true, notes: "x", locale: "xx", user: { role: "admin", email: "other@example.com", locale: "xx" }, sub: "victim", email_unverified: false }
      const updated = await send(config, "/auth/session", { jar, json: { csrfToken: token, data } })
      expect(updated.status, "the update reached the session").toBe(200)
      const body = (await updated.json()) as { user: Record<string, unknown> }
      expect(body.user).toMatchObject({ email: "upd@example.com", role: "member", beta: false, locale: "fr" })
      expect((await session(config, jar))!.user).toMatchObject({ email: "upd@example.com", role: "member", beta: false, locale: "fr" })
      if (strategy === "jwt") expect(await jwtClaims(jar)).toMatchObject({ role: "member", beta: false, locale: "fr", email_unverified: "upd@example.com", sub: stored(adapter, "upd@example.com")!.id })
      expect(stored(adapter, "upd@example.com")).toMatchObject({ role: "member", beta: false, locale: "fr", notes: null })
    })
  }
})

describe("attack: fields declared `session: false` leak", () => {
  for (const strategy of ["database", "jwt"] as const) {
    it(`not in GET session, the JWT cookie, the callbacks' defaults or an API token (${strategy} sessions)`, async () => {
      const initialTokens: JWT[] = []
      const defaultSessions: unknown[] = []
      const { adapter, config } = passwordSetup(
        {},
        {
          session: { strategy },
          apiTokens: { audience: "https://api.example.com" },
          callbacks: {
            jwt: ({ token, user }) => {
              if (user) initialTokens.push({ ...token })
              return token
            },
            session: ({ session }) => {
              defaultSessions.push(JSON.parse(JSON.stringify(session)))
              return { ...session, user: { ...session.user } }
            },
          },
        },
      )
      // The user sets `recovery` (input, off the session); the app sets `notes` (off the session).
      await signUpForm(config, { email: "quiet@example.com", recovery: "recovery-code-123" })
      const user = stored(adapter, "quiet@example.com")!
      expect(await setUserFields(config, user.id, { notes: "internal: fraud suspect" })).toMatchObject({ updated: true })
      expect(stored(adapter, "quiet@example.com"), "the values were stored").toMatchObject({ notes: "internal: fraud suspect", recovery: "recovery-code-123" })
      // A fresh sign-in, whose session is made from the stored user.
      const jar = new CookieJar()
      await send(config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(config, jar), email: "quiet@example.com", password: passphrase } })

      const response = await send(config, "/auth/session", { jar })
      const text = await response.text()
      expect(JSON.parse(text).user).toMatchObject({ email: "quiet@example.com", role: "member" })
      expect(text).not.toContain("fraud")
      expect(text).not.toContain("recovery-code")
      expect(defaultSessions.length).toBeGreaterThan(0)
      expect(JSON.stringify(defaultSessions)).not.toMatch(/fraud|recovery-code/)
      if (strategy === "jwt") {
        expect(initialTokens.length).toBeGreaterThan(0)
        expect(JSON.stringify(initialTokens)).not.toMatch(/fraud|recovery-code/)
        const claims = (await jwtClaims(jar))!
        expect(claims.sub).toBe(user.id)
        expect(JSON.stringify(claims)).not.toMatch(/fraud|recovery-code/)
      }
      const issued = await send(config, "/auth/token", { jar })
      expect(issued.status).toBe(200)
      const { token } = (await issued.json()) as { token: string }
      expect(decodeJwt(token).sub).toBe(user.id)
      expect(JSON.stringify(decodeJwt(token))).not.toMatch(/fraud|recovery-code/)
    })
  }

  it("an Auth.js adapter's other columns (a password hash, a TOTP secret) never reach GET session or the JWT", async () => {
    for (const strategy of ["database", "jwt"] as const) {
      const memory = MemoryAdapter()
      const { withUserFields: _drop, ...spec } = memory
      const adapter: Adapter = spec
      await memory.createUser({ id: "u-x", email: "cols@example.com", emailVerified: new Date(), name: "Cols", image: null, hashedPassword: "$2b$hash", totpSecret: "JBSWY3DP", role: "owner" } as AdapterUser)
      const { provider, sent } = recordingEmail()
      const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [provider], user: { fields }, logger: quiet }
      const jar = new CookieJar()
      await requestLink(config, jar, "cols@example.com")
      await followLink(config, jar, sent[0]!.url)
      const text = await (await send(config, "/auth/session", { jar })).text()
      expect(JSON.parse(text).user, strategy).toMatchObject({ email: "cols@example.com", role: "owner" })
      expect(text).not.toMatch(/hash|JBSWY3DP|totpSecret/)
      if (strategy === "jwt") expect(JSON.stringify(await jwtClaims(jar))).not.toMatch(/hash|JBSWY3DP/)
    }
  })
})

describe("attack: updateUserFields for someone else", () => {
  async function signedIn(strategy: "database" | "jwt") {
    const { adapter, config } = passwordSetup({}, { session: { strategy } })
    const { jar } = await signUpForm(config, { email: "lin@example.com" })
    const victim = await adapter.createUser({ id: "victim", email: "victim@example.com", emailVerified: new Date(), name: null, image: null, locale: "de", role: "member" } as AdapterUser)
    return { adapter, config, jar, victim }
  }

  for (const strategy of ["database", "jwt"] as const) {
    it(`a second browser, a planted or repeated cookie, another user's id (${strategy} sessions)`, async () => {
      const { adapter, config, jar, victim } = await signedIn(strategy)
      // Legitimate: the browser's own user.
      expect(await updateUserFields(request("/", { jar }), config, { locale: "ja" })).toEqual({ updated: true, fields: { locale: "ja" } })
      expect(stored(adapter, "lin@example.com")!.locale).toBe("ja")
      // Another browser, no cookie.
      expect(await updateUserFields(request("/"), config, { locale: "xx" })).toEqual({ updated: false, reason: "NotSignedIn" })
      // The cookie twice (a sibling subdomain planting its own beside the user's).
      const token = jar.get(cookieName)!
      const { jar: other } = await signUpForm(config, { email: "mal@example.com" })
      const planted = other.get(cookieName)!
      expect(planted).toBeDefined()
      for (const cookie of [`${cookieName}=${token}; ${cookieName}=${token}`, `${cookieName}=${planted}; ${cookieName}=${token}`, `${cookieName}=${token}; ${cookieName}=${planted}`]) {
        expect(await updateUserFields(request("/", { cookie }), config, { locale: "xx" }), cookie).toEqual({ updated: false, reason: "NotSignedIn" })
      }
      // A forged cookie.
      expect(await updateUserFields(request("/", { cookie: `${cookieName}=victim` }), config, { locale: "xx" })).toEqual({ updated: false, reason: "NotSignedIn" })
      // Another user's id, in the values.
      expect(await updateUserFields(request("/", { jar }), config, { id: victim.id, locale: "xx" })).toMatchObject({ updated: false, reason: "InvalidField" })
      expect(await updateUserFields(request("/", { jar }), config, { userId: victim.id, locale: "xx" } as never)).toMatchObject({ updated: false, reason: "InvalidField" })
      expect(stored(adapter, "victim@example.com")).toMatchObject({ locale: "de", role: "member" })
      expect(stored(adapter, "lin@example.com")).toMatchObject({ locale: "ja", role: "member" })
      expect(stored(adapter, "mal@example.com")).toMatchObject({ locale: null })
    })
  }

  it("prototype keys and inherited values in the update set nothing", async () => {
    const { adapter, config, jar } = await signedIn("database")
    const inherited = Object.create({ role: "admin", locale: "inherited" }) as Record<string, unknown>
    inherited.seats = 2
    expect(await updateUserFields(request("/", { jar }), config, inherited)).toEqual({ updated: true, fields: { seats: 2 } })
    expect(await updateUserFields(request("/", { jar }), config, JSON.parse('{"__proto__":{"role":"admin"},"locale":"fr"}') as Record<string, unknown>)).toMatchObject({ updated: false, field: "__proto__" })
    expect(await updateUserFields(request("/", { jar }), config, JSON.parse('{"constructor":{"prototype":{"role":"admin"}}}') as Record<string, unknown>)).toMatchObject({ updated: false, field: "constructor" })
    expect(stored(adapter, "lin@example.com")).toMatchObject({ role: "member", locale: null, seats: 2 })
    expect(({} as Record<string, unknown>).role).toBeUndefined()
  })
})

describe("attack: setUserFields type confusion", () => {
  it("an id or values of the wrong shape write nothing", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [], user: { fields }, logger: quiet }
    await adapter.createUser({ id: "u1", email: "u1@example.com", emailVerified: null, name: null, image: null, role: "member", beta: false, seats: 1 } as AdapterUser)
    const before = JSON.stringify(allUsers(adapter))
    for (const id of [{ id: "u1" }, ["u1"], "__proto__", "constructor", "", null, undefined] as unknown[]) {
      const result = await setUserFields(config, id as string, { role: "admin" }).catch((e: unknown) => e)
      expect(result, String(id)).not.toMatchObject({ updated: true })
    }
    for (const values of ["role", ["admin"], { role: ["admin"] }, { role: { toString: () => "admin" } }, { seats: 1.5 }, { seats: "2" }, { seats: 2 ** 60 }, { beta: "true" }, { role: null }, { prefs: new Map() }, { prefs: () => 1 }, { birthday: "never" }, { birthday: new Date(Number.NaN) }, { id: "u2" }, { email: "x@example.com" }] as unknown[]) {
      const result = await setUserFields(config, "u1", values as Record<string, unknown>).catch((e: unknown) => e)
      expect(result, JSON.stringify(values)).toMatchObject({ updated: false, reason: "InvalidField" })
    }
    expect(JSON.stringify(allUsers(adapter))).toBe(before)
    // Legitimate: it works.
    expect(await setUserFields(config, "u1", { role: "admin" })).toMatchObject({ updated: true })
    expect(stored(adapter, "u1@example.com")!.role).toBe("admin")
  })
})

describe("attack: a squatter's fields carried to the owner's new user (set aside)", () => {
  async function squat(s: ReturnType<typeof passwordSetup>) {
    const squatter = await signUpForm(s.config, { email: "owner@example.com", locale: "xx-squat", seats: "42", prefs: JSON.stringify({ redirect: "https://evil.example" }), birthday: "1999-01-01", recovery: "squatter-recovery" })
    const planted = stored(s.adapter, "owner@example.com")!
    expect(planted, "the squatter's sign-up stored its fields").toMatchObject({ locale: "xx-squat", seats: 42, recovery: "squatter-recovery", emailVerified: null })
    return { squatter, planted }
  }

  const defaultsOf = { locale: null, seats: 1, prefs: null, birthday: null, recovery: null, role: "member" }

  for (const strategy of ["database", "jwt"] as const) {
    it(`the owner's email link: a new user with the defaults; the squatter's session no longer acts (${strategy} sessions)`, async () => {
      const s = passwordSetup({}, { session: { strategy } })
      const { squatter, planted } = await squat(s)
      expect(await updateUserFields(request("/", { jar: squatter.jar }), s.config, { locale: "yy" })).toMatchObject({ updated: true })
      const owner = new CookieJar()
      await requestLink(s.config, owner, "owner@example.com")
      await followLink(s.config, owner, s.sent.at(-1)!.url)
      const mine = stored(s.adapter, "owner@example.com")!
      expect(mine.id).not.toBe(planted.id)
      expect(mine).toMatchObject(defaultsOf)
      expect((await session(s.config, owner))?.user).toMatchObject({ email: "owner@example.com", locale: null, seats: 1, prefs: null })
      // The set-aside user keeps what its maker chose; the owner's is untouched by the squatter's session.
      expect(s.adapter.tables.users.get(planted.id)).toMatchObject({ locale: "yy", seats: 42 })
      // The squatter's session: a JWT one ended; a database one acts on the set-aside user only.
      const late = await updateUserFields(request("/", { jar: squatter.jar }), s.config, { locale: "zz" })
      if (strategy === "jwt") expect(late).toEqual({ updated: false, reason: "NotSignedIn" })
      else expect(s.adapter.tables.users.get(planted.id)).toMatchObject({ locale: "zz" })
      expect(stored(s.adapter, "owner@example.com")).toMatchObject(defaultsOf)
    })
  }

  it("the owner's password reset link: a new user with the defaults", async () => {
    const s = passwordSetup()
    const { planted } = await squat(s)
    const jar = new CookieJar()
    await send(s.config, "/auth/forgot-password/password", { jar, form: { csrfToken: await csrfToken(s.config, jar), email: "owner@example.com" } })
    const mail = s.mails.filter((m) => m.kind === "reset-password").at(-1)!
    const url = new URL(mail.url)
    const done = await send(s.config, "/auth/reset-password/password", {
      jar,
      form: { csrfToken: await csrfToken(s.config, jar), token: url.searchParams.get("token")!, email: url.searchParams.get("email")!, password: "the owner's own passphrase", locale: "pwn", role: "admin" },
    })
    expect(done.status).toBe(302)
    const mine = stored(s.adapter, "owner@example.com")!
    expect(mine.id, "the reset set the squatter aside").not.toBe(planted.id)
    expect(mine).toMatchObject(defaultsOf)
  })
})

describe("attack: hostile values", () => {
  it("values of the wrong type from a sign-up form are refused whole", async () => {
    const { adapter, config } = passwordSetup()
    for (const [form, field] of [
      [{ seats: "1e3" }, "seats"],
      [{ seats: "0x10" }, "seats"],
      [{ seats: "99999999999999999" }, "seats"],
      [{ seats: " 3" }, "seats"],
      [{ prefs: "{not json" }, "prefs"],
      [{ birthday: "never" }, "birthday"],
    ] as [Record<string, string>, string][]) {
      const { location } = await signUpForm(config, { email: `t-${field}-${Object.values(form)[0]!.length}@example.com`, ...form })
      expect(errorOf(location), JSON.stringify(form).slice(0, 80)).toBe("invalid-field")
    }
    expect(allUsers(adapter)).toHaveLength(0)
  })

  it("a deeply nested JSON value is refused, not a server error", async () => {
    const { adapter, config } = passwordSetup()
    // JSON.parse takes any depth; a recursive check or JSON.stringify overflows the stack.
    const outcomes: string[] = []
    for (const depth of [5_000, 8_000, 12_000, 15_000, 50_000]) {
      const { response, location } = await signUpForm(config, { email: `deep${depth}@example.com`, prefs: "[".repeat(depth) + "]".repeat(depth) })
      if (response.status !== 302 || errorOf(location) !== "invalid-field") outcomes.push(`depth ${depth}: ${response.status} ${location}`)
    }
    expect(outcomes).toEqual([])
    // Legitimate: shallow JSON is kept.
    const jar = new CookieJar()
    await signUpForm(config, { email: "ok@example.com", prefs: '{"theme":"dark"}' }, jar)
    expect(stored(adapter, "ok@example.com")!.prefs).toEqual({ theme: "dark" })
    let deep: unknown = []
    for (let i = 0; i < 8_000; i++) deep = [deep]
    const result = await updateUserFields(request("/", { jar }), config, { prefs: deep }).catch((e: unknown) => e)
    expect(result).toMatchObject({ updated: false, reason: "InvalidField", field: "prefs" })
    expect(stored(adapter, "ok@example.com")!.prefs).toEqual({ theme: "dark" })
  })

  it("a huge value a user sets is refused (a name is cut at 200 characters; a VARCHAR(255) column and a cookie hold little)", async () => {
    const { adapter, config } = passwordSetup({}, { session: { strategy: "jwt" } })
    // Legitimate: a locale.
    const small = new CookieJar()
    await signUpForm(config, { email: "small@example.com", locale: "fr" }, small)
    expect(stored(adapter, "small@example.com")!.locale).toBe("fr")
    // 400 000 characters: under the 1 MB body limit, so it reaches the sign-up (no 413).
    const huge = "x".repeat(400_000)
    const { response, location, jar } = await signUpForm(config, { email: "huge@example.com", locale: huge })
    expect(response.status).toBe(302)
    const user = stored(adapter, "huge@example.com")
    const outcome = {
      error: errorOf(location),
      storedLength: typeof user?.locale === "string" ? user.locale.length : null,
      sessionCookies: response.headers.getSetCookie().filter((c) => c.startsWith(cookieName)).length,
      sessionWorks: (await session(config, jar))?.user?.email === "huge@example.com",
    }
    expect(outcome).toEqual({ error: "invalid-field", storedLength: null, sessionCookies: 0, sessionWorks: false })
    // Through updateUserFields too.
    const result = await updateUserFields(request("/", { jar: small }), config, { locale: huge })
    expect(result).toMatchObject({ updated: false, reason: "InvalidField", field: "locale" })
    expect(stored(adapter, "small@example.com")!.locale).toBe("fr")
  })

  it("a date that is not an ISO date, or not a real day, is refused from a form", async () => {
    const { adapter, config } = passwordSetup()
    const good = await signUpForm(config, { email: "iso@example.com", birthday: "1990-05-17" })
    expect(good.response.status).toBe(302)
    expect(stored(adapter, "iso@example.com")!.birthday, "a date from the form reaches the user").toEqual(new Date("1990-05-17T00:00:00Z"))
    const accepted: string[] = []
    for (const [i, text] of ["2020-02-30", "2021-02-29T00:00:00Z", "1", "0", "March 7", "-271821-04-20T00:00:00Z", "+275760-09-13T00:00:00.000Z"].entries()) {
      const email = `date${i}@example.com`
      const { location } = await signUpForm(config, { email, birthday: text })
      const user = stored(adapter, email)
      if (user || errorOf(location) !== "invalid-field") accepted.push(`${text} -> ${user?.birthday instanceof Date ? (user.birthday as Date).toISOString() : String(user?.birthday)}`)
    }
    expect(accepted).toEqual([])
  })

  it("JSON with a prototype key reaches the session as data, polluting nothing", async () => {
    const { adapter, config } = passwordSetup({}, { session: { strategy: "jwt" } })
    const jar = new CookieJar()
    await signUpForm(config, { email: "proto@example.com", prefs: '{"__proto__":{"polluted":"yes","role":"admin"},"theme":"dark"}' }, jar)
    const user = stored(adapter, "proto@example.com")!
    expect(user.prefs, "the JSON reached the user").toMatchObject({ theme: "dark" })
    expect(user.role).toBe("member")
    const current = (await session(config, jar))!
    expect(current.user).toMatchObject({ role: "member", prefs: { theme: "dark" } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((current.user as Record<string, unknown>).polluted).toBeUndefined()
    expect(((current.user as Record<string, unknown>).prefs as Record<string, unknown>).role).not.toBe("admin")
  })
})

describe("attack: an Auth.js adapter (no withUserFields) receives keys it did not expect", () => {
  it("createUser and updateUser get the spec's fields and the declared ones only, whatever the request sent", async () => {
    const memory = MemoryAdapter()
    const created: Record<string, unknown>[] = []
    const updated: Record<string, unknown>[] = []
    const { withUserFields: _drop, ...spec } = memory
    const adapter: Adapter = {
      ...spec,
      createUser: (user) => {
        created.push({ ...user })
        return memory.createUser(user)
      },
      updateUser: (user) => {
        updated.push({ ...user })
        return memory.updateUser(user)
      },
    }
    const { provider, sent } = recordingEmail()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [Password({ sendEmail: () => {}, hasher: fastHasher(), requireEmailVerification: false }), provider],
      user: { fields },
      logger: quiet,
    }
    const allowed = new Set(["id", "name", "email", "emailVerified", "image", ...Object.keys(fields)])
    const jar = new CookieJar()
    await signUpForm(config, { email: "authjs@example.com", locale: "fr", role: "admin", isAdmin: "true", password_hash: "x", emailVerified: "2020-01-01" }, jar)
    const mailJar = new CookieJar()
    await send(config, "/auth/signin/email", { jar: mailJar, form: { csrfToken: await csrfToken(config, mailJar), email: "mail2@example.com", isAdmin: "true" } })
    await followLink(config, mailJar, sent[0]!.url)
    await updateUserFields(request("/", { jar }), config, { locale: "de" })
    expect(created.map((u) => u.email), "both sign-ups reached createUser").toEqual(["authjs@example.com", "mail2@example.com"])
    expect(created[0]).toMatchObject({ locale: "fr", role: "member", emailVerified: null })
    for (const user of created) expect(Object.keys(user).filter((k) => !allowed.has(k))).toEqual([])
    expect(updated.find((u) => u.locale === "de")).toEqual({ id: created[0]!.id, locale: "de" })
    for (const user of updated) expect(Object.keys(user).filter((k) => !allowed.has(k) && k !== "unproven")).toEqual([])
  })

  it("without user.fields, createUser gets no field the form sent", async () => {
    const memory = MemoryAdapter()
    const created: Record<string, unknown>[] = []
    const { withUserFields: _drop, ...spec } = memory
    const adapter: Adapter = { ...spec, createUser: (user) => (created.push({ ...user }), memory.createUser(user)) }
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [Password({ sendEmail: () => {}, hasher: fastHasher(), requireEmailVerification: false })], logger: quiet }
    await signUpForm(config, { email: "plain@example.com", locale: "fr", role: "admin" })
    expect(created).toHaveLength(1)
    expect(Object.keys(created[0]!).sort()).toEqual(["email", "emailVerified", "id", "image", "name"])
  })
})
