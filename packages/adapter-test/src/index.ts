/**
 * The adapter conformance suite. One call registers a Vitest suite that checks every method and
 * rule of the adapter contract against a real store:
 *
 * ```ts
 * import { runAdapterTests } from "@sesame/adapter-test"
 * runAdapterTests({ adapter: MyAdapter(client), db: { user: (id) => …, session: (token) => …, … } })
 * ```
 *
 * `db` reads rows straight from the store (not through the adapter), so that a write is checked by
 * what was really stored. Each test makes its own data (unique emails and ids), so the suite can
 * run against a database that already holds rows.
 *
 * @module
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterCounter,
  AdapterPassword,
  AdapterSession,
  AdapterSigningKey,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { method } from "./method.js"
import { twoFactorFlowTests } from "./two-factor-flow.js"

/** Raw reads of the store, each returning null when the row is absent. */
export interface AdapterTestDb {
  connect?(): Promise<void> | void
  disconnect?(): Promise<void> | void
  user(id: string): Promise<AdapterUser | null>
  account(key: { provider: string; providerAccountId: string }): Promise<AdapterAccount | null>
  session(sessionToken: string): Promise<AdapterSession | null>
  verificationToken(key: { identifier: string; token: string }): Promise<VerificationToken | null>
  authenticator?(credentialID: string): Promise<AdapterAuthenticator | null>
  password?(userId: string): Promise<AdapterPassword | null>
  /** The stored counter, expired or not. */
  counter?(key: string): Promise<AdapterCounter | null>
  /** The user's stored second factor. */
  twoFactor?(userId: string): Promise<AdapterTwoFactor | null>
  /** The hashes of the user's stored recovery codes, in any order ([] when there are none). */
  recoveryCodes?(userId: string): Promise<string[]>
  /** The stored signing key of API tokens with this id. */
  signingKey?(id: string): Promise<AdapterSigningKey | null>
}

/** Optional parts of the contract an adapter may leave out; their tests are then skipped. */
export type AdapterFeature =
  | "authenticators"
  | "sessionManagement"
  | "accountManagement"
  | "transactions"
  | "passwords"
  | "counters"
  | "twoFactor"
  | "signingKeys"

export interface AdapterTestOptions {
  /** The title of the suite. */
  name?: string
  adapter: Adapter
  db: AdapterTestDb
  /** Features the adapter does not implement. */
  skip?: AdapterFeature[]
}

/** Dates with whole seconds, so that every store (some keep milliseconds, some not) round-trips them. */
function seconds(offsetMs = 0): Date {
  return new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000)
}

const day = 86_400_000
const unique = () => crypto.randomUUID().slice(0, 8)

function userFixture(overrides: Partial<AdapterUser> = {}): AdapterUser {
  return {
    id: crypto.randomUUID(),
    name: "Fill Murray",
    email: `fill-${unique()}@murray.example`,
    image: "https://example.com/avatar.png",
    emailVerified: seconds(),
    ...overrides,
  }
}

function accountFixture(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: `gh-${unique()}`,
    access_token: `gho_${unique()}`,
    refresh_token: `ghr_${unique()}`,
    id_token: `eyJ.${unique()}.sig`,
    scope: "read:user user:email",
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: "bearer",
    session_state: "state-1",
    ...overrides,
  }
}

function authenticatorFixture(userId: string, overrides: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  return {
    credentialID: `cred-${unique()}`,
    userId,
    providerAccountId: `pa-${unique()}`,
    counter: 1,
    credentialBackedUp: false,
    credentialPublicKey: "pQECAyYgASFYIBU6TNlgKcFqLQEuM2PsZSAy4YqpN6ntZxZAqB7Cw7E",
    transports: "usb,ble,nfc",
    credentialDeviceType: "platform",
    ...overrides,
  }
}

/** A recovery code's hash as Sesame stores it: 64 lowercase hex digits (SHA-256). */
const codeHash = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "")

