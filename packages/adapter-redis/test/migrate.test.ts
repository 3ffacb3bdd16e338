/**
 * Upgrading from 0.1: a Redis database written by that release, with Sesame's own data in the keys
 * it used, keeps working once `migrate` has moved that data into the store, where the core reads it;
 * and `RedisAdapter` runs `migrate` itself before its first call when nobody has, so that it never
 * reads the store before the move.
 */
import { builtInModels, type AdapterPassword, type AdapterSigningKey, type AdapterTwoFactor, type AdapterUser } from "@sesame/core/adapters"
import RedisAdapter, { keys, migrate, type MigrationReport } from "@sesame/adapter-redis"
import type { Redis } from "ioredis"
import { afterAll, describe, expect, it, vi } from "vitest"
import { joinParts, modelKeys } from "../src/store/keys.js"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const client = await connectRedis()
const prefixes: string[] = []

afterAll(async () => {
  for (const prefix of prefixes) await dropPrefix(client, prefix)
  await client.quit()
})

const { passwords, counters, twoFactors, recoveryCodes, signingKeys } = builtInModels
const unique = () => crypto.randomUUID().slice(0, 8)
const hour = 3_600_000
const codeHash = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "")
const bcrypt = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
const argon2 = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$J0nKc3b7vUCeN8yGv+YQ7Xh0pH7n0k2l1c4lqvKcWqE"

/** A prefix of this file's own, dropped at the end. */
function freshPrefix(): string {
  const prefix = testPrefix()
  prefixes.push(prefix)
  return prefix
}

/**
 * The previous release's layout (0.1, before the store), written with the commands its Lua
 * scripts ran (`lua/passwords.ts`, `counters.ts`, `two-factors.ts` and `signing-keys.ts`, fields
 * as `records.ts` encoded them): one hash per record holding the fields by name, dates in
 * milliseconds since the epoch, a null field absent; a user's recovery codes a set of hashes;
 * signing keys listed in the set `signing-keys`; a counter's key expiring at its `expires`.
 * Copied here as fixtures: nothing in `src` writes these keys any more.
 */
function previousRelease(redis: Redis, prefix: string) {
  const ms = (date: Date) => String(date.getTime())
  return {
    /** A user (the same keys in both releases). */
    async user(u: AdapterUser) {
      await redis.hset(`${prefix}user:${u.id}`, { id: u.id, email: u.email })
      await redis.set(`${prefix}email:${u.email}`, u.id)
    },
    password: (p: { userId: string; hash: string; updatedAt: Date }) =>
      redis.hset(`${prefix}password:${p.userId}`, { userId: p.userId, hash: p.hash, updatedAt: ms(p.updatedAt) }),
    async counter(c: { key: string; count: number; expires: Date }) {
      await redis.hset(`${prefix}counter:${c.key}`, { key: c.key, count: String(c.count), expires: ms(c.expires) })
      await redis.pexpireat(`${prefix}counter:${c.key}`, c.expires.getTime())
    },
    twoFactor: (f: AdapterTwoFactor) =>
      redis.hset(`${prefix}two-factor:${f.userId}`, {
        userId: f.userId,
        method: f.method,
        enabledAt: ms(f.enabledAt),
        ...(f.secret === null ? {} : { secret: f.secret }),
        ...(f.devicesRevokedAt === null ? {} : { devicesRevokedAt: ms(f.devicesRevokedAt) }),
      }),
    recoveryCodes: (userId: string, hashes: string[]) => redis.sadd(`${prefix}recovery-codes:${userId}`, ...hashes),
    async signingKey(k: AdapterSigningKey) {
      await redis.hset(`${prefix}signing-key:${k.id}`, { id: k.id, algorithm: k.algorithm, publicKey: k.publicKey, privateKey: k.privateKey, createdAt: ms(k.createdAt) })
      await redis.sadd(`${prefix}signing-keys`, k.id)
    },
  }
}

