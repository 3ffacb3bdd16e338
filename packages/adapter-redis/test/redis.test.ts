/**
 * What the conformance suite cannot see from outside Redis: key expiry, the key layout under the
 * prefix, races between separate connections, transactions against other clients, and failures.
 */
import { builtInModels, type AdapterUser, type ModelDeclaration } from "@sesame/core/adapters"
import RedisAdapter, { keys, TransactionConflict } from "@sesame/adapter-redis"
import type { Redis } from "ioredis"
import { afterAll, describe, expect, it, vi } from "vitest"
import { joinParts, modelKeys } from "../src/store/keys.js"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const prefix = testPrefix()
const k = keys(prefix)
const client = await connectRedis()
const other = await connectRedis()
const adapter = RedisAdapter(client, { prefix })
const store = adapter.store!
const { passwords, counters, twoFactors, recoveryCodes, signingKeys } = builtInModels
/** The key of a row of `model` under `prefix`. */
const rowKey = (model: ModelDeclaration, ...key: string[]) => prefix + modelKeys.row(model.table, joinParts(key))
// The same store through a second connection: another app instance.
const elsewhere = RedisAdapter(other, { prefix })

afterAll(async () => {
  await dropPrefix(client, prefix)
  await Promise.all([client.quit(), other.quit()])
})

const unique = () => crypto.randomUUID().slice(0, 8)
const hour = 3_600_000

function user(overrides: Partial<AdapterUser> = {}): AdapterUser {
  return { id: crypto.randomUUID(), email: `r-${unique()}@example.com`, emailVerified: null, name: "Redis", image: null, ...overrides }
}

/** PTTL of `key`, checked to be within `ms` (less the time the test took to get here). */
async function expectTtl(key: string, ms: number) {
  const ttl = await client.pttl(key)
  expect(ttl).toBeLessThanOrEqual(ms)
  expect(ttl).toBeGreaterThan(ms - 5_000)
}

