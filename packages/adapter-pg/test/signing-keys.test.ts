/**
 * The keys that sign API tokens, kept in PostgreSQL: several app instances (each with a pool of
 * its own on one database) share them, and they survive a restart, so a token signed before it
 * still verifies after it. What is stored of a private key is sealed under the app's secret.
 * (Rotation over time, on the memory adapter: packages/core/test/api-tokens/rotation.test.ts.)
 */
import type { AuthConfig } from "@sesame/core"
import { verifyApiToken } from "@sesame/core/verify"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, jwtConfig, origin, send, signInAlice, users } from "../../core/test/helpers.js"
import { testSchema } from "./database.js"

const db = testSchema("keys")
const audience = "https://api.example.com"

beforeAll(async () => {
  await db.create()
  const pool = db.pool()
  await migrate(pool)
  // The credentials provider signs alice in by id; with an adapter, tokens are for stored users.
  const { id, name, email } = users.alice
  await PostgresAdapter(pool).createUser!({ id, name, email, emailVerified: null })
})
afterAll(() => db.drop())

/** An app instance on `pool`, with API tokens on. */
function instance(pool: pg.Pool, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return jwtConfig({ adapter: PostgresAdapter(pool), apiTokens: { audience }, ...overrides })
}

/** Signs alice in through `config` and asks it for an API token. */
async function apiToken(config: AuthConfig): Promise<string> {
  const jar = new CookieJar()
  await signInAlice(config, jar)
  const response = await send(config, "/auth/token", { jar })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

/** `token` checked as a resource server does, against the key set `config` publishes. */
async function verifiedBy(token: string, config: AuthConfig) {
  const jwks = await (await send(config, "/auth/jwks")).json()
  return verifyApiToken(token, { jwks, issuer: `${origin}/auth`, audience })
}

const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()) as { kid?: string }).kid

async function storedKeys(pool: pg.Pool) {
  const { rows } = await pool.query<{ id: string; publicKey: string; privateKey: string }>(`SELECT "id", "publicKey", "privateKey" FROM "sesame_signing_keys" ORDER BY "createdAt"`)
  return rows
}

describe("signing keys on PostgreSQL", () => {
  it("are shared by two instances, survive a restart, and are stored sealed", async () => {
    const poolA = db.pool()
    const poolB = db.pool()
    const a = instance(poolA)
    const b = instance(poolB)

    // A makes the key on first use; B, on its own pool, publishes it and signs with it.
    const fromA = await apiToken(a)
    const kid = kidOf(fromA)
    expect(kid).toBeTruthy()
    expect(await verifiedBy(fromA, b)).toMatchObject({ sub: users.alice.id, aud: audience })
    const fromB = await apiToken(b)
    expect(kidOf(fromB)).toBe(kid)
    expect(await verifiedBy(fromB, a)).toMatchObject({ sub: users.alice.id })

    // One key in the table, under the kid; its private half a compact JWE, not the JWK.
    const [stored, ...others] = await storedKeys(poolB)
    expect(others).toEqual([])
    expect(stored!.id).toBe(kid)
    expect(stored!.privateKey.split(".")).toHaveLength(5)
    expect(stored!.privateKey).not.toMatch(/"kty"|"d"/)
    expect(() => JSON.parse(stored!.privateKey)).toThrow()
    expect(JSON.parse(stored!.publicKey)).not.toHaveProperty("d")

    // A restarts: its pool is gone, a new instance starts on a new one and finds the key.
    await poolA.end()
    const c = instance(db.pool())
    expect(await verifiedBy(fromA, c)).toMatchObject({ sub: users.alice.id })
    expect(kidOf(await apiToken(c))).toBe(kid)
    expect((await storedKeys(poolB)).map((key) => key.id)).toEqual([kid])
  })

  it("give nothing to an instance with another secret: a copy of the database signs nothing", async () => {
    const pool = db.pool()
    const app = instance(pool)
    const kid = kidOf(await apiToken(app))
    const [before] = await storedKeys(pool)
    expect(before!.id).toBe(kid)
    const stranger = instance(pool, { secret: "another-secret-0123456789-abcdefghijklmnop" })
    const token = await apiToken(stranger)
    // It cannot open the stored key, so it signs with a key of its own; the stored one is untouched.
    expect(kidOf(token)).not.toBe(before!.id)
    const after = await storedKeys(pool)
    expect(after[0]).toEqual(before)
    expect(after.map((key) => key.id)).toEqual([before!.id, kidOf(token)])
    // And the app's own instances do not sign with the stranger's key.
    expect(kidOf(await apiToken(instance(db.pool())))).toBe(kid)
  })
})