/** The previous release's keys under `prefix`. */
async function previousKeys(redis: Redis, prefix: string): Promise<string[]> {
  const namespaces = ["password:", "counter:", "two-factor:", "recovery-codes:", "signing-key:", "signing-keys"]
  return (await keysUnder(redis, prefix)).filter((key) => namespaces.some((n) => key.startsWith(prefix + n)))
}

const report = (moved: Partial<MigrationReport["moved"]>, dropped: Partial<MigrationReport["dropped"]> = {}): MigrationReport => {
  const zero = { passwords: 0, counters: 0, twoFactors: 0, recoveryCodes: 0, signingKeys: 0 }
  return { moved: { ...zero, ...moved }, dropped: { ...zero, ...dropped } }
}

/** A date with milliseconds, which both layouts keep. */
const at = (offsetMs = 0) => new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000 + 123)

function newUser(): AdapterUser {
  return { id: crypto.randomUUID(), email: `m-${unique()}@example.com`, emailVerified: null, name: null, image: null }
}

describe("migrate: from the previous release's keys into the store", () => {
  const prefix = freshPrefix()
  const adapter = RedisAdapter(client, { prefix })
  const store = adapter.store!
  const old = previousRelease(client, prefix)
  const state = {} as {
    ada: AdapterUser
    bob: AdapterUser
    adaPassword: AdapterPassword
    bobPassword: AdapterPassword
    adaFactor: AdapterTwoFactor
    bobFactor: AdapterTwoFactor
    codes: string[]
    keys: AdapterSigningKey[]
    counterKey: string
    counterExpires: Date
  }

  it("moves passwords, second factors with their recovery codes, signing keys and counters, and deletes the old keys", async () => {
    const ada = await adapter.createUser!(newUser())
    const bob = await adapter.createUser!(newUser())
    const adaFactor: AdapterTwoFactor = { userId: ada.id, method: "totp", secret: `eyJhbGciOiJkaXIifQ..${"x".repeat(300)}`, enabledAt: at(-hour), devicesRevokedAt: null }
    const bobFactor: AdapterTwoFactor = { userId: bob.id, method: "email", secret: null, enabledAt: at(-2 * hour), devicesRevokedAt: at(-hour) }
    const codes = Array.from({ length: 10 }, codeHash)
    const keys: AdapterSigningKey[] = [
      { id: `kid-${unique()}`, algorithm: "EdDSA", publicKey: '{"kty":"OKP","crv":"Ed25519","x":"abc"}', privateKey: "eyJ.a.b.c.d", createdAt: at(-hour) },
      { id: `Kid:${unique()}`, algorithm: "RS256", publicKey: `{"kty":"RSA","n":"${"n".repeat(400)}"}`, privateKey: `eyJ.${"p".repeat(2500)}`, createdAt: at() },
    ]
    // A throttle's key holds colons; an expired counter that Redis has not dropped yet is only removed.
    const counterKey = `password:ip:2001:db8::${unique()}`
    const counterExpires = at(hour)
    const adaPassword = { userId: ada.id, hash: argon2, updatedAt: at(-hour) }
    const bobPassword = { userId: bob.id, hash: bcrypt, updatedAt: at(-2 * hour) }
    await old.password(adaPassword)
    await old.password(bobPassword)
    // A password left by a user whom this release deleted before the migration ran.
    await old.password({ userId: crypto.randomUUID(), hash: bcrypt, updatedAt: at() })
    await old.twoFactor(adaFactor)
    await old.twoFactor(bobFactor)
    await old.recoveryCodes(ada.id, codes)
    for (const key of keys) await old.signingKey(key)
    await old.counter({ key: counterKey, count: 4, expires: counterExpires })
    await client.hset(`${prefix}counter:stale`, { key: "stale", count: "9", expires: String(Date.now() - 1000) })
    Object.assign(state, { ada, bob, adaPassword, bobPassword, adaFactor, bobFactor, codes, keys, counterKey, counterExpires })
    // Another app's keys, under another prefix, are not this migration's.
    const elsewhere = freshPrefix()
    await previousRelease(client, elsewhere).password({ userId: ada.id, hash: bcrypt, updatedAt: at() })

    expect(await migrate(client, { prefix })).toEqual(
      report({ passwords: 2, counters: 1, twoFactors: 2, recoveryCodes: 10, signingKeys: 2 }, { passwords: 1, counters: 1 }),
    )
    expect(await previousKeys(client, prefix)).toEqual([])
    expect(await previousKeys(client, elsewhere)).toEqual([`${elsewhere}password:${ada.id}`])
  })

  it("the store reads back the passwords and second factors", async () => {
    const { ada, bob, adaFactor, bobFactor } = state
    expect(await store.findOne(passwords, { userId: ada.id })).toEqual(state.adaPassword)
    expect(await store.findOne(passwords, { userId: bob.id })).toEqual(state.bobPassword)
    expect(await store.findOne(twoFactors, { userId: ada.id })).toEqual(adaFactor)
    expect(await store.findOne(twoFactors, { userId: bob.id })).toEqual(bobFactor)
  })

  it("the recovery codes are all there, each used once", async () => {
    const { ada, codes } = state
    expect(await store.count(recoveryCodes, { userId: ada.id })).toBe(10)
    expect(await store.delete(recoveryCodes, { userId: ada.id, hash: codes[0]! })).toBe(1)
    expect(await store.delete(recoveryCodes, { userId: ada.id, hash: codes[0]! })).toBe(0)
    // Of concurrent uses of one moved code, one succeeds.
    const uses = await Promise.all(Array.from({ length: 10 }, () => store.delete(recoveryCodes, { userId: ada.id, hash: codes[1]! })))
    expect(uses.filter((n) => n === 1)).toHaveLength(1)
    expect(await store.count(recoveryCodes, { userId: ada.id })).toBe(8)
  })

  it("the signing keys are listed with their exact values; the counter keeps its count and expiry", async () => {
    const byId = (a: { id?: unknown }, b: { id?: unknown }) => String(a.id).localeCompare(String(b.id))
    expect((await store.findMany(signingKeys)).sort(byId)).toEqual([...state.keys].sort(byId))
    const { counterKey, counterExpires } = state
    expect(await store.findOne(counters, { key: counterKey })).toEqual({ key: counterKey, count: 4, expires: counterExpires })
    // The row's key expires with the counter, as one the store made.
    const left = counterExpires.getTime() - Date.now()
    const ttl = await client.pttl(prefix + modelKeys.row(counters.table, joinParts([counterKey])))
    expect(ttl).toBeLessThanOrEqual(left)
    expect(ttl).toBeGreaterThan(left - 5_000)
    // And it goes on counting from there.
    const expires = at(2 * hour)
    expect((await store.increment(counters, { key: counterKey }, "count", { create: { key: counterKey, count: 0, expires }, set: { expires } })).count).toBe(5)
  })

  it("a second run moves nothing", async () => {
    expect(await migrate(client, { prefix })).toEqual(report({}))
    expect(await store.count(recoveryCodes, { userId: state.ada.id })).toBe(8)
  })

  it("deleting a user removes their moved rows, and no key of theirs is left", async () => {
    const { ada, bob } = state
    await adapter.deleteUser!(ada.id)
    expect(await store.findOne(passwords, { userId: ada.id })).toBeNull()
    expect(await store.findOne(twoFactors, { userId: ada.id })).toBeNull()
    expect(await store.count(recoveryCodes, { userId: ada.id })).toBe(0)
    expect((await keysUnder(client, prefix)).filter((key) => key.includes(ada.id))).toEqual([])
    // Bob's stay.
    expect(await store.findOne(passwords, { userId: bob.id })).toMatchObject({ hash: bcrypt })
    expect(await store.findOne(twoFactors, { userId: bob.id })).toMatchObject({ method: "email" })
  })
})

