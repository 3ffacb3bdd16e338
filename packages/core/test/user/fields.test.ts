/**
 * The app's user fields (`user.fields`) through `Auth()`: declarations checked at start-up, new
 * users stored with them (a provider's `profile()`, an email or password sign-up), the session
 * carrying them (both strategies), and who may set them: a user sets only the fields declared
 * `input: true`, through a sign-up form or `updateUserFields`; a provider's claims reach a user
 * only through the app's own `profile()`.
 */
import { Auth, setUserFields, updateUserFields, type AuthConfig, type UserFieldDeclarations, type UserFieldsOf } from "@sesame/core"
import { MemoryAdapter, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import Password from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import { CookieJar, csrfToken, request, secret, send } from "../helpers.js"
import { accounts, oidc, session, signIn, startIdp } from "../oauth/harness.js"

const fields = {
  role: { type: "string", default: "member" },
  locale: { type: "string", optional: true, input: true },
  seats: { type: "integer", default: 1, input: true },
  beta: { type: "boolean", default: false },
  notes: { type: "text", optional: true, session: false },
  trialEnds: { type: "date", optional: true },
} as const satisfies UserFieldDeclarations

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

function capture() {
  const errors: Error[] = []
  const warnings: string[] = []
  return { errors, warnings, logger: { error: (e: Error) => void errors.push(e), warn: (c: string) => void warnings.push(c), debug: () => {} } }
}

const stored = (adapter: ReturnType<typeof MemoryAdapter>, email: string) =>
  [...adapter.tables.users.values()].find((u) => u.email === email) as (AdapterUser & Record<string, unknown>) | undefined

describe("declarations", () => {
  const cases: [string, UserFieldDeclarations, RegExp][] = [
    ["a name the user already has", { email: { type: "string", optional: true } }, /user\.fields\.email.*one of the user's own fields/],
    ["a claim of the session token", { exp: { type: "integer", optional: true } }, /user\.fields\.exp.*claim of the session token/],
    ["an object's property", JSON.parse('{"constructor":{"type":"string","optional":true}}') as UserFieldDeclarations, /user\.fields\.constructor/],
    ["not an identifier", { "role; drop": { type: "string", optional: true } }, /plain identifier/],
    ["an unknown type", { role: { type: "uuid", optional: true } as never }, /type must be one of/],
    ["a required field without a default", { role: { type: "string" } }, /required field needs a `default`/],
    ["a default of another type", { seats: { type: "integer", default: "ten" } }, /default is not a integer/],
    ["a declaration that is not an object", { role: null as never }, /declaration is an object/],
    ["a column that is not an identifier", { role: { type: "string", optional: true, column: "role; drop table" } }, /column of "role" must be a plain SQL identifier/],
    ["an indexed text field", { bio: { type: "text", optional: true, index: true } }, /cannot be unique or indexed/],
  ]
  it.each(cases)("refuses %s with the Configuration error, naming the field", async (_title, declared, pattern) => {
    const log = capture()
    const config: AuthConfig = { secret, trustHost: true, providers: [], adapter: MemoryAdapter(), user: { fields: declared }, logger: log.logger }
    const response = await Auth(request("/auth/session"), config)
    expect(response.status).toBe(500)
    expect(await response.text()).not.toMatch(/at \w+ \(|\.ts:\d+/)
    expect(log.errors[0]?.message).toMatch(pattern)
  })

  it("types the fields for `User` by declaration merging", () => {
    type Fields = UserFieldsOf<typeof fields>
    expectTypeOf<Fields["role"]>().toEqualTypeOf<string>()
    expectTypeOf<Fields["locale"]>().toEqualTypeOf<string | null>()
    expectTypeOf<Fields["seats"]>().toEqualTypeOf<number>()
    expectTypeOf<Fields["beta"]>().toEqualTypeOf<boolean>()
    expectTypeOf<Fields["trialEnds"]>().toEqualTypeOf<Date | null>()
  })
})

describe("a provider's sign-in", () => {
  let idp: DevIdp
  beforeAll(async () => {
    idp = await startIdp({
      accounts: [
        ...accounts,
        // A provider that releases claims named like the app's fields.
        { id: "mallory", email: "mallory@example.com", name: "Mallory", claims: { role: "admin", beta: true, seats: 1000 } },
        { id: "carol", email: "carol@example.com", name: "Carol", claims: { department: "it" } },
      ],
    })
  })
  afterAll(() => idp.close())

  it("stores a new user with the defaults, and the session carries the fields (database sessions)", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [oidc(idp, { allowDangerousEmailAccountLinking: false })], user: { fields }, logger: quiet }
    const jar = new CookieJar()
    const done = await signIn(config, jar, "dev", { query: { login_hint: "alice" } })
    expect(done.status).toBe(302)
    const alice = stored(adapter, "alice@example.com")
    expect(alice).toMatchObject({ role: "member", locale: null, seats: 1, beta: false, notes: null, trialEnds: null })
    const current = await session(config, jar)
    expect(current?.user).toMatchObject({ email: "alice@example.com", role: "member", locale: null, seats: 1, beta: false })
    expect(current?.user).not.toHaveProperty("notes")
  })

  it("never takes a provider's claims for the app's fields: the default profile maps the user's own fields only", async () => {
    for (const strategy of ["database", "jwt"] as const) {
      const adapter = MemoryAdapter()
      const released: unknown[] = []
      const config: AuthConfig = {
        secret,
        trustHost: true,
        adapter,
        session: { strategy },
        providers: [oidc(idp)],
        user: { fields },
        // The provider did send the claims: the attack is real.
        events: { signIn: ({ profile }) => void released.push(profile?.role) },
        logger: quiet,
      }
      const jar = new CookieJar()
      await signIn(config, jar, "dev", { query: { login_hint: "mallory" } })
      expect(released).toEqual(["admin"])
      const mallory = stored(adapter, "mallory@example.com")
      expect(mallory, strategy).toMatchObject({ role: "member", beta: false, seats: 1 })
      expect((await session(config, jar))?.user, strategy).toMatchObject({ email: "mallory@example.com", role: "member", beta: false, seats: 1 })
    }
  })

  it("stores what the app's own profile() maps from the provider, and the JWT carries it", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [
        oidc(idp, {
          profile: (p) => ({ id: String(p.sub), email: p.email as string, name: (p.name as string) ?? null, role: p.department === "it" ? "admin" : "member", trialEnds: new Date("2027-01-31T00:00:00Z") }),
        }),
      ],
      user: { fields },
      callbacks: {
        jwt: ({ token }) => token,
        session: ({ session, token }) => ({ ...session, role: token.role }),
      },
      logger: quiet,
    }
    const jar = new CookieJar()
    await signIn(config, jar, "dev", { query: { login_hint: "carol" } })
    expect(stored(adapter, "carol@example.com")).toMatchObject({ role: "admin", seats: 1 })
    expect(stored(adapter, "carol@example.com")!.trialEnds).toEqual(new Date("2027-01-31T00:00:00Z"))
    const current = (await session(config, jar)) as { user?: Record<string, unknown>; role?: unknown }
    expect(current?.user).toMatchObject({ role: "admin", trialEnds: "2027-01-31T00:00:00.000Z" })
    expect(current?.role).toBe("admin")
  })

  it("refuses a profile() value that does not fit its declaration, storing nothing", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [oidc(idp, { profile: (p) => ({ id: String(p.sub), email: p.email as string, seats: "many" }) })],
      user: { fields },
      logger: quiet,
    }
    const response = await signIn(config, new CookieJar(), "dev", { query: { login_hint: "alice" } })
    expect(response.headers.get("location")).toMatch(/error=/)
    expect(adapter.tables.users.size).toBe(0)
  })
})

