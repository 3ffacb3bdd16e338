/**
 * Atomic use-once of verification tokens under real contention: twenty uses of one token at the
 * same moment, each on its own pooled connection, and exactly one gets it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { testSchema } from "./database.js"
import { winnersPerRound } from "../../sql-common/test/shared/contention.js"

const db = testSchema("race")
const connections = 20
const pool = db.pool({ max: connections })
const adapter = PostgresAdapter(pool)

beforeAll(async () => {
  await db.create()
  await migrate(pool)
})
afterAll(() => db.drop())

describe("useVerificationToken under contention", () => {
  it(`${connections} concurrent uses of one token on ${connections} connections: exactly one gets it, every time`, async () => {
    // Open every connection first, so that the uses below really run side by side.
    const warm = await Promise.all(Array.from({ length: connections }, () => pool.connect()))
    for (const client of warm) client.release()
    expect(pool.totalCount).toBe(connections)
    expect(await winnersPerRound(adapter, connections, 10)).toEqual(Array(10).fill(1))
    expect(pool.totalCount).toBe(connections)
  })
})