/** `bytes` random bytes in base64url, as the parts of a JWE or JWK are written. */
function base64url(bytes: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/**
 * A secret as Sesame stores it: a compact JWE (`dir`, A256GCM) of `bytes` of ciphertext. A TOTP
 * secret's (150 bytes) is about 300 characters, longer than the 255 a `VARCHAR(255)` column would
 * keep; a sealed RSA private key's (1,800 bytes) about 2,500.
 */
function jweFixture(bytes = 150): string {
  return `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoic2VzYW1lLXRvdHAtc2VjcmV0LXYxIn0..${base64url(12)}.${base64url(bytes)}.${base64url(16)}`
}

/**
 * A signing key as Sesame stores it: a random id, the public JWK as JSON text, the private JWK
 * sealed as a JWE. The default is an Ed25519 key (short values); `rsa` gives an RS256 key, whose
 * values are the longest Sesame writes.
 */
function signingKeyFixture(overrides: Partial<AdapterSigningKey> = {}, rsa = false): AdapterSigningKey {
  const id = base64url(16)
  const publicJwk = rsa ? { kty: "RSA", n: base64url(256), e: "AQAB", kid: id, alg: "RS256", use: "sig" } : { kty: "OKP", crv: "Ed25519", x: base64url(32), kid: id, alg: "EdDSA", use: "sig" }
  return {
    id,
    algorithm: rsa ? "RS256" : "EdDSA",
    publicKey: JSON.stringify(publicJwk),
    privateKey: jweFixture(rsa ? 1800 : 120),
    createdAt: seconds(),
    ...overrides,
  }
}

/** Registers the conformance suite for `options.adapter`. */
export function runAdapterTests(options: AdapterTestOptions): void {
  const { adapter, db } = options
  const skip = new Set(options.skip)
  const a = <K extends keyof Adapter>(name: K) => method(adapter, name)
  const createUser = (overrides: Partial<AdapterUser> = {}) => a("createUser")(userFixture(overrides)) as Promise<AdapterUser>

  describe(options.name ?? "adapter conformance", () => {
    beforeAll(async () => {
      await db.connect?.()
    })
    afterAll(async () => {
      await db.disconnect?.()
    })

    describe("users", () => {
      it("createUser stores the user and returns it with its id", async () => {
        const input = userFixture()
        const user = await a("createUser")(input)
        expect(user).toEqual({ ...input, id: user.id })
        expect(await db.user(user.id)).toEqual(user)
      })

      it("keeps a null emailVerified and unicode names and addresses", async () => {
        const user = await createUser({ name: "Zoë Ȳṧ 𝓐da 日本語 🙂", email: `zoë.${unique()}@例え.jp`, emailVerified: null, image: null })
        expect(await a("getUser")(user.id)).toEqual(user)
        expect(await a("getUserByEmail")(user.email)).toEqual(user)
        expect(user.emailVerified).toBeNull()
      })

      it("getUser and getUserByEmail return null for unknown values", async () => {
        const user = await createUser()
        expect(await a("getUser")(user.id)).toEqual(user)
        expect(await a("getUser")(crypto.randomUUID())).toBeNull()
        expect(await a("getUserByEmail")(user.email)).toEqual(user)
        expect(await a("getUserByEmail")(`nobody-${unique()}@example.com`)).toBeNull()
      })

      it("round-trips dates as Date objects", async () => {
        const verified = seconds(-3 * day)
        const user = await createUser({ emailVerified: verified })
        const read = await a("getUser")(user.id)
        expect(read?.emailVerified).toBeInstanceOf(Date)
        expect(read?.emailVerified?.getTime()).toBe(verified.getTime())
      })

      it("updateUser changes the given fields only, and persists them", async () => {
        const user = await createUser()
        const verified = seconds(-day)
        const updated = await a("updateUser")({ id: user.id, name: "Bill Murray", emailVerified: verified })
        expect(updated).toEqual({ ...user, name: "Bill Murray", emailVerified: verified })
        expect(await db.user(user.id)).toEqual(updated)
      })

      it("refuses a second user with the same email, also when created concurrently", async () => {
        const email = `twin-${unique()}@example.com`
        await createUser({ email })
        await expect(createUser({ email })).rejects.toBeInstanceOf(Error)
        const race = `race-${unique()}@example.com`
        const results = await Promise.allSettled([createUser({ email: race }), createUser({ email: race })])
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
        const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected")
        expect(rejected?.reason).toBeInstanceOf(Error)
        expect(String((rejected?.reason as Error).message).length).toBeGreaterThan(0)
      })

      it("refuses to update a user to another user's email", async () => {
        const first = await createUser()
        const second = await createUser()
        await expect(Promise.resolve().then(() => a("updateUser")({ id: second.id, email: first.email }))).rejects.toBeInstanceOf(Error)
        expect((await db.user(second.id))?.email).toBe(second.email)
      })

      it("deleteUser removes the user with its accounts, sessions and authenticators", async () => {
        const user = await createUser()
        const account = accountFixture(user.id)
        await a("linkAccount")(account)
        const sessionToken = `tok-${unique()}`
        await a("createSession")({ sessionToken, userId: user.id, expires: seconds(day) })
        const authenticator = authenticatorFixture(user.id)
        if (!skip.has("authenticators")) await a("createAuthenticator")(authenticator)
        await a("deleteUser")(user.id)
        expect(await db.user(user.id)).toBeNull()
        expect(await db.account(account)).toBeNull()
        expect(await db.session(sessionToken)).toBeNull()
        if (!skip.has("authenticators") && db.authenticator) expect(await db.authenticator(authenticator.credentialID)).toBeNull()
        expect(await a("getUserByAccount")(account)).toBeNull()
      })
    })

    describe("accounts", () => {
      it("linkAccount stores the account with its token set", async () => {
        const user = await createUser()
        const account = accountFixture(user.id)
        await a("linkAccount")(account)
        expect(await db.account(account)).toEqual(account)
      })

      it("getUserByAccount finds the owner; unknown pairs give null", async () => {
        const user = await createUser()
        const account = accountFixture(user.id)
        await a("linkAccount")(account)
        expect(await a("getUserByAccount")(account)).toEqual(user)
        expect(await a("getUserByAccount")({ provider: account.provider, providerAccountId: "nope" })).toBeNull()
        expect(await a("getUserByAccount")({ provider: "gitlab", providerAccountId: account.providerAccountId })).toBeNull()
      })

      it("getAccount returns the account by (providerAccountId, provider), else null", async () => {
        const user = await createUser()
        const account = accountFixture(user.id, { type: "webauthn", provider: "passkey" })
        await a("linkAccount")(account)
        expect(await a("getAccount")(account.providerAccountId, account.provider)).toEqual(account)
        expect(await a("getAccount")("nope", account.provider)).toBeNull()
        expect(await a("getAccount")(account.providerAccountId, "nope")).toBeNull()
        expect(await a("getAccount")("nope", "nope")).toBeNull()
      })

      it("keeps optional token fields absent when they were not given", async () => {
        const user = await createUser()
        const account: AdapterAccount = { userId: user.id, type: "oidc", provider: "idp", providerAccountId: `sub-${unique()}` }
        await a("linkAccount")(account)
        const stored = await a("getAccount")(account.providerAccountId, account.provider)
        expect(stored).toMatchObject(account)
        for (const key of ["access_token", "refresh_token", "id_token", "scope", "expires_at", "token_type", "session_state"]) {
          expect(stored?.[key] ?? null).toBeNull()
        }
      })

      it("refuses a provider account linked twice, and an account for an unknown user", async () => {
        const user = await createUser()
        const account = accountFixture(user.id)
        await a("linkAccount")(account)
        const other = await createUser()
        await expect(Promise.resolve().then(() => a("linkAccount")({ ...account, userId: other.id }))).rejects.toBeInstanceOf(Error)
        await expect(Promise.resolve().then(() => a("linkAccount")(accountFixture(crypto.randomUUID())))).rejects.toBeInstanceOf(Error)
      })

      it("unlinkAccount removes the account", async () => {
        const user = await createUser()
        const account = accountFixture(user.id)
        await a("linkAccount")(account)
        await a("unlinkAccount")(account)
        expect(await db.account(account)).toBeNull()
        expect(await a("getUserByAccount")(account)).toBeNull()
        expect(await db.user(user.id)).toEqual(user)
      })

      it.skipIf(skip.has("accountManagement"))("updateAccount replaces tokens; listAccountsByUserId lists a user's accounts", async () => {
        const user = await createUser()
        const github = accountFixture(user.id)
        const gitlab = accountFixture(user.id, { provider: "gitlab" })
        await a("linkAccount")(github)
        await a("linkAccount")(gitlab)
        await a("linkAccount")(accountFixture((await createUser()).id))
        const expiresAt = Math.floor(Date.now() / 1000) + 7200
        await a("updateAccount")({ provider: github.provider, providerAccountId: github.providerAccountId, access_token: "rotated", expires_at: expiresAt, refresh_token: "rotated-refresh" })
        expect(await db.account(github)).toEqual({ ...github, access_token: "rotated", expires_at: expiresAt, refresh_token: "rotated-refresh" })
        const listed = await a("listAccountsByUserId")(user.id)
        expect(listed.map((x) => x.provider).sort()).toEqual(["github", "gitlab"])
        expect(await a("listAccountsByUserId")(crypto.randomUUID())).toEqual([])
      })
    })

    describe("sessions", () => {
      it("createSession stores the session; getSessionAndUser returns it with the user", async () => {
        const user = await createUser()
        const session: AdapterSession = { sessionToken: `tok-${unique()}`, userId: user.id, expires: seconds(day) }
        const created = await a("createSession")(session)
        expect(created).toMatchObject(session)
        expect(await db.session(session.sessionToken)).toMatchObject(session)
        const found = await a("getSessionAndUser")(session.sessionToken)
        expect(found?.user).toEqual(user)
        expect(found?.session).toMatchObject(session)
        expect(found?.session.expires).toBeInstanceOf(Date)
        expect(await a("getSessionAndUser")(`nope-${unique()}`)).toBeNull()
      })

      it("refuses a session for an unknown user", async () => {
        const session = { sessionToken: `tok-${unique()}`, userId: crypto.randomUUID(), expires: seconds(day) }
        await expect(Promise.resolve().then(() => a("createSession")(session))).rejects.toBeInstanceOf(Error)
      })

      it("updateSession changes expires and persists it", async () => {
        const user = await createUser()
        const sessionToken = `tok-${unique()}`
        await a("createSession")({ sessionToken, userId: user.id, expires: seconds(day) })
        const later = seconds(30 * day)
        const updated = await a("updateSession")({ sessionToken, expires: later })
        expect(updated?.expires.getTime()).toBe(later.getTime())
        expect((await db.session(sessionToken))?.expires.getTime()).toBe(later.getTime())
        expect(await a("updateSession")({ sessionToken: `nope-${unique()}`, expires: later })).toBeFalsy()
      })

      it("deleteSession removes the session", async () => {
        const user = await createUser()
        const sessionToken = `tok-${unique()}`
        await a("createSession")({ sessionToken, userId: user.id, expires: seconds(day) })
        await a("deleteSession")(sessionToken)
        expect(await db.session(sessionToken)).toBeNull()
        expect(await a("getSessionAndUser")(sessionToken)).toBeNull()
      })

      it.skipIf(skip.has("sessionManagement"))("stores session metadata; lists and deletes a user's sessions", async () => {
        const user = await createUser()
        const other = await createUser()
        const created = seconds(-day)
        const tokens = [`a-${unique()}`, `b-${unique()}`, `c-${unique()}`]
        for (const sessionToken of tokens) {
          await a("createSession")({ sessionToken, userId: user.id, expires: seconds(day), createdAt: created, lastUsedAt: created, userAgent: "Mozilla/5.0 (X11; Linux) Ünïcode" })
        }
        await a("createSession")({ sessionToken: `o-${unique()}`, userId: other.id, expires: seconds(day) })
        const listed = await a("listSessionsByUserId")(user.id)
        expect(listed.map((s) => s.sessionToken).sort()).toEqual([...tokens].sort())
        expect(listed[0]).toMatchObject({ userId: user.id, userAgent: "Mozilla/5.0 (X11; Linux) Ünïcode" })
        expect(listed[0]?.createdAt?.getTime()).toBe(created.getTime())
        const used = seconds()
        await a("updateSession")({ sessionToken: tokens[0]!, lastUsedAt: used })
        expect((await db.session(tokens[0]!))?.lastUsedAt?.getTime()).toBe(used.getTime())
        expect(await a("deleteSessionsByUserId")(user.id, tokens[1])).toBe(2)
        expect((await a("listSessionsByUserId")(user.id)).map((s) => s.sessionToken)).toEqual([tokens[1]])
        expect(await a("listSessionsByUserId")(other.id)).toHaveLength(1)
        expect(await a("listSessionsByUserId")(crypto.randomUUID())).toEqual([])
      })
    })

    describe("verification tokens", () => {
      const tokenFixture = (overrides: Partial<VerificationToken> = {}): VerificationToken => ({
        identifier: `user-${unique()}@example.com`,
        token: `${unique()}${unique()}${unique()}`,
        expires: seconds(day),
        ...overrides,
      })

      it("createVerificationToken stores the token", async () => {
        const token = tokenFixture()
        const created = await a("createVerificationToken")(token)
        if (created) expect(created).toEqual(token)
        expect(await db.verificationToken(token)).toEqual(token)
      })

      it("useVerificationToken returns the token once, then null", async () => {
        const token = tokenFixture()
        await a("createVerificationToken")(token)
        expect(await a("useVerificationToken")(token)).toEqual(token)
        expect(await db.verificationToken(token)).toBeNull()
        expect(await a("useVerificationToken")(token)).toBeNull()
      })

      it("a wrong identifier gets null and leaves the token usable", async () => {
        const token = tokenFixture()
        await a("createVerificationToken")(token)
        expect(await a("useVerificationToken")({ identifier: `other-${unique()}@example.com`, token: token.token })).toBeNull()
        expect(await db.verificationToken(token)).toEqual(token)
        expect(await a("useVerificationToken")(token)).toEqual(token)
      })

      it("an expired token comes back with its past expiry (the caller refuses it) and is removed", async () => {
        const token = tokenFixture({ expires: seconds(-day) })
        await a("createVerificationToken")(token)
        const used = await a("useVerificationToken")(token)
        expect(used?.expires.getTime()).toBe(token.expires.getTime())
        expect(await db.verificationToken(token)).toBeNull()
      })

      it("concurrent uses of one token: exactly one gets it, every time", async () => {
        // Twenty at once, over several rounds: a check-then-delete implementation lets two through
        // often enough to be caught here, where three uses at once usually would not.
        for (let round = 0; round < 5; round++) {
          const token = tokenFixture()
          await a("createVerificationToken")(token)
          const results = await Promise.all(Array.from({ length: 20 }, () => a("useVerificationToken")(token)))
          expect(results.filter((r) => r !== null)).toHaveLength(1)
        }
      })
    })

    describe.skipIf(skip.has("authenticators"))("authenticators", () => {
      it("createAuthenticator stores and returns it; getAuthenticator finds it", async () => {
        const user = await createUser()
        await a("linkAccount")(accountFixture(user.id, { type: "webauthn", provider: "passkey" }))
        const authenticator = authenticatorFixture(user.id)
        expect(await a("createAuthenticator")(authenticator)).toMatchObject(authenticator)
        if (db.authenticator) expect(await db.authenticator(authenticator.credentialID)).toMatchObject(authenticator)
        expect(await a("getAuthenticator")(authenticator.credentialID)).toMatchObject(authenticator)
        expect(await a("getAuthenticator")(`nope-${unique()}`)).toBeNull()
      })

      it("createAuthenticator throws for a duplicate credential id or an unknown user", async () => {
        const user = await createUser()
        const authenticator = authenticatorFixture(user.id)
        await a("createAuthenticator")(authenticator)
        await expect(Promise.resolve().then(() => a("createAuthenticator")(authenticator))).rejects.toBeInstanceOf(Error)
        await expect(Promise.resolve().then(() => a("createAuthenticator")(authenticatorFixture(crypto.randomUUID())))).rejects.toBeInstanceOf(Error)
      })

      it("listAuthenticatorsByUserId gives each user's set, and [] for an unknown user", async () => {
        const first = await createUser()
        const second = await createUser()
        const mine = [authenticatorFixture(first.id), authenticatorFixture(first.id, { transports: null, credentialBackedUp: true, credentialDeviceType: "multiDevice" })]
        const theirs = [authenticatorFixture(second.id)]
        for (const x of [...mine, ...theirs]) await a("createAuthenticator")(x)
        const byId = (list: AdapterAuthenticator[]) => [...list].sort((x, y) => x.credentialID.localeCompare(y.credentialID))
        const listed = byId(await a("listAuthenticatorsByUserId")(first.id))
        expect(listed).toHaveLength(2)
        byId(mine).forEach((expected, i) => expect(listed[i]).toMatchObject({ ...expected, transports: expected.transports ?? null }))
        expect(await a("listAuthenticatorsByUserId")(second.id)).toHaveLength(1)
        expect(await a("listAuthenticatorsByUserId")(crypto.randomUUID())).toEqual([])
      })

      it("updateAuthenticatorCounter returns the new counter and persists it; an unknown id rejects", async () => {
        const user = await createUser()
        const authenticator = authenticatorFixture(user.id)
        await a("createAuthenticator")(authenticator)
        const updated = await a("updateAuthenticatorCounter")(authenticator.credentialID, 42)
        expect(updated.counter).toBe(42)
        expect((await a("getAuthenticator")(authenticator.credentialID))?.counter).toBe(42)
        await expect(Promise.resolve().then(() => a("updateAuthenticatorCounter")(`nope-${unique()}`, 1))).rejects.toBeInstanceOf(Error)
      })

      it("stores what a passkey registration writes: a webauthn account without tokens, and an authenticator found by its exact base64 id", async () => {
        const user = await createUser()
        // Real credential ids are standard base64 (with "+", "/" and "="), and case matters in them.
        const credentialID = `Ab+/${unique()}Q==`
        const twin = credentialID.replace("Ab", "aB")
        const account: AdapterAccount = { userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: credentialID }
        await a("linkAccount")(account)
        expect(await a("getAccount")(credentialID, "passkey")).toMatchObject(account)
        const createdAt = seconds()
        await a("createAuthenticator")(authenticatorFixture(user.id, { credentialID, providerAccountId: credentialID, name: null, createdAt }))
        const stored = await a("getAuthenticator")(credentialID)
        expect(stored).toMatchObject({ credentialID, providerAccountId: credentialID })
        expect(stored?.createdAt && new Date(stored.createdAt).getTime()).toBe(createdAt.getTime())
        expect(await a("getAuthenticator")(twin)).toBeNull()
        await a("createAuthenticator")(authenticatorFixture(user.id, { credentialID: twin }))
        expect((await a("getAuthenticator")(twin))?.credentialID).toBe(twin)
      })

      it("renames and deletes an authenticator", async () => {
        const user = await createUser()
        const authenticator = authenticatorFixture(user.id)
        await a("createAuthenticator")(authenticator)
        expect((await a("updateAuthenticator")(authenticator.credentialID, { name: "Laptop — Touch ID" })).name).toBe("Laptop — Touch ID")
        expect((await a("getAuthenticator")(authenticator.credentialID))?.name).toBe("Laptop — Touch ID")
        await expect(Promise.resolve().then(() => a("updateAuthenticator")(`nope-${unique()}`, { name: "x" }))).rejects.toBeInstanceOf(Error)
        await a("deleteAuthenticator")(authenticator.credentialID)
        expect(await a("getAuthenticator")(authenticator.credentialID)).toBeNull()
      })
    })

    describe.skipIf(skip.has("passwords"))("passwords", () => {
      // What real hashers write: a PHC string, and an imported bcrypt hash.
      const argon2 = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$J0nKc3b7vUCeN8yGv+YQ7Xh0pH7n0k2l1c4lqvKcWqE"
      const bcrypt = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"

      it("setPassword stores the hash and returns it; getPassword reads it; a user without one gets null", async () => {
        const user = await createUser()
        expect(await a("getPassword")(user.id)).toBeNull()
        const password = { userId: user.id, hash: argon2, updatedAt: seconds() }
        expect(await a("setPassword")(password)).toEqual(password)
        expect(await a("getPassword")(user.id)).toEqual(password)
        if (db.password) expect(await db.password(user.id)).toEqual(password)
        expect(await a("getPassword")(crypto.randomUUID())).toBeNull()
      })

      it("setPassword replaces the earlier hash", async () => {
        const user = await createUser()
        await a("setPassword")({ userId: user.id, hash: bcrypt, updatedAt: seconds(-day) })
        const replaced = { userId: user.id, hash: argon2, updatedAt: seconds() }
        expect(await a("setPassword")(replaced)).toEqual(replaced)
        expect(await a("getPassword")(user.id)).toEqual(replaced)
        if (db.password) expect(await db.password(user.id)).toEqual(replaced)
      })

      it("deletePassword removes it, and does nothing for a user without one", async () => {
        const user = await createUser()
        await a("setPassword")({ userId: user.id, hash: argon2, updatedAt: seconds() })
        await a("deletePassword")(user.id)
        expect(await a("getPassword")(user.id)).toBeNull()
        if (db.password) expect(await db.password(user.id)).toBeNull()
        await a("deletePassword")(user.id)
        await a("deletePassword")(crypto.randomUUID())
        expect(await db.user(user.id)).toEqual(user)
      })

      it("setPassword throws for an unknown user", async () => {
        const userId = crypto.randomUUID()
        await expect(Promise.resolve().then(() => a("setPassword")({ userId, hash: argon2, updatedAt: seconds() }))).rejects.toBeInstanceOf(Error)
        expect(await a("getPassword")(userId)).toBeNull()
      })

      it("deleteUser removes the user's password", async () => {
        const user = await createUser()
        const other = await createUser()
        await a("setPassword")({ userId: user.id, hash: argon2, updatedAt: seconds() })
        await a("setPassword")({ userId: other.id, hash: bcrypt, updatedAt: seconds() })
        await a("deleteUser")(user.id)
        expect(await a("getPassword")(user.id)).toBeNull()
        if (db.password) expect(await db.password(user.id)).toBeNull()
        expect((await a("getPassword")(other.id))?.hash).toBe(bcrypt)
      })
    })

    describe.skipIf(skip.has("counters"))("counters", () => {
      const counterKey = () => `password:account:${unique()}${unique()}`

      it("incrementCounter starts at 1, then counts up and moves the expiry; getCounter reads it", async () => {
        const key = counterKey()
        expect(await a("getCounter")(key)).toBeNull()
        const first = seconds(60_000)
        expect(await a("incrementCounter")(key, first)).toEqual({ key, count: 1, expires: first })
        const later = seconds(120_000)
        expect(await a("incrementCounter")(key, later)).toEqual({ key, count: 2, expires: later })
        expect(await a("getCounter")(key)).toEqual({ key, count: 2, expires: later })
        if (db.counter) expect(await db.counter(key)).toEqual({ key, count: 2, expires: later })
        expect(await a("getCounter")(counterKey())).toBeNull()
      })

      it("keeps counters apart by key, for keys of up to 255 characters", async () => {
        const ip = `password:ip:2001:db8::${unique()}`
        const long = `password:account:${"f".repeat(255 - "password:account:".length - 8)}${unique()}`
        expect(long).toHaveLength(255)
        const expires = seconds(60_000)
        await a("incrementCounter")(ip, expires)
        await a("incrementCounter")(ip, expires)
        expect(await a("incrementCounter")(long, expires)).toEqual({ key: long, count: 1, expires })
        expect((await a("getCounter")(ip))?.count).toBe(2)
        expect(await a("getCounter")(long)).toEqual({ key: long, count: 1, expires })
        expect(await a("getCounter")(long.slice(0, -1))).toBeNull()
      })

      it("an expired counter reads as null, and the next increment starts again at 1", async () => {
        const key = counterKey()
        await a("incrementCounter")(key, seconds(60_000))
        await a("incrementCounter")(key, seconds(60_000))
        // The third increment counts the live counter, then sets an expiry already past.
        const past = seconds(-60_000)
        expect(await a("incrementCounter")(key, past)).toEqual({ key, count: 3, expires: past })
        expect(await a("getCounter")(key)).toBeNull()
        const next = seconds(60_000)
        expect(await a("incrementCounter")(key, next)).toEqual({ key, count: 1, expires: next })
        expect(await a("getCounter")(key)).toEqual({ key, count: 1, expires: next })
      })

      it("deleteCounter removes it, and does nothing for a missing key", async () => {
        const key = counterKey()
        await a("incrementCounter")(key, seconds(60_000))
        await a("deleteCounter")(key)
        expect(await a("getCounter")(key)).toBeNull()
        if (db.counter) expect(await db.counter(key)).toBeNull()
        await a("deleteCounter")(key)
        expect((await a("incrementCounter")(key, seconds(60_000))).count).toBe(1)
      })

      it("twenty concurrent increments of one key count twenty, each returning its own count", async () => {
        // A read-then-write increment loses counts here; the contract asks for one atomic step.
        for (const fresh of [true, false]) {
          const key = counterKey()
          if (!fresh) await a("incrementCounter")(key, seconds(60_000))
          const base = fresh ? 0 : 1
          const expires = seconds(60_000)
          const results = await Promise.all(Array.from({ length: 20 }, () => a("incrementCounter")(key, expires)))
          expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => base + i + 1))
          expect((await a("getCounter")(key))?.count).toBe(base + 20)
        }
      })
    })

    describe.skipIf(skip.has("twoFactor"))("second factors", () => {
      const totp = (userId: string, overrides: Partial<AdapterTwoFactor> = {}): AdapterTwoFactor => ({
        userId,
        method: "totp",
        secret: jweFixture(),
        enabledAt: seconds(-day),
        devicesRevokedAt: null,
        ...overrides,
      })
      const email = (userId: string, overrides: Partial<AdapterTwoFactor> = {}): AdapterTwoFactor => ({
        userId,
        method: "email",
        secret: null,
        enabledAt: seconds(),
        devicesRevokedAt: seconds(-60_000),
        ...overrides,
      })
      const sorted = (hashes: string[]) => [...hashes].sort()

      it("setTwoFactor stores a TOTP factor and returns it; getTwoFactor reads it; a user without one gets null", async () => {
        const user = await createUser()
        expect(await a("getTwoFactor")(user.id)).toBeNull()
        const factor = totp(user.id)
        expect(factor.secret!.length).toBeGreaterThan(255)
        expect(await a("setTwoFactor")(factor)).toEqual(factor)
        expect(await a("getTwoFactor")(user.id)).toEqual(factor)
        if (db.twoFactor) expect(await db.twoFactor(user.id)).toEqual(factor)
        expect(await a("getTwoFactor")(crypto.randomUUID())).toBeNull()
      })

      it("keeps an email factor's null secret, and a devicesRevokedAt date", async () => {
        const user = await createUser()
        const factor = email(user.id)
        expect(await a("setTwoFactor")(factor)).toEqual(factor)
        const read = await a("getTwoFactor")(user.id)
        expect(read).toEqual(factor)
        expect(read?.enabledAt).toBeInstanceOf(Date)
        expect(read?.devicesRevokedAt).toBeInstanceOf(Date)
        if (db.twoFactor) expect(await db.twoFactor(user.id)).toEqual(factor)
      })

      it("setTwoFactor replaces the earlier factor, nulls included", async () => {
        const user = await createUser()
        await a("setTwoFactor")(totp(user.id))
        const revoked = email(user.id)
        expect(await a("setTwoFactor")(revoked)).toEqual(revoked)
        expect(await a("getTwoFactor")(user.id)).toEqual(revoked)
        // Back to TOTP: the revocation date goes, a secret comes.
        const again = totp(user.id, { enabledAt: seconds() })
        expect(await a("setTwoFactor")(again)).toEqual(again)
        expect(await a("getTwoFactor")(user.id)).toEqual(again)
        if (db.twoFactor) expect(await db.twoFactor(user.id)).toEqual(again)
      })

      it("setTwoFactor and setRecoveryCodes throw for an unknown user", async () => {
        const userId = crypto.randomUUID()
        await expect(Promise.resolve().then(() => a("setTwoFactor")(totp(userId)))).rejects.toBeInstanceOf(Error)
        await expect(Promise.resolve().then(() => a("setRecoveryCodes")(userId, [codeHash()]))).rejects.toBeInstanceOf(Error)
        await expect(Promise.resolve().then(() => a("setRecoveryCodes")(userId, []))).rejects.toBeInstanceOf(Error)
        expect(await a("getTwoFactor")(userId)).toBeNull()
        expect(await a("countRecoveryCodes")(userId)).toBe(0)
        if (db.twoFactor) expect(await db.twoFactor(userId)).toBeNull()
      })

      it("deleteTwoFactor removes the factor and the recovery codes, and does nothing for a user without one", async () => {
        const user = await createUser()
        const other = await createUser()
        const theirs = [codeHash(), codeHash()]
        await a("setTwoFactor")(totp(user.id))
        await a("setRecoveryCodes")(user.id, [codeHash(), codeHash(), codeHash()])
        await a("setTwoFactor")(email(other.id))
        await a("setRecoveryCodes")(other.id, theirs)
        await a("deleteTwoFactor")(user.id)
        expect(await a("getTwoFactor")(user.id)).toBeNull()
        expect(await a("countRecoveryCodes")(user.id)).toBe(0)
        if (db.twoFactor) expect(await db.twoFactor(user.id)).toBeNull()
        if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toEqual([])
        await a("deleteTwoFactor")(user.id)
        await a("deleteTwoFactor")(crypto.randomUUID())
        expect(await db.user(user.id)).toEqual(user)
        expect((await a("getTwoFactor")(other.id))?.method).toBe("email")
        expect(await a("countRecoveryCodes")(other.id)).toBe(2)
        if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(other.id))).toEqual(sorted(theirs))
      })

      it("setRecoveryCodes replaces the earlier set; countRecoveryCodes counts them", async () => {
        const user = await createUser()
        expect(await a("countRecoveryCodes")(user.id)).toBe(0)
        const first = Array.from({ length: 10 }, codeHash)
        await a("setRecoveryCodes")(user.id, first)
        expect(await a("countRecoveryCodes")(user.id)).toBe(10)
        if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(user.id))).toEqual(sorted(first))
        const second = Array.from({ length: 3 }, codeHash)
        await a("setRecoveryCodes")(user.id, second)
        expect(await a("countRecoveryCodes")(user.id)).toBe(3)
        if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(user.id))).toEqual(sorted(second))
        expect(await a("useRecoveryCode")(user.id, first[0]!)).toBe(false)
        await a("setRecoveryCodes")(user.id, [])
        expect(await a("countRecoveryCodes")(user.id)).toBe(0)
        if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toEqual([])
        expect(await a("useRecoveryCode")(user.id, second[0]!)).toBe(false)
        expect(await a("countRecoveryCodes")(crypto.randomUUID())).toBe(0)
      })

      it("useRecoveryCode is true once, then false; a wrong hash, or another user's, is false", async () => {
        const user = await createUser()
        const other = await createUser()
        const mine = [codeHash(), codeHash(), codeHash()]
        const theirs = codeHash()
        await a("setRecoveryCodes")(user.id, mine)
        await a("setRecoveryCodes")(other.id, [theirs])
        expect(await a("useRecoveryCode")(user.id, mine[0]!)).toBe(true)
        expect(await a("useRecoveryCode")(user.id, mine[0]!)).toBe(false)
        expect(await a("countRecoveryCodes")(user.id)).toBe(2)
        if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(user.id))).toEqual(sorted(mine.slice(1)))
        expect(await a("useRecoveryCode")(user.id, codeHash())).toBe(false)
        // Hashes compare exactly: the same digits in upper case are another value.
        expect(await a("useRecoveryCode")(user.id, mine[1]!.toUpperCase())).toBe(false)
        expect(await a("useRecoveryCode")(user.id, theirs)).toBe(false)
        expect(await a("useRecoveryCode")(other.id, mine[1]!)).toBe(false)
        expect(await a("countRecoveryCodes")(user.id)).toBe(2)
        expect(await a("countRecoveryCodes")(other.id)).toBe(1)
        expect(await a("useRecoveryCode")(other.id, theirs)).toBe(true)
        expect(await a("countRecoveryCodes")(other.id)).toBe(0)
      })

      it("concurrent uses of one recovery code: exactly one gets true, every time", async () => {
        // As with verification tokens: a read-then-delete lets two through often enough to show.
        const user = await createUser()
        for (let round = 0; round < 5; round++) {
          const hash = codeHash()
          await a("setRecoveryCodes")(user.id, [hash, codeHash()])
          const results = await Promise.all(Array.from({ length: 10 }, () => a("useRecoveryCode")(user.id, hash)))
          expect(results.filter((r) => r === true)).toHaveLength(1)
          expect(await a("countRecoveryCodes")(user.id)).toBe(1)
        }
      })

      it("createSession stores how the user signed in; getSessionAndUser returns it, and null for a session without", async () => {
        const user = await createUser()
        const signedIn: AdapterSession = { sessionToken: `f-${unique()}`, userId: user.id, expires: seconds(day), factors: ["password", "totp"] }
        const plain: AdapterSession = { sessionToken: `p-${unique()}`, userId: user.id, expires: seconds(day) }
        expect((await a("createSession")(signedIn)).factors).toEqual(["password", "totp"])
        await a("createSession")(plain)
        expect((await a("getSessionAndUser")(signedIn.sessionToken))?.session.factors).toEqual(["password", "totp"])
        expect((await db.session(signedIn.sessionToken))?.factors).toEqual(["password", "totp"])
        // Absent or null: either says the sign-in's factors were not recorded.
        const found = await a("getSessionAndUser")(plain.sessionToken)
        expect(found?.session.sessionToken).toBe(plain.sessionToken)
        expect(found?.session.factors ?? null).toBeNull()
        // Extending a session keeps the factors of its sign-in.
        await a("updateSession")({ sessionToken: signedIn.sessionToken, expires: seconds(2 * day) })
        expect((await a("getSessionAndUser")(signedIn.sessionToken))?.session.factors).toEqual(["password", "totp"])
        if (!skip.has("sessionManagement")) {
          const listed = await a("listSessionsByUserId")(user.id)
          expect(listed.find((s) => s.sessionToken === signedIn.sessionToken)?.factors).toEqual(["password", "totp"])
          expect(listed.find((s) => s.sessionToken === plain.sessionToken)?.factors ?? null).toBeNull()
        }
      })

      it("deleteUser removes the user's second factor and recovery codes", async () => {
        const user = await createUser()
        const other = await createUser()
        await a("setTwoFactor")(totp(user.id))
        await a("setRecoveryCodes")(user.id, [codeHash(), codeHash()])
        await a("setTwoFactor")(totp(other.id))
        await a("setRecoveryCodes")(other.id, [codeHash()])
        await a("deleteUser")(user.id)
        expect(await a("getTwoFactor")(user.id)).toBeNull()
        expect(await a("countRecoveryCodes")(user.id)).toBe(0)
        if (db.twoFactor) expect(await db.twoFactor(user.id)).toBeNull()
        if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toEqual([])
        expect((await a("getTwoFactor")(other.id))?.method).toBe("totp")
        expect(await a("countRecoveryCodes")(other.id)).toBe(1)
      })
    })

    // Needs passwords (the first factor) besides second factors, and the counters these imply.
    twoFactorFlowTests(adapter, db, skip.has("twoFactor") || skip.has("passwords") || skip.has("counters"))

    describe.skipIf(skip.has("signingKeys"))("signing keys", () => {
      const byId = (x: AdapterSigningKey, y: AdapterSigningKey) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
      /** The stored keys among `keys`, by id: the store may hold others (earlier tests', the app's). */
      const listed = async (keys: AdapterSigningKey[]) => {
        const ids = new Set(keys.map((key) => key.id))
        return (await a("listSigningKeys")()).filter((key) => ids.has(key.id)).sort(byId)
      }
      const create = async (keys: AdapterSigningKey[]) => {
        for (const key of keys) await a("createSigningKey")(key)
      }

      it("createSigningKey stores the key and returns it; listSigningKeys gives it back with the exact values", async () => {
        const key = signingKeyFixture()
        expect(await a("createSigningKey")(key)).toEqual(key)
        if (db.signingKey) expect(await db.signingKey(key.id)).toEqual(key)
        const [read] = await listed([key])
        expect(read).toEqual(key)
        expect(read?.createdAt).toBeInstanceOf(Date)
      })

      it("keeps an RSA key whole: a public JWK and a sealed private key far longer than 255 characters", async () => {
        const key = signingKeyFixture({}, true)
        expect(key.publicKey.length).toBeGreaterThan(255)
        expect(key.privateKey.length).toBeGreaterThan(2400)
        expect(await a("createSigningKey")(key)).toEqual(key)
        expect(await listed([key])).toEqual([key])
        if (db.signingKey) expect(await db.signingKey(key.id)).toEqual(key)
      })

      it("lists every stored key, whatever its age and algorithm", async () => {
        const keys = [signingKeyFixture({ createdAt: seconds(-2 * day) }), signingKeyFixture({}, true), signingKeyFixture({ algorithm: "ES256", createdAt: seconds(-day) })]
        await create(keys)
        expect(await listed(keys)).toEqual([...keys].sort(byId))
      })

      it("deleteSigningKey removes one key and leaves the others; a missing id changes nothing", async () => {
        const [first, second, third] = [signingKeyFixture(), signingKeyFixture(), signingKeyFixture()] as const
        await create([first, second, third])
        await a("deleteSigningKey")(second.id)
        const kept = [first, third].sort(byId)
        expect(await listed([first, second, third])).toEqual(kept)
        if (db.signingKey) {
          expect(await db.signingKey(second.id)).toBeNull()
          expect(await db.signingKey(first.id)).toEqual(first)
        }
        await a("deleteSigningKey")(second.id)
        await a("deleteSigningKey")(signingKeyFixture().id)
        expect(await listed([first, second, third])).toEqual(kept)
      })

      it("refuses a second key with the same id and keeps the first; an id differing only in case is another key", async () => {
        const key = signingKeyFixture({ id: `Kid-${unique()}` })
        await a("createSigningKey")(key)
        const twin = signingKeyFixture({ id: key.id, algorithm: "RS256", createdAt: seconds(day) })
        await expect(Promise.resolve().then(() => a("createSigningKey")(twin))).rejects.toBeInstanceOf(Error)
        expect(await listed([key])).toEqual([key])
        if (db.signingKey) expect(await db.signingKey(key.id)).toEqual(key)
        const other = signingKeyFixture({ id: key.id.toLowerCase() })
        expect(await a("createSigningKey")(other)).toEqual(other)
        expect(await listed([key, other])).toEqual([key, other].sort(byId))
      })

      it("deleteUser leaves the signing keys: they are the app's, not a user's", async () => {
        const user = await createUser()
        const key = signingKeyFixture()
        await a("createSigningKey")(key)
        await a("deleteUser")(user.id)
        expect(await listed([key])).toEqual([key])
      })
    })

    describe.skipIf(skip.has("transactions"))("transactions", () => {
      it("commits every write of a transaction that succeeds", async () => {
        const input = userFixture()
        const account = await a("transaction")(async (tx) => {
          const user = await method(tx, "createUser")(input)
          const linked = accountFixture(user.id)
          await method(tx, "linkAccount")(linked)
          return linked
        })
        expect(await db.user(account.userId)).toMatchObject({ email: input.email })
        expect(await db.account(account)).toEqual(account)
      })

      it("rolls back every write of a transaction that throws", async () => {
        const input = userFixture()
        let createdId: string | undefined
        await expect(
          a("transaction")(async (tx) => {
            const user = await method(tx, "createUser")(input)
            createdId = user.id
            await method(tx, "linkAccount")(accountFixture(crypto.randomUUID()))
          }),
        ).rejects.toBeInstanceOf(Error)
        expect(createdId).toBeDefined()
        expect(await db.user(createdId!)).toBeNull()
        expect(await a("getUserByEmail")(input.email)).toBeNull()
      })
    })
  })
}