describe("a password sign-up", () => {
  function setup() {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [Password({ sendEmail: () => {}, hasher: argon2id({ memoryCost: 64, timeCost: 1 }), requireEmailVerification: false })],
      user: { fields },
      logger: quiet,
    }
    return { adapter, config }
  }
  const signUp = async (config: AuthConfig, form: Record<string, string>) => {
    const jar = new CookieJar()
    const response = await send(config, "/auth/signup/password", { jar, form: { csrfToken: await csrfToken(config, jar), password: "correct horse battery staple", ...form } })
    return { response, jar, location: response.headers.get("location") ?? "" }
  }

  it("stores the fields users may set from the form", async () => {
    const { adapter, config } = setup()
    const { jar } = await signUp(config, { email: "ada@example.com", locale: "fr", seats: "3" })
    expect(stored(adapter, "ada@example.com")).toMatchObject({ locale: "fr", seats: 3, role: "member" })
    expect((await session(config, jar))?.user).toMatchObject({ locale: "fr", seats: 3, role: "member" })
  })

  it("attack: a sign-up form that sets fields users may not set stores the defaults", async () => {
    const { adapter, config } = setup()
    await signUp(config, { email: "eve@example.com", role: "admin", beta: "true", notes: "vip", emailVerified: "2020-01-01", id: "chosen" })
    const eve = stored(adapter, "eve@example.com")
    expect(eve).toMatchObject({ role: "member", beta: false, notes: null, emailVerified: null })
    expect(eve!.id).not.toBe("chosen")
  })

  it("sends a value of the wrong type back to the form, storing nothing", async () => {
    const { adapter, config } = setup()
    const { location } = await signUp(config, { email: "bad@example.com", seats: "lots" })
    expect(new URL(location, "http://x").searchParams.get("error")).toBe("invalid-field")
    expect(adapter.tables.users.size).toBe(0)
  })
})