describe("expiry", () => {
  it("a session's key expires at its expires, and moves when the session is extended", async () => {
    const { id } = await adapter.createUser!(user())
    const sessionToken = `s-${unique()}`
    const expires = new Date(Date.now() + hour)
    await adapter.createSession!({ sessionToken, userId: id, expires })
    await expectTtl(k.session(sessionToken), expires.getTime() - Date.now())
    const later = new Date(Date.now() + 30 * 24 * hour)
    await adapter.updateSession!({ sessionToken, expires: later, lastUsedAt: new Date() })
    await expectTtl(k.session(sessionToken), later.getTime() - Date.now())
    // Metadata updates leave the expiry alone.
    await adapter.updateSession!({ sessionToken, userAgent: "curl" })
    await expectTtl(k.session(sessionToken), later.getTime() - Date.now())
    // Users, their email index and their session index do not expire.
    for (const key of [k.user(id), k.userSessions(id)]) expect(await client.pttl(key)).toBe(-1)
  })

  it("a verification token's key expires its grace period after its expires", async () => {
    const token = { identifier: `t-${unique()}@example.com`, token: unique(), expires: new Date(Date.now() + 24 * hour) }
    await adapter.createVerificationToken!(token)
    await expectTtl(k.verificationToken(token.identifier, token.token), token.expires.getTime() + hour - Date.now())
    const exact = RedisAdapter(client, { prefix, verificationTokenGrace: 0 })
    const second = { ...token, token: unique() }
    await exact.createVerificationToken!(second)
    await expectTtl(k.verificationToken(second.identifier, second.token), second.expires.getTime() - Date.now())
  })

  it("a counter's key expires at its expires, and moves with each increment; a password's key does not expire", async () => {
    const key = `password:account:${unique()}`
    const bump = (expires: Date) => store.increment(counters, { key }, "count", { create: { key, count: 0, expires }, set: { expires } })
    const expires = new Date(Date.now() + hour)
    await bump(expires)
    await expectTtl(rowKey(counters, key), expires.getTime() - Date.now())
    const later = new Date(Date.now() + 2 * hour)
    await bump(later)
    await expectTtl(rowKey(counters, key), later.getTime() - Date.now())
    const { id } = await adapter.createUser!(user())
    await store.create(passwords, { userId: id, hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date() })
    expect(await client.pttl(rowKey(passwords, id))).toBe(-1)
  })

  it("an expired session's key is gone: not found, and pruned from the user's set at the next sign-in", async () => {
    const { id } = await adapter.createUser!(user())
    const sessionToken = `s-${unique()}`
    const live = `s-${unique()}`
    await adapter.createSession!({ sessionToken, userId: id, expires: new Date(Date.now() + 150) })
    await adapter.createSession!({ sessionToken: live, userId: id, expires: new Date(Date.now() + hour) })
    expect(await client.smembers(k.userSessions(id))).toHaveLength(2)
    await vi.waitFor(async () => expect(await client.exists(k.session(sessionToken))).toBe(0), { timeout: 5_000, interval: 20 })
    expect(await adapter.getSessionAndUser!(sessionToken)).toBeNull()
    const next = `s-${unique()}`
    await adapter.createSession!({ sessionToken: next, userId: id, expires: new Date(Date.now() + hour) })
    expect((await client.smembers(k.userSessions(id))).sort()).toEqual([live, next].sort())
  })

  it("listing and deleting a user's sessions skip (and prune) names whose session is gone", async () => {
    const { id } = await adapter.createUser!(user())
    const live = `s-${unique()}`
    await adapter.createSession!({ sessionToken: live, userId: id, expires: new Date(Date.now() + hour) })
    // As a session that expired since the last sign-in leaves it.
    await client.sadd(k.userSessions(id), "expired-since")
    expect((await adapter.listSessionsByUserId!(id)).map((s) => s.sessionToken)).toEqual([live])
    expect(await client.smembers(k.userSessions(id))).toEqual([live])
    await client.sadd(k.userSessions(id), "expired-since")
    expect(await adapter.deleteSessionsByUserId!(id)).toBe(1)
    expect(await client.exists(k.userSessions(id))).toBe(0)
  })

  it("round-trips dates to the millisecond", async () => {
    const emailVerified = new Date(1_700_000_000_123)
    const created = await adapter.createUser!(user({ emailVerified }))
    expect((await elsewhere.getUser!(created.id))?.emailVerified?.getTime()).toBe(1_700_000_000_123)
    const sessionToken = `s-${unique()}`
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + hour + 7)
    await adapter.createSession!({ sessionToken, userId: created.id, expires, createdAt: new Date(1_700_000_000_001) })
    const found = await elsewhere.getSessionAndUser!(sessionToken)
    expect(found?.session.expires.getTime()).toBe(expires.getTime())
    expect(found?.session.createdAt?.getTime()).toBe(1_700_000_000_001)
  })
})