describe("migrate: safety", () => {
  it("a row the store got since the upgrade stays: the old record is dropped", async () => {
    const prefix = freshPrefix()
    const adapter = RedisAdapter(client, { prefix })
    const user = await adapter.createUser!(newUser())
    const old = previousRelease(client, prefix)
    await old.password({ userId: user.id, hash: bcrypt, updatedAt: at(-hour) })
    await old.recoveryCodes(user.id, [codeHash(), codeHash()])
    // The user set a new password, and new codes, on this release before the migration ran.
    await adapter.store!.create(passwords, { userId: user.id, hash: argon2, updatedAt: at() })
    const kept = codeHash()
    await adapter.store!.create(recoveryCodes, { userId: user.id, hash: kept })
    await old.recoveryCodes(user.id, [kept])
    expect(await migrate(client, { prefix })).toEqual(report({ recoveryCodes: 2 }, { passwords: 1, recoveryCodes: 1 }))
    expect((await adapter.store!.findOne(passwords, { userId: user.id }))?.hash).toBe(argon2)
    expect(await adapter.store!.count(recoveryCodes, { userId: user.id })).toBe(3)
    expect(await previousKeys(client, prefix)).toEqual([])
  })

  it("several instances migrating at once move each record once", async () => {
    const prefix = freshPrefix()
    const adapter = RedisAdapter(client, { prefix })
    const old = previousRelease(client, prefix)
    const users = await Promise.all(Array.from({ length: 40 }, () => adapter.createUser!(newUser())))
    for (const user of users) {
      await old.password({ userId: user.id, hash: bcrypt, updatedAt: at() })
      await old.recoveryCodes(user.id, Array.from({ length: 5 }, codeHash))
    }
    const instances = await Promise.all(Array.from({ length: 3 }, () => connectRedis()))
    try {
      const reports = await Promise.all(instances.map((instance) => migrate(instance, { prefix })))
      const total = (of: (r: MigrationReport) => number) => reports.reduce((sum, r) => sum + of(r), 0)
      expect(total((r) => r.moved.passwords)).toBe(40)
      expect(total((r) => r.moved.recoveryCodes)).toBe(200)
      expect(total((r) => r.dropped.passwords + r.dropped.recoveryCodes)).toBe(0)
    } finally {
      await Promise.all(instances.map((instance) => instance.quit()))
    }
    expect(await adapter.store!.count(passwords)).toBe(40)
    expect(await adapter.store!.count(recoveryCodes)).toBe(200)
    expect(await previousKeys(client, prefix)).toEqual([])
  })

  it("finds the keys behind the client's own keyPrefix, and the store's tables as the adapter names them", async () => {
    const outer = freshPrefix()
    const prefixed = await connectRedis({ keyPrefix: outer })
    try {
      const tables = { passwords: "legacy_passwords" }
      const adapter = RedisAdapter(prefixed, { prefix: "auth:", tables })
      const user = await adapter.createUser!(newUser())
      await previousRelease(client, `${outer}auth:`).password({ userId: user.id, hash: bcrypt, updatedAt: at() })
      expect(await migrate(prefixed, { prefix: "auth:", tables })).toEqual(report({ passwords: 1 }))
      expect((await adapter.store!.findOne(passwords, { userId: user.id }))?.hash).toBe(bcrypt)
      expect(await client.exists(`${outer}auth:model:legacy_passwords:${user.id}`)).toBe(1)
    } finally {
      await prefixed.quit()
    }
  })

  it("names a record it cannot read, and refuses options that make no sense", async () => {
    const prefix = freshPrefix()
    await client.hset(`${prefix}signing-key:broken`, { id: "broken", algorithm: "EdDSA" })
    await expect(migrate(client, { prefix })).rejects.toThrow(`"${prefix}signing-key:broken" does not hold a record of the previous release`)
    await expect(migrate(client, { prefix: 1 as unknown as string })).rejects.toThrow(/migrate: options.prefix must be a string/)
    await expect(migrate(client, { tables: { passwords: "a:b" } })).rejects.toThrow(/migrate: options.tables.passwords/)
  })
})

