/**
 * The store inside an adapter transaction: its creates may refer to the users the transaction
 * created (they exist only at the commit), and are deleted again, index entries and all, when the
 * transaction fails, whether `fn` throws or the commit does.
 */
import { builtInModels, type AdapterUser } from "@sesame/core/adapters"
import RedisAdapter, { TransactionConflict } from "@sesame/adapter-redis"
import { afterAll, describe, expect, it } from "vitest"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const prefix = testPrefix()
const client = await connectRedis()
const other = await connectRedis()
const adapter = RedisAdapter(client, { prefix })
// Another app instance on the same Redis.
const elsewhere = RedisAdapter(other, { prefix })
const store = adapter.store!
const { passwords } = builtInModels

afterAll(async () => {
  await dropPrefix(client, prefix)
  await Promise.all([client.quit(), other.quit()])
})

const unique = () => crypto.randomUUID().slice(0, 8)
const user = (overrides: Partial<AdapterUser> = {}): AdapterUser => ({
  id: crypto.randomUUID(),
  email: `t-${unique()}@example.com`,
  emailVerified: null,
  name: null,
  image: null,
  ...overrides,
})
const password = (userId: string) => ({ userId, hash: "$2b$10$abcdefghijklmnopqrstuv", updatedAt: new Date() })
/** The keys under the prefix that name the user's id (its records, its rows, their index entries). */
const keysOf = async (id: string) => (await keysUnder(client, prefix)).filter((key) => key.includes(id))

describe("the store of an adapter transaction", () => {
  it("creates a row that refers to a user created earlier in the transaction; both exist after the commit", async () => {
    const input = user()
    await adapter.transaction!(async (tx) => {
      const created = await tx.createUser!(input)
      await tx.store!.create(passwords, password(created.id))
      // The row is written at once, the user at the commit.
      expect(await store.findOne(passwords, { userId: input.id })).toMatchObject({ userId: input.id })
      expect(await elsewhere.getUser!(input.id)).toBeNull()
    })
    expect(await adapter.getUser!(input.id)).toMatchObject({ id: input.id })
    expect(await store.findOne(passwords, { userId: input.id })).toMatchObject({ userId: input.id })
    // The row refers to the user like any other: the user's deletion takes it.
    await adapter.deleteUser!(input.id)
    expect(await store.findOne(passwords, { userId: input.id })).toBeNull()
    expect(await keysOf(input.id)).toEqual([])
  })

  it("leaves neither the user nor the row, nor any key of theirs, when fn throws after the write", async () => {
    const input = user()
    await expect(
      adapter.transaction!(async (tx) => {
        const created = await tx.createUser!(input)
        await tx.transaction!(async (inner) => inner.store!.create(passwords, password(created.id)))
        expect(await keysOf(input.id)).not.toEqual([])
        throw new Error("stop")
      }),
    ).rejects.toThrow("stop")
    expect(await adapter.getUser!(input.id)).toBeNull()
    expect(await store.findOne(passwords, { userId: input.id })).toBeNull()
    expect(await keysOf(input.id)).toEqual([])
  })

  it("deletes the row when the commit fails on a conflict", async () => {
    const input = user()
    const attempt = adapter.transaction!(async (tx) => {
      expect(await tx.getUserByEmail!(input.email)).toBeNull()
      const created = await tx.createUser!(input)
      await tx.store!.create(passwords, password(created.id))
      // Another instance signs the same address up before the commit.
      await elsewhere.createUser!(user({ email: input.email }))
    })
    await expect(attempt).rejects.toBeInstanceOf(TransactionConflict)
    expect(await adapter.getUser!(input.id)).toBeNull()
    expect(await store.findOne(passwords, { userId: input.id })).toBeNull()
    expect(await keysOf(input.id)).toEqual([])
  })

  it("still refuses a reference to a user that neither exists nor was created in the transaction", async () => {
    const input = user()
    const stranger = crypto.randomUUID()
    await expect(
      adapter.transaction!(async (tx) => {
        await tx.createUser!(input)
        await tx.store!.create(passwords, password(stranger))
      }),
    ).rejects.toThrow(/"userId" refers to a user that does not exist/)
    expect(await adapter.getUser!(input.id)).toBeNull()
    expect(await keysOf(stranger)).toEqual([])
    // Outside a transaction, a user created in one that failed does not exist either.
    await expect(store.create(passwords, password(input.id))).rejects.toThrow(/refers to a user that does not exist/)
  })

  it("takes a user the transaction deleted as gone again", async () => {
    const input = user()
    await expect(
      adapter.transaction!(async (tx) => {
        const created = await tx.createUser!(input)
        await tx.deleteUser!(created.id)
        await tx.store!.create(passwords, password(created.id))
      }),
    ).rejects.toThrow(/refers to a user that does not exist/)
    expect(await keysOf(input.id)).toEqual([])
  })
})