describe("keys", () => {
  /** A client on a logical database no other test uses, so that its whole keyspace can be read. */
  async function emptyDatabase(): Promise<Redis> {
    for (let db = 15; db > 0; db--) {
      const candidate = await connectRedis({ db })
      if ((await candidate.dbsize()) === 0) return candidate
      await candidate.quit()
    }
    throw new Error("No empty Redis logical database (1–15) to run the keyspace test in.")
  }

  it("writes only under the prefix; a user's deletion leaves none of its keys behind, and the app's signing keys", async () => {
    const db = await emptyDatabase()
    try {
      const scoped = RedisAdapter(db, { prefix })
      const created = await scoped.createUser!(user())
      const account = { userId: created.id, type: "oauth" as const, provider: "git:hub", providerAccountId: `a:${unique()}` }
      await scoped.linkAccount!(account)
      await scoped.createSession!({ sessionToken: `s-${unique()}`, userId: created.id, expires: new Date(Date.now() + hour) })
      await scoped.createAuthenticator!({
        credentialID: `c-${unique()}`,
        userId: created.id,
        providerAccountId: account.providerAccountId,
        credentialPublicKey: "pk",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      })
      const token = { identifier: created.email, token: unique(), expires: new Date(Date.now() + hour) }
      await scoped.createVerificationToken!(token)
      await scoped.transaction!(async (tx) => tx.updateUser!({ id: created.id, name: "Renamed" }))
      const models = scoped.store!
      await models.create(passwords, { userId: created.id, hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date() })
      const counter = `password:ip:${unique()}`
      const expires = new Date(Date.now() + hour)
      await models.increment(counters, { key: counter }, "count", { create: { key: counter, count: 0, expires }, set: { expires } })
      await models.create(twoFactors, { userId: created.id, method: "totp", secret: "eyJ.x.y", enabledAt: new Date(), devicesRevokedAt: null })
      for (const hash of ["a".repeat(64), "b".repeat(64)]) await models.create(recoveryCodes, { userId: created.id, hash })
      const signingKey = { id: `k-${unique()}`, algorithm: "EdDSA", publicKey: "{}", privateKey: "eyJ.a.b.c.d", createdAt: new Date() }
      await models.create(signingKeys, signingKey)

      // Another run of this test may have picked the same database at the same moment.
      const everything = (await db.keys("*")).filter((key) => !/^sesame-test-[0-9a-f]{8}:/.test(key) || key.startsWith(prefix))
      expect(everything.every((key) => key.startsWith(prefix))).toBe(true)
      const namespaces = new Set(everything.map((key) => key.slice(prefix.length).split(":")[0]))
      expect([...namespaces].sort()).toEqual([
        "account",
        "authenticator",
        "email",
        "model",
        "model-all",
        "model-index",
        "model-referrers",
        "model-schema",
        "session",
        "store-layout",
        "token",
        "user",
        "user-accounts",
        "user-authenticators",
        "user-sessions",
      ])
      expect(await db.exists(k.account("git:hub", account.providerAccountId))).toBe(1)

      // What describes the models (their schemas, and which of them refer to users) stays, and so
      // does the mark that the prefix holds no record of release 0.1 (set at the first call).
      const schemas = [
        k.storeLayout(),
        `${prefix}model-referrers:user`,
        ...["counters", "passwords", "recoveryCodes", "signingKeys", "twoFactors"].map((name) => `${prefix}model-schema:${name}`),
      ]
      await scoped.deleteUser!(created.id)
      await scoped.useVerificationToken!(token)
      await models.delete(counters, { key: counter })
      expect(await keysUnder(db, prefix)).toEqual([`${prefix}model-all:sesame_signing_keys`, rowKey(signingKeys, signingKey.id), ...schemas].sort())
      await models.delete(signingKeys, { id: signingKey.id })
      expect(await keysUnder(db, prefix)).toEqual(schemas.sort())
    } finally {
      await dropPrefix(db, prefix)
      await db.quit()
    }
  })
  it("puts the client's own keyPrefix in front of its prefix", async () => {
    const outer = `sesame-test-${unique()}:`
    const prefixed = await connectRedis({ keyPrefix: outer })
    try {
      const created = await RedisAdapter(prefixed, { prefix: "auth:" }).createUser!(user())
      const under = keys(`${outer}auth:`)
      expect(await client.exists(under.user(created.id))).toBe(1)
      // The user, its email, and the mark of the store's layout (read and set through the client).
      expect(await keysUnder(client, outer)).toEqual([under.email(created.email), under.storeLayout(), under.user(created.id)].sort())
    } finally {
      await dropPrefix(client, outer)
      await prefixed.quit()
    }
  })

  it("listUsers finds users under the client's keyPrefix and a prefix holding glob characters, and no other prefix's", async () => {
    const outer = `sesame-test-${unique()}:`
    const prefixed = await connectRedis({ keyPrefix: outer })
    try {
      // `*`, `?`, `[` and `\` in a SCAN pattern would match other prefixes' keys: escaped, they match themselves.
      const adapter = RedisAdapter(prefixed, { prefix: "a*u?t[h]\\:" })
      const neighbour = RedisAdapter(prefixed, { prefix: "aXuYth\\:" })
      const mine = [await adapter.createUser!(user()), await adapter.createUser!(user())].sort((a, b) => (a.email < b.email ? -1 : 1))
      await neighbour.createUser!(user())
      const page = await adapter.listUsers!({ limit: 10 })
      expect(page).toEqual({ users: mine, next: null })
      const first = await adapter.listUsers!({ limit: 1 })
      expect(first.users).toEqual([mine[0]])
      expect((await adapter.listUsers!({ limit: 1, cursor: first.next! })).users).toEqual([mine[1]])
    } finally {
      await dropPrefix(client, outer)
      await prefixed.quit()
    }
  })
})