describe("RedisAdapter without migrate: it moves the records itself before its first call", () => {
  /** What a database of 0.1 holds for one user with a password, a second factor and recovery codes. */
  async function previousUser(prefix: string) {
    const old = previousRelease(client, prefix)
    const user = newUser()
    const password = { userId: user.id, hash: argon2, updatedAt: at(-hour) }
    const factor: AdapterTwoFactor = { userId: user.id, method: "totp", secret: "eyJhbGciOiJkaXIifQ..secret", enabledAt: at(-hour), devicesRevokedAt: null }
    const codes = [codeHash(), codeHash(), codeHash()]
    await old.user(user)
    await old.password(password)
    await old.twoFactor(factor)
    await old.recoveryCodes(user.id, codes)
    return { user, password, factor, codes }
  }

  const marker = (prefix: string) => client.get(keys(prefix).storeLayout())

  /** Counts the outcomes of the store script's `adopt` calls made through `redis` (how many records it moved). */
  function countAdoptions(redis: Redis) {
    const outcomes: unknown[] = []
    for (const command of ["evalsha", "eval"] as const) {
      const target = redis as unknown as Record<typeof command, (...args: unknown[]) => Promise<unknown>>
      const original = target[command].bind(redis)
      vi.spyOn(target, command).mockImplementation(async (...args: unknown[]) => {
        const reply = await original(...args)
        // `<sha or script>, 0, prefix, operation, …`
        if (args[3] === "adopt") outcomes.push(reply)
        return reply
      })
    }
    return (outcome: string) => outcomes.filter((o) => o === outcome).length
  }

  it("finds the user's second factor and password at its first read of the store, and marks the prefix", async () => {
    const prefix = freshPrefix()
    const { user, password, factor, codes } = await previousUser(prefix)
    const key: AdapterSigningKey = { id: `kid-${unique()}`, algorithm: "EdDSA", publicKey: "{}", privateKey: "eyJ.a.b.c.d", createdAt: at() }
    await previousRelease(client, prefix).signingKey(key)
    expect(await marker(prefix)).toBeNull()

    const adapter = RedisAdapter(client, { prefix })
    expect(await adapter.store!.findOne(twoFactors, { userId: user.id })).toEqual(factor)
    expect(await adapter.store!.findOne(passwords, { userId: user.id })).toEqual(password)
    expect(await adapter.store!.count(recoveryCodes, { userId: user.id })).toBe(codes.length)
    expect(await adapter.store!.findMany(signingKeys)).toEqual([key])
    expect(await previousKeys(client, prefix)).toEqual([])
    expect(await marker(prefix)).toBe("1")

    // The same when the adapter's first call is one of its own methods: the user, then their rows.
    const next = freshPrefix()
    const other = await previousUser(next)
    const second = RedisAdapter(client, { prefix: next })
    expect(await second.getUserByEmail!(other.user.email)).toMatchObject({ id: other.user.id })
    expect(await second.store!.findOne(twoFactors, { userId: other.user.id })).toEqual(other.factor)
    expect(await marker(next)).toBe("1")
  })

  it("two adapters started at once on the same data both see everything; each record is moved once", async () => {
    const prefix = freshPrefix()
    const users = await Promise.all(Array.from({ length: 20 }, () => previousUser(prefix)))
    const instances = await Promise.all([connectRedis(), connectRedis()])
    try {
      const counts = instances.map(countAdoptions)
      const gets = instances.map((instance) => vi.spyOn(instance, "get"))
      const adapters = instances.map((instance) => RedisAdapter(instance, { prefix }))
      // Every user's reads, on both adapters, all at once: each adapter's first calls among them.
      const seen = await Promise.all(
        adapters.flatMap((adapter) =>
          users.map(async ({ user }) => ({
            factor: await adapter.store!.findOne(twoFactors, { userId: user.id }),
            password: await adapter.store!.findOne(passwords, { userId: user.id }),
            codes: await adapter.store!.count(recoveryCodes, { userId: user.id }),
            user: await adapter.getUser!(user.id),
          })),
        ),
      )
      expect(seen).toEqual(
        [...users, ...users].map(({ user, factor, password, codes }) => ({ factor, password, codes: codes.length, user: expect.objectContaining({ id: user.id }) })),
      )
      const total = (outcome: string) => counts.reduce((sum, count) => sum + count(outcome), 0)
      expect(total("moved")).toBe(20 * (1 + 1 + 3))
      expect(total("dropped")).toBe(0)
      // One look at the marker per adapter, however many calls were waiting.
      for (const get of gets) expect(get).toHaveBeenCalledTimes(1)
    } finally {
      await Promise.all(instances.map((instance) => instance.quit()))
    }
    expect(await previousKeys(client, prefix)).toEqual([])
    expect(await marker(prefix)).toBe("1")
  })

  it("a new, empty prefix is marked at the first call; an adapter on a marked prefix does not scan", async () => {
    const prefix = freshPrefix()
    const instance = await connectRedis()
    try {
      const scans = vi.spyOn(instance, "scan")
      expect(await RedisAdapter(instance, { prefix }).getUser!(crypto.randomUUID())).toBeNull()
      expect(scans).toHaveBeenCalled()
      expect(await marker(prefix)).toBe("1")

      scans.mockClear()
      const gets = vi.spyOn(instance, "get")
      const adapter = RedisAdapter(instance, { prefix })
      const user = await adapter.createUser!(newUser())
      await Promise.all([
        adapter.store!.create(passwords, { userId: user.id, hash: bcrypt, updatedAt: at() }),
        adapter.getUserByEmail!(user.email),
        adapter.transaction!(async (tx) => tx.updateUser!({ id: user.id, name: "Ada" })),
      ])
      expect((await adapter.store!.findOne(passwords, { userId: user.id }))?.hash).toBe(bcrypt)
      expect(scans).not.toHaveBeenCalled()
      expect(gets.mock.calls).toEqual([[keys(prefix).storeLayout()]])
    } finally {
      await instance.quit()
    }
  })

  it("a move that fails rejects the call, naming the record, and the next call tries again", async () => {
    const prefix = freshPrefix()
    const { user, password, factor } = await previousUser(prefix)
    await client.hset(`${prefix}signing-key:broken`, { id: "broken", algorithm: "EdDSA" })
    await client.sadd(`${prefix}signing-keys`, "broken")
    const adapter = RedisAdapter(client, { prefix })
    const named = `"${prefix}signing-key:broken" does not hold a record of the previous release`
    await expect(adapter.store!.findOne(twoFactors, { userId: user.id })).rejects.toThrow(named)
    // Not remembered as failed: each call tries again, the adapter's own methods too.
    await expect(adapter.getUser!(user.id)).rejects.toThrow(named)
    expect(await marker(prefix)).toBeNull()

    const createdAt = at()
    await client.hset(`${prefix}signing-key:broken`, { publicKey: "{}", privateKey: "eyJ.a.b.c.d", createdAt: String(createdAt.getTime()) })
    expect(await adapter.store!.findOne(twoFactors, { userId: user.id })).toEqual(factor)
    expect(await adapter.store!.findOne(passwords, { userId: user.id })).toEqual(password)
    expect(await adapter.store!.findOne(signingKeys, { id: "broken" })).toEqual({ id: "broken", algorithm: "EdDSA", publicKey: "{}", privateKey: "eyJ.a.b.c.d", createdAt })
    expect(await previousKeys(client, prefix)).toEqual([])
    expect(await marker(prefix)).toBe("1")
  })
})
