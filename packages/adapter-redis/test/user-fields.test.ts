/**
 * The app's user fields on Redis: the conformance suite, then what only Redis shows: the fields in
 * the user's hash under their columns, encoded as the store encodes a model's values, defaults for
 * users whose hash lacks a required field, and a column that would clash with the user's own.
 */
import { runUserFieldsTests, userFieldsTestModel } from "@sesame/adapter-test"
import RedisAdapter, { keys } from "@sesame/adapter-redis"
import { userModel, type AdapterUser } from "@sesame/core/adapters"
import { afterAll, describe, expect, it } from "vitest"
import { connectRedis, dropPrefix, testPrefix } from "./services.js"

const prefix = testPrefix()
const client = await connectRedis()
const adapter = RedisAdapter(client, { prefix })
const bound = adapter.withUserFields!(userFieldsTestModel)

afterAll(async () => {
  await dropPrefix(client, prefix)
  await client.quit()
})

runUserFieldsTests({ name: "RedisAdapter user fields", adapter })

const user = (): AdapterUser => ({ id: crypto.randomUUID(), email: `uf-${crypto.randomUUID().slice(0, 8)}@example.com`, emailVerified: null, name: null, image: null })

describe("RedisAdapter user fields, in Redis", () => {
  it("keeps the fields in the user's hash, under their columns, as the store encodes them", async () => {
    const ada = user()
    const trialEnds = new Date(1_700_000_000_123)
    await bound.createUser!({ ...ada, plan: "team", seats: 3, beta: true, trialEnds, prefs: { a: [1] }, undeclared: "x" } as AdapterUser)
    expect(await client.hgetall(keys(prefix).user(ada.id))).toEqual({
      id: ada.id,
      email: ada.email,
      role: "member",
      plan_name: "team",
      seats: "3",
      beta: "1",
      trialEnds: "1700000000123",
      prefs: '{"a":[1]}',
    })
  })

  it("reads a user the plain adapter made with the defaults of the required fields", async () => {
    const ada = await adapter.createUser!(user())
    expect(await bound.getUser!(ada.id)).toEqual({ ...ada, role: "member", plan: null, seats: 1, beta: false, trialEnds: null, prefs: null, bio: null })
  })

  it("refuses a value that is not of the field's type, or null for a required field, and writes nothing", async () => {
    const ada = await bound.createUser!(user())
    await expect(bound.updateUser!({ id: ada.id, seats: "many" } as Partial<AdapterUser> & { id: string })).rejects.toThrow(TypeError)
    await expect(bound.updateUser!({ id: ada.id, role: null } as Partial<AdapterUser> & { id: string })).rejects.toThrow(TypeError)
    expect(await bound.getUser!(ada.id)).toMatchObject({ seats: 1, role: "member" })
  })

  it("refuses a field stored under a column of the user's own", () => {
    expect(() => adapter.withUserFields!(userModel({ contact: { type: "string", optional: true, column: "email" } }))).toThrow(/"contact".*"email"/)
  })
})