describe("concurrency across connections", () => {
  it("two connections creating the same email at once make one user", async () => {
    for (let round = 0; round < 10; round++) {
      const email = `race-${unique()}@example.com`
      const [first, second] = [user({ email }), user({ email })]
      const results = await Promise.allSettled([adapter.createUser!(first), elsewhere.createUser!(second)])
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
      const winner = (await adapter.getUserByEmail!(email))!
      expect([first.id, second.id]).toContain(winner.id)
      const loser = winner.id === first.id ? second.id : first.id
      expect(await client.exists(k.user(loser))).toBe(0)
      expect(await client.get(k.email(email))).toBe(winner.id)
    }
  })

  it("twenty concurrent uses of one verification token over two connections: exactly one gets it", async () => {
    const token = { identifier: `v-${unique()}@example.com`, token: unique(), expires: new Date(Date.now() + hour) }
    await adapter.createVerificationToken!(token)
    const uses = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? adapter : elsewhere).useVerificationToken!(token))
    const results = await Promise.all(uses)
    expect(results.filter((r) => r !== null)).toEqual([token])
    expect(await client.exists(k.verificationToken(token.identifier, token.token))).toBe(0)
  })

  it("the same provider account linked from two connections at once is linked once", async () => {
    const [a, b] = [await adapter.createUser!(user()), await adapter.createUser!(user())]
    const providerAccountId = `gh-${unique()}`
    const results = await Promise.allSettled([
      adapter.linkAccount!({ userId: a.id, type: "oauth", provider: "github", providerAccountId }),
      elsewhere.linkAccount!({ userId: b.id, type: "oauth", provider: "github", providerAccountId }),
    ])
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
    const owner = (await adapter.getUserByAccount!({ provider: "github", providerAccountId }))!
    const members = [...(await client.smembers(k.userAccounts(a.id))), ...(await client.smembers(k.userAccounts(b.id)))]
    expect(members).toHaveLength(1)
    expect((await adapter.listAccountsByUserId!(owner.id)).map((x) => x.providerAccountId)).toEqual([providerAccountId])
  })
})

describe("transactions", () => {
  it("other clients see nothing of a transaction until it commits; inside, it reads its own writes", async () => {
    const input = user()
    await adapter.transaction!(async (tx) => {
      const created = await tx.createUser!(input)
      await tx.linkAccount!({ userId: created.id, type: "oidc", provider: "idp", providerAccountId: `sub-${unique()}` })
      expect(await tx.getUserByEmail!(input.email)).toEqual(created)
      expect(await tx.listAccountsByUserId!(created.id)).toHaveLength(1)
      expect(await elsewhere.getUserByEmail!(input.email)).toBeNull()
      expect(await client.exists(k.user(input.id), k.email(input.email), k.userAccounts(input.id))).toBe(0)
    })
    expect(await elsewhere.getUserByEmail!(input.email)).toMatchObject({ id: input.id })
    expect(await elsewhere.listAccountsByUserId!(input.id)).toHaveLength(1)
  })

  it("a rule broken by another client before the commit writes nothing and rejects", async () => {
    const input = user()
    const providerAccountId = `sub-${unique()}`
    await expect(
      adapter.transaction!(async (tx) => {
        const created = await tx.createUser!(input)
        // Another instance signs the same address up meanwhile.
        await elsewhere.createUser!(user({ email: input.email }))
        await tx.linkAccount!({ userId: created.id, type: "oidc", provider: "idp", providerAccountId })
      }),
    ).rejects.toThrow(/email already exists/)
    expect(await client.exists(k.user(input.id))).toBe(0)
    expect(await adapter.getAccount!(providerAccountId, "idp")).toBeNull()
  })

  it("data the transaction read, changed by another client before the commit, is a conflict: nothing is written", async () => {
    const existing = await adapter.createUser!(user())
    const sessionToken = `s-${unique()}`
    const attempt = adapter.transaction!(async (tx) => {
      const seen = await tx.getUser!(existing.id)
      await tx.createSession!({ sessionToken, userId: seen!.id, expires: new Date(Date.now() + hour) })
      await elsewhere.updateUser!({ id: existing.id, name: "Changed elsewhere" })
    })
    await expect(attempt).rejects.toBeInstanceOf(TransactionConflict)
    expect(await client.exists(k.session(sessionToken))).toBe(0)
    expect((await adapter.getUser!(existing.id))?.name).toBe("Changed elsewhere")
  })

  it("a call after the transaction ended is refused", async () => {
    let leaked: Parameters<Parameters<NonNullable<typeof adapter.transaction>>[0]>[0] | undefined
    await adapter.transaction!(async (tx) => {
      leaked = tx
    })
    await expect(leaked!.getUser!("x")).rejects.toThrow(/ended/)
  })
})

