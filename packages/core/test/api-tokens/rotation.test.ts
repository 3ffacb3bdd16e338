/**
 * Generated signing keys over time: a new key is published before it signs, tokens signed by the
 * old key keep verifying until they expire, the old key is then withdrawn; instances that share an
 * adapter share the keys; a rotated secret keeps stored keys usable, a replaced one makes a new key.
 * (The same on PostgreSQL, across restarts and instances: packages/adapter-pg/test/signing-keys.test.ts.)
 */
import { describe, expect, it } from "vitest"
import { decodeProtectedHeader, type JSONWebKeySet } from "jose"
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { ApiTokenError, verifyApiToken } from "@sesame/core/verify"
import { CookieJar, frozenClock, jwtConfig, origin, secret, send, signInAlice } from "../helpers.js"
import { signingKeyModel } from "../../src/tokens/storage.js"

const audience = "https://api.example.com"
const advance = frozenClock("2026-11-25T10:00:00Z")
const minute = 60_000
/** A new key is published this long before it signs: the key set's max-age (5 min) and a minute of instances' lists. */
const lead = 6 * minute

function instance(adapter: ReturnType<typeof MemoryAdapter>, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return jwtConfig({ adapter, apiTokens: { audience, rotationAge: 60 * 60, maxAge: 15 * 60 }, ...overrides })
}

function adapterWithAlice() {
  const adapter = MemoryAdapter()
  adapter.tables.users.set("1", { id: "1", name: "Alice", email: "alice@example.com", emailVerified: null })
  return adapter
}

async function token(config: AuthConfig): Promise<string> {
  const jar = new CookieJar()
  await signInAlice(config, jar)
  return ((await (await send(config, "/auth/token", { jar })).json()) as { token: string }).token
}

async function keySet(config: AuthConfig): Promise<JSONWebKeySet> {
  return (await (await send(config, "/auth/jwks")).json()) as JSONWebKeySet
}

const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid
const kids = (set: JSONWebKeySet) => set.keys.map((key) => key.kid).sort()

async function verifies(jwt: string, config: AuthConfig): Promise<boolean | string> {
  try {
    await verifyApiToken(jwt, { jwks: await keySet(config), issuer: `${origin}/auth`, audience })
    return true
  } catch (error) {
    if (error instanceof ApiTokenError) return error.code
    throw error
  }
}

describe("rotation of generated keys", () => {
  it("publishes the next key before it signs, and keeps the old one until its last token expired", async () => {
    const config = instance(adapterWithAlice())
    const first = await token(config)
    const k1 = kidOf(first)
    expect(kids(await keySet(config))).toEqual([k1])

    // Due for rotation (an hour, less the lead): the next key is made and published, but k1 still signs.
    advance(60 * minute - lead)
    const beforeSwitch = await token(config)
    expect(kidOf(beforeSwitch)).toBe(k1)
    const published = kids(await keySet(config))
    expect(published).toHaveLength(2)
    const k2 = published.find((kid) => kid !== k1)

    // Once published for the lead, k2 signs; k1's tokens still verify.
    advance(lead)
    const afterSwitch = await token(config)
    expect(kidOf(afterSwitch)).toBe(k2)
    expect(await verifies(beforeSwitch, config)).toBe(true)

    // k1's last token expires; then k1 itself is withdrawn, and nothing it signed verifies.
    advance(15 * minute + 10_000)
    expect(await verifies(beforeSwitch, config)).toBe("expired")
    advance(2 * minute)
    expect(kids(await keySet(config))).toEqual([k2])
    expect(await verifies(afterSwitch, config)).toBe("expired")
    expect(await verifies(await token(config), config)).toBe(true)
  })

  it("shares keys between instances on one adapter: one signs, the other verifies and signs with the same key", async () => {
    const adapter = adapterWithAlice()
    const [a, b] = [instance(adapter), instance(adapter)]
    const fromA = await token(a)
    expect(await verifies(fromA, b)).toBe(true)
    expect(kidOf(await token(b))).toBe(kidOf(fromA))
    expect(await adapter.store.count(signingKeyModel)).toBe(1)

    // Both read the list, then both become due for rotation while their lists are still fresh:
    // the one that rotates second reads the list again and finds the key the first just made.
    advance(60 * minute - lead - 30_000)
    await Promise.all([token(a), token(b)])
    advance(31_000)
    await token(a)
    await token(b)
    expect(await adapter.store.count(signingKeyModel)).toBe(2)
  })

  it("keeps using stored keys when a new secret is put first, and makes a new key, withdrawing the old, when the secret is replaced", async () => {
    const adapter = adapterWithAlice()
    const first = await token(instance(adapter))
    const rotated = instance(adapter, { secret: ["another-secret-0123456789-abcdefghijklmnopqrst", secret] })
    expect(kidOf(await token(rotated))).toBe(kidOf(first))

    // A replaced secret withdraws every key it sealed, as it ends every session: they are no longer the app's.
    const replaced = instance(adapter, { secret: "a-new-secret-0123456789-abcdefghijklmnopqrstuvw" })
    const afterReplace = await token(replaced)
    expect(kidOf(afterReplace)).not.toBe(kidOf(first))
    expect(await verifies(afterReplace, replaced)).toBe(true)
    expect(await verifies(first, replaced)).toBe("unknown-key")
  })
})