describe("updateUserFields", () => {
  async function signedIn(strategy: "database" | "jwt" = "database") {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy },
      providers: [Credentials({ credentials: { email: {} }, createUser: true, authorize: (c) => ({ email: String(c.email) }) })],
      user: { fields },
      logger: quiet,
    }
    const jar = new CookieJar()
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "lin@example.com" } })
    const req = (path = "/") => request(path, { jar })
    return { adapter, config, jar, req }
  }

  it("sets the fields users may set, for the signed-in user only", async () => {
    const { adapter, config, req, jar } = await signedIn()
    const other = await adapter.createUser({ id: "other", email: "other@example.com", emailVerified: null, name: null, image: null, locale: "de" } as AdapterUser)
    expect(await updateUserFields(req(), config, { locale: "ja", seats: 4 })).toEqual({ updated: true, fields: { locale: "ja", seats: 4 } })
    expect(stored(adapter, "lin@example.com")).toMatchObject({ locale: "ja", seats: 4, role: "member" })
    expect(stored(adapter, other.email)).toMatchObject({ locale: "de" })
    expect((await session(config, jar))?.user).toMatchObject({ locale: "ja", seats: 4 })
  })

  it("attack: refuses the whole update when it sets a field users may not set, an undeclared one, or a wrong type", async () => {
    const { adapter, config, req } = await signedIn()
    expect(await updateUserFields(req(), config, { locale: "it", role: "admin" })).toEqual({ updated: false, reason: "InvalidField", field: "role" })
    expect(await updateUserFields(req(), config, { email: "takeover@example.com" })).toEqual({ updated: false, reason: "InvalidField", field: "email" })
    expect(await updateUserFields(req(), config, { id: "other" })).toEqual({ updated: false, reason: "InvalidField", field: "id" })
    expect(await updateUserFields(req(), config, { notes: "x" })).toEqual({ updated: false, reason: "InvalidField", field: "notes" })
    expect(await updateUserFields(req(), config, { seats: "4" })).toEqual({ updated: false, reason: "InvalidField", field: "seats" })
    expect(await updateUserFields(req(), config, JSON.parse('{"__proto__":{"role":"admin"}}') as Record<string, unknown>)).toMatchObject({ updated: false })
    expect(stored(adapter, "lin@example.com")).toMatchObject({ locale: null, role: "member", email: "lin@example.com", seats: 1 })
  })

  it("answers NotSignedIn without a session, and with two session cookies (a planted one)", async () => {
    const { config, jar } = await signedIn()
    expect(await updateUserFields(request("/"), config, { locale: "fr" })).toEqual({ updated: false, reason: "NotSignedIn" })
    const token = jar.get("sesame.session-token")!
    const doubled = request("/", { headers: { cookie: `sesame.session-token=${token}; sesame.session-token=${token}` } })
    expect(await updateUserFields(doubled, config, { locale: "fr" })).toEqual({ updated: false, reason: "NotSignedIn" })
  })
})