describe("failures", () => {
  it("a write failing half-way leaves nothing written, and its error carries no values", async () => {
    const created = await adapter.createUser!(user())
    // Break the user's account index so that the script fails after writing the account itself.
    await client.set(k.userAccounts(created.id), "not a set")
    const providerAccountId = `gh-${unique()}`
    const account = { userId: created.id, type: "oauth" as const, provider: "github", providerAccountId, access_token: "gho_secret-access-token" }
    const error = (await Promise.resolve(adapter.linkAccount!(account)).then(
      () => null,
      (e: unknown) => e,
    )) as Error
    expect(error.message).toMatch(/WRONGTYPE/)
    // The driver's error names the operation, not its values (Sesame logs it).
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain("secret-access-token")
    expect(await client.exists(k.account("github", providerAccountId))).toBe(0)
    expect(await client.get(k.userAccounts(created.id))).toBe("not a set")
  })

  it("an unreachable server rejects the adapter's calls and raises no unhandled error event", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {})
    const { Redis } = await import("ioredis")
    // Port 9 (discard) is closed here; no retries, and no offline queue, so calls fail at once.
    const down = new Redis({ host: "127.0.0.1", port: 9, retryStrategy: () => null, enableOfflineQueue: false, maxRetriesPerRequest: 0 })
    try {
      const unreachable = RedisAdapter(down, { prefix })
      await expect(unreachable.getUser!("someone")).rejects.toBeInstanceOf(Error)
      await expect(unreachable.createUser!(user())).rejects.toBeInstanceOf(Error)
      await vi.waitFor(() => expect(down.status).toBe("end"))
      expect(printed).not.toHaveBeenCalled()
      expect(down.listenerCount("error")).toBe(1)
    } finally {
      printed.mockRestore()
      down.disconnect()
    }
  })

  it("hands the client's error events to onError when given", async () => {
    const { Redis } = await import("ioredis")
    const down = new Redis({ host: "127.0.0.1", port: 9, retryStrategy: () => null, enableOfflineQueue: false, maxRetriesPerRequest: 0 })
    const seen: Error[] = []
    try {
      RedisAdapter(down, { prefix, onError: (error) => seen.push(error) })
      await vi.waitFor(() => expect(seen[0]?.message).toMatch(/ECONNREFUSED/))
    } finally {
      down.disconnect()
    }
  })

  it("refuses options that make no sense", () => {
    expect(() => RedisAdapter(client, { verificationTokenGrace: -1 })).toThrow(/verificationTokenGrace/)
    expect(() => RedisAdapter(client, { prefix: 42 as unknown as string })).toThrow(/prefix must be a string/)
  })

  it("the tests' own setup names the command that starts Redis when it is not running", async () => {
    await expect(connectRedis({ port: 9 })).rejects.toThrow(/Start it with:\n {2}redis-server --daemonize yes/)
  })

  it("reloads its script when the server has lost it", async () => {
    await client.script("FLUSH")
    expect((await adapter.createUser!(user())).id).toBeTruthy()
  })
})
