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
  AdapterPassword,
  AdapterSession,
  AdapterSigningKey,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtInModelTests } from "./built-in-models.js"
import { listUsersTests } from "./list-users.js"
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
  counter?(key: string): Promise<{ key: string; count: number; expires: Date } | null>
  /** The user's stored second factor. */
  twoFactor?(userId: string): Promise<AdapterTwoFactor | null>
  /** The hashes of the user's stored recovery codes, in any order ([] when there are none). */
  recoveryCodes?(userId: string): Promise<string[]>
  /** The stored signing key of API tokens with this id. */
  signingKey?(id: string): Promise<AdapterSigningKey | null>
}

/**
 * Optional parts of the contract an adapter may leave out; their tests are then skipped. `store`:
 * the generic store, and with it Sesame's own models (`runStoreTests` checks the store itself);
 * `userListing`: `listUsers`.
 */
export type AdapterFeature = "authenticators" | "sessionManagement" | "accountManagement" | "userListing" | "transactions" | "store"

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

    describe.skipIf(skip.has("userListing"))("user listing", () => {
      listUsersTests(adapter, createUser)
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

    describe.skipIf(skip.has("store"))("the built-in models, on the tables every release has made", () => {
      builtInModelTests(adapter, db, createUser)
    })

    // Needs passwords (the first factor) besides second factors, and the counters these imply: the store.
    twoFactorFlowTests(adapter, db, skip.has("store"))

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

export { runStoreTests, storeTestModels, type StoreTestOptions } from "./store.js"
export { runUserFieldsTests, userFieldsTestModel, type UserFieldsTestOptions } from "./user-fields.js"