describe("without an adapter (JWT sessions, nothing stored)", () => {
  it("the session has the user fields of the user authorize gives, checked, the defaults filling the rest", async () => {
    const config = (role: unknown): AuthConfig => ({
      secret,
      trustHost: true,
      providers: [Credentials({ credentials: { email: {} }, authorize: (c) => ({ id: "1", email: String(c.email), ...(role === undefined ? {} : { role }) }) })],
      user: { fields },
      logger: quiet,
    })
    const signInAs = async (c: AuthConfig) => {
      const jar = new CookieJar()
      const response = await send(c, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(c, jar), email: "jo@example.com" } })
      return { jar, response }
    }
    const plain = await signInAs(config(undefined))
    expect((await session(config(undefined), plain.jar))?.user).toMatchObject({ email: "jo@example.com", role: "member", seats: 1, beta: false, locale: null })
    const owner = config("owner")
    const signedOwner = await signInAs(owner)
    expect((await session(owner, signedOwner.jar))?.user).toMatchObject({ role: "owner" })
    const wrong = config(42)
    const refused = await signInAs(wrong)
    expect(refused.response.headers.get("location")).toMatch(/error=/)
    expect(await session(wrong, refused.jar)).toBeNull()
  })
})

describe("setUserFields", () => {
  it("sets any declared field of a user from the app's code, and refuses what is not declared or of the wrong type", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [], user: { fields }, logger: quiet }
    await adapter.createUser({ id: "u1", email: "u1@example.com", emailVerified: null, name: null, image: null, role: "member", beta: false } as AdapterUser)
    expect(await setUserFields(config, "u1", { role: "admin", notes: "paid annually" })).toEqual({ updated: true, fields: { role: "admin", notes: "paid annually" } })
    expect(stored(adapter, "u1@example.com")).toMatchObject({ role: "admin", notes: "paid annually" })
    expect(await setUserFields(config, "u1", { email: "x@example.com" })).toEqual({ updated: false, reason: "InvalidField", field: "email" })
    expect(await setUserFields(config, "u1", { beta: "yes" })).toEqual({ updated: false, reason: "InvalidField", field: "beta" })
    expect(await setUserFields(config, "nobody", { role: "admin" })).toEqual({ updated: false, reason: "NotFound" })
    expect(stored(adapter, "u1@example.com")).toMatchObject({ email: "u1@example.com", beta: false })
  })
})

describe("an adapter that does not say it stores user fields (Auth.js's)", () => {
  it("warns once, passes the fields to createUser as Auth.js passes a profile's, and reads what it returns", async () => {
    const memory = MemoryAdapter()
    const created: Record<string, unknown>[] = []
    const { withUserFields: _, ...spec } = memory
    const adapter: Adapter = {
      ...spec,
      createUser: (user) => {
        created.push({ ...user })
        return memory.createUser(user)
      },
    }
    const log = capture()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [Credentials({ credentials: { email: {} }, createUser: true, authorize: (c) => ({ email: String(c.email), role: "owner" }) })],
      user: { fields },
      logger: log.logger,
    }
    const jar = new CookieJar()
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email: "kim@example.com" } })
    expect(log.warnings).toContain("user-fields-adapter-unaware")
    expect(created[0]).toMatchObject({ email: "kim@example.com", role: "owner", seats: 1, beta: false, locale: null })
    expect((await session(config, jar))?.user).toMatchObject({ email: "kim@example.com", role: "owner" })
  })
})
