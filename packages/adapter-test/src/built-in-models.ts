/**
 * Sesame's own models (`builtInModels` of `@sesame/core/adapters`: password hashes, counters,
 * second factors, recovery codes, signing keys) through the adapter's generic store, on the tables
 * the adapter's migrations have made since before the store existed. What the store writes is read
 * back raw from those tables (`db`), in the shape the adapters' own methods once wrote it, so a
 * database made by an earlier release keeps working, and what the capabilities need of each model
 * (a hash replaced, a counter that slides, a recovery code used once under concurrency) holds on
 * every adapter.
 *
 * @module
 */
import { builtInModels, StoreConflict, type Adapter, type AdapterSession, type AdapterSigningKey, type AdapterTwoFactor, type AdapterUser, type Store } from "@sesame/core/adapters"
import { expect, it } from "vitest"
import type { AdapterTestDb } from "./index.js"
import { method } from "./method.js"

const day = 86_400_000
const unique = () => crypto.randomUUID().slice(0, 8)
/** Dates with whole seconds, so that every store round-trips them. */
const seconds = (offsetMs = 0) => new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000)

/** A recovery code's hash as Sesame stores it: 64 lowercase hex digits. */
const codeHash = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "")

function base64url(bytes: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/**
 * A secret as Sesame stores it: a compact JWE (`dir`, A256GCM) of `bytes` of ciphertext. A TOTP
 * secret's (150 bytes) is about 300 characters, longer than a `VARCHAR(255)` keeps; a sealed RSA
 * private key's (1,800 bytes) about 2,500.
 */
function jweFixture(bytes = 150): string {
  return `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoic2VzYW1lLXRvdHAtc2VjcmV0LXYxIn0..${base64url(12)}.${base64url(bytes)}.${base64url(16)}`
}

/** A signing key as Sesame stores it; `rsa` gives the longest values Sesame writes. */
function signingKeyFixture(overrides: Partial<AdapterSigningKey> = {}, rsa = false): AdapterSigningKey {
  const id = base64url(16)
  const publicJwk = rsa ? { kty: "RSA", n: base64url(256), e: "AQAB", kid: id, alg: "RS256", use: "sig" } : { kty: "OKP", crv: "Ed25519", x: base64url(32), kid: id, alg: "EdDSA", use: "sig" }
  return { id, algorithm: rsa ? "RS256" : "EdDSA", publicKey: JSON.stringify(publicJwk), privateKey: jweFixture(rsa ? 1800 : 120), createdAt: seconds(), ...overrides }
}

/** Registers the tests, inside the conformance suite's `describe`. */
export function builtInModelTests(adapter: Adapter, db: AdapterTestDb, createUser: () => Promise<AdapterUser>): void {
  const { passwords, counters, twoFactors, recoveryCodes, signingKeys } = builtInModels
  const a = <K extends keyof Adapter>(name: K) => method(adapter, name)
  const store = (): Store => {
    if (!adapter.store) throw new Error("The adapter has no store.")
    return adapter.store
  }
  const sorted = (hashes: string[]) => [...hashes].sort()
  const codesOf = async (userId: string) => (await store().findMany(recoveryCodes, { where: { userId } })).map((row) => row.hash as string)

  // What real hashers write: a PHC string, and an imported bcrypt hash.
  const argon2 = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$J0nKc3b7vUCeN8yGv+YQ7Xh0pH7n0k2l1c4lqvKcWqE"
  const bcrypt = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"

  it("passwords: a hash stored, replaced and removed is what the passwords table holds", async () => {
    const user = await createUser()
    expect(await store().findOne(passwords, { userId: user.id })).toBeNull()
    const first = { userId: user.id, hash: bcrypt, updatedAt: seconds(-day) }
    expect(await store().create(passwords, first)).toEqual(first)
    if (db.password) expect(await db.password(user.id)).toEqual(first)
    await expect(store().create(passwords, { ...first, hash: argon2 })).rejects.toBeInstanceOf(StoreConflict)
    const replaced = { userId: user.id, hash: argon2, updatedAt: seconds() }
    expect(await store().update(passwords, { userId: user.id }, { hash: argon2, updatedAt: replaced.updatedAt })).toBe(1)
    expect(await store().findOne(passwords, { userId: user.id })).toEqual(replaced)
    if (db.password) expect(await db.password(user.id)).toEqual(replaced)
    expect(await store().delete(passwords, { userId: user.id })).toBe(1)
    if (db.password) expect(await db.password(user.id)).toBeNull()
    expect(await db.user(user.id)).toEqual(user)
  })

  it("passwords: refused for an unknown user; removed with their user, others kept", async () => {
    const userId = crypto.randomUUID()
    await expect(store().create(passwords, { userId, hash: argon2, updatedAt: seconds() })).rejects.toBeInstanceOf(Error)
    expect(await store().findOne(passwords, { userId })).toBeNull()
    const [user, other] = [await createUser(), await createUser()]
    await store().create(passwords, { userId: user.id, hash: argon2, updatedAt: seconds() })
    await store().create(passwords, { userId: other.id, hash: bcrypt, updatedAt: seconds() })
    await a("deleteUser")(user.id)
    expect(await store().findOne(passwords, { userId: user.id })).toBeNull()
    if (db.password) expect(await db.password(user.id)).toBeNull()
    expect((await store().findOne(passwords, { userId: other.id }))?.hash).toBe(bcrypt)
  })

  const counterKey = () => `password:account:${unique()}${unique()}`
  const bump = (key: string, expires: Date) => store().increment(counters, { key }, "count", { create: { key, count: 0, expires }, set: { expires } })

  it("counters: start at 1, count up and move the expiry, as the counters table holds them", async () => {
    const key = counterKey()
    expect(await store().findOne(counters, { key })).toBeNull()
    const first = seconds(60_000)
    expect(await bump(key, first)).toEqual({ key, count: 1, expires: first })
    const later = seconds(120_000)
    expect(await bump(key, later)).toEqual({ key, count: 2, expires: later })
    expect(await store().findOne(counters, { key })).toEqual({ key, count: 2, expires: later })
    if (db.counter) expect(await db.counter(key)).toEqual({ key, count: 2, expires: later })
  })

  it("counters: apart by key, for keys of up to 255 characters; expired ones start again; deleted ones are gone", async () => {
    const ip = `password:ip:2001:db8::${unique()}`
    const long = `password:account:${"f".repeat(255 - "password:account:".length - 8)}${unique()}`
    expect(long).toHaveLength(255)
    const expires = seconds(60_000)
    await bump(ip, expires)
    await bump(ip, expires)
    expect(await bump(long, expires)).toEqual({ key: long, count: 1, expires })
    expect((await store().findOne(counters, { key: ip }))?.count).toBe(2)
    expect(await store().findOne(counters, { key: long.slice(0, -1) })).toBeNull()
    const past = seconds(-60_000)
    expect(await bump(ip, past)).toEqual({ key: ip, count: 3, expires: past })
    expect(await store().findOne(counters, { key: ip })).toBeNull()
    expect(await bump(ip, expires)).toEqual({ key: ip, count: 1, expires })
    await store().delete(counters, { key: ip })
    if (db.counter) expect(await db.counter(ip)).toBeNull()
    expect((await bump(ip, expires)).count).toBe(1)
  })

  it("counters: twenty concurrent increments of one key count twenty, each returning its own count", async () => {
    for (const fresh of [true, false]) {
      const key = counterKey()
      if (!fresh) await bump(key, seconds(60_000))
      const base = fresh ? 0 : 1
      const results = await Promise.all(Array.from({ length: 20 }, () => bump(key, seconds(60_000))))
      expect(results.map((r) => r.count as number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => base + i + 1))
      expect((await store().findOne(counters, { key }))?.count).toBe(base + 20)
    }
  })

  const totp = (userId: string, overrides: Partial<AdapterTwoFactor> = {}): AdapterTwoFactor => ({ userId, method: "totp", secret: jweFixture(), enabledAt: seconds(-day), devicesRevokedAt: null, ...overrides })
  const emailFactor = (userId: string): AdapterTwoFactor => ({ userId, method: "email", secret: null, enabledAt: seconds(), devicesRevokedAt: seconds(-60_000) })

  it("second factors: a TOTP factor (a secret longer than 255 characters) and an email one round-trip, as the table holds them", async () => {
    const [user, other] = [await createUser(), await createUser()]
    const factor = totp(user.id)
    expect(factor.secret!.length).toBeGreaterThan(255)
    expect(await store().create(twoFactors, { ...factor })).toEqual(factor)
    expect(await store().findOne(twoFactors, { userId: user.id })).toEqual(factor)
    if (db.twoFactor) expect(await db.twoFactor(user.id)).toEqual(factor)
    const byEmail = emailFactor(other.id)
    await store().create(twoFactors, { ...byEmail })
    const read = await store().findOne(twoFactors, { userId: other.id })
    expect(read).toEqual(byEmail)
    expect(read?.devicesRevokedAt).toBeInstanceOf(Date)
    // Replaced whole, nulls included: back to TOTP, the revocation date goes, a secret comes.
    const again = totp(other.id, { enabledAt: seconds() })
    const { userId: _, ...values } = again
    expect(await store().update(twoFactors, { userId: other.id }, values)).toBe(1)
    expect(await store().findOne(twoFactors, { userId: other.id })).toEqual(again)
    if (db.twoFactor) expect(await db.twoFactor(other.id)).toEqual(again)
  })

  it("second factors and recovery codes: refused for an unknown user", async () => {
    const userId = crypto.randomUUID()
    await expect(store().create(twoFactors, { ...totp(userId) })).rejects.toBeInstanceOf(Error)
    await expect(store().create(recoveryCodes, { userId, hash: codeHash() })).rejects.toBeInstanceOf(Error)
    expect(await store().count(recoveryCodes, { userId })).toBe(0)
    if (db.twoFactor) expect(await db.twoFactor(userId)).toBeNull()
  })

  it("recovery codes: counted per user, used once, compared exactly, as the table holds them", async () => {
    const [user, other] = [await createUser(), await createUser()]
    const mine = Array.from({ length: 10 }, codeHash)
    const theirs = codeHash()
    for (const hash of mine) await store().create(recoveryCodes, { userId: user.id, hash })
    await store().create(recoveryCodes, { userId: other.id, hash: theirs })
    expect(await store().count(recoveryCodes, { userId: user.id })).toBe(10)
    if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(user.id))).toEqual(sorted(mine))
    expect(await store().delete(recoveryCodes, { userId: user.id, hash: mine[0]! })).toBe(1)
    expect(await store().delete(recoveryCodes, { userId: user.id, hash: mine[0]! })).toBe(0)
    // The same digits in upper case are another value; another user's code is not this user's.
    expect(await store().delete(recoveryCodes, { userId: user.id, hash: mine[1]!.toUpperCase() })).toBe(0)
    expect(await store().delete(recoveryCodes, { userId: user.id, hash: theirs })).toBe(0)
    expect(await store().delete(recoveryCodes, { userId: other.id, hash: mine[1]! })).toBe(0)
    expect(sorted(await codesOf(user.id))).toEqual(sorted(mine.slice(1)))
    if (db.recoveryCodes) expect(sorted(await db.recoveryCodes(user.id))).toEqual(sorted(mine.slice(1)))
    expect(await store().count(recoveryCodes, { userId: other.id })).toBe(1)
  })

  it("recovery codes: of concurrent uses of one code, exactly one deletes it, every time", async () => {
    const user = await createUser()
    for (let round = 0; round < 5; round++) {
      const hash = codeHash()
      await store().create(recoveryCodes, { userId: user.id, hash })
      const results = await Promise.all(Array.from({ length: 10 }, () => store().delete(recoveryCodes, { userId: user.id, hash })))
      expect(results.filter((n) => n === 1)).toHaveLength(1)
      expect(results.reduce((sum, n) => sum + n, 0)).toBe(1)
    }
  })

  it("second factors and recovery codes: removed with their user, others kept", async () => {
    const [user, other] = [await createUser(), await createUser()]
    await store().create(twoFactors, { ...totp(user.id) })
    await store().create(recoveryCodes, { userId: user.id, hash: codeHash() })
    await store().create(twoFactors, { ...totp(other.id) })
    await store().create(recoveryCodes, { userId: other.id, hash: codeHash() })
    await a("deleteUser")(user.id)
    expect(await store().findOne(twoFactors, { userId: user.id })).toBeNull()
    expect(await store().count(recoveryCodes, { userId: user.id })).toBe(0)
    if (db.twoFactor) expect(await db.twoFactor(user.id)).toBeNull()
    if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toEqual([])
    expect((await store().findOne(twoFactors, { userId: other.id }))?.method).toBe("totp")
    expect(await store().count(recoveryCodes, { userId: other.id })).toBe(1)
  })

  it("sessions keep how the user signed in (factors), beside the store", async () => {
    const user = await createUser()
    const signedIn: AdapterSession = { sessionToken: `f-${unique()}`, userId: user.id, expires: seconds(day), factors: ["password", "totp"] }
    const plain: AdapterSession = { sessionToken: `p-${unique()}`, userId: user.id, expires: seconds(day) }
    expect((await a("createSession")(signedIn)).factors).toEqual(["password", "totp"])
    await a("createSession")(plain)
    expect((await a("getSessionAndUser")(signedIn.sessionToken))?.session.factors).toEqual(["password", "totp"])
    expect((await db.session(signedIn.sessionToken))?.factors).toEqual(["password", "totp"])
    // Absent or null: either says the sign-in's factors were not recorded.
    expect((await a("getSessionAndUser")(plain.sessionToken))?.session.factors ?? null).toBeNull()
    await a("updateSession")({ sessionToken: signedIn.sessionToken, expires: seconds(2 * day) })
    expect((await a("getSessionAndUser")(signedIn.sessionToken))?.session.factors).toEqual(["password", "totp"])
  })

  const byId = (x: { id?: unknown }, y: { id?: unknown }) => String(x.id).localeCompare(String(y.id))
  /** The stored keys among `keys`: the store may hold others (earlier tests', the app's). */
  const listed = async (keys: AdapterSigningKey[]) => {
    const ids = new Set(keys.map((key) => key.id))
    return (await store().findMany(signingKeys)).filter((key) => ids.has(key.id as string)).sort(byId)
  }

  it("signing keys: stored with their exact values, RSA keys whole, as the table holds them", async () => {
    const [short, rsa] = [signingKeyFixture(), signingKeyFixture({}, true)]
    expect(rsa.privateKey.length).toBeGreaterThan(2400)
    for (const key of [short, rsa]) expect(await store().create(signingKeys, { ...key })).toEqual(key)
    expect(await listed([short, rsa])).toEqual([short, rsa].sort(byId))
    if (db.signingKey) expect(await db.signingKey(rsa.id)).toEqual(rsa)
  })

  it("signing keys: one removed leaves the others; an id is refused twice, and compared exactly; a user's deletion leaves them", async () => {
    const [first, second] = [signingKeyFixture({ id: `Kid-${unique()}` }), signingKeyFixture()]
    await store().create(signingKeys, { ...first })
    await store().create(signingKeys, { ...second })
    await expect(store().create(signingKeys, { ...signingKeyFixture({ id: first.id, algorithm: "RS256" }) })).rejects.toBeInstanceOf(StoreConflict)
    const lower = signingKeyFixture({ id: first.id.toLowerCase() })
    await store().create(signingKeys, { ...lower })
    expect(await listed([first, second, lower])).toEqual([first, second, lower].sort(byId))
    expect(await store().delete(signingKeys, { id: second.id })).toBe(1)
    if (db.signingKey) expect(await db.signingKey(second.id)).toBeNull()
    const user = await createUser()
    await a("deleteUser")(user.id)
    expect(await listed([first, second, lower])).toEqual([first, lower].sort(byId))
  })
}
