/**
 * Atomic use-once of verification tokens under real contention: twenty uses of one token at the
 * same moment, each on its own pooled connection, and exactly one gets it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { testDatabase } from "./database.js"
import { winnersPerRound } from "../../sql-common/test/shared/contention.js"

const db = testDatabase("race")
const connections = 20
const pool = db.pool({ connectionLimit: connections })
const adapter = MysqlAdapter(pool)

beforeAll(async () => {
  await db.create()
  await migrate(pool)
})
afterAll(() => db.drop())

describe("useVerificationToken under contention", () => {
  it(`${connections} concurrent uses of one token on ${connections} connections: exactly one gets it, every time`, async () => {
    // Open every connection first, so that the uses below really run side by side.
    const warm = await Promise.all(Array.from({ length: connections }, () => pool.getConnection()))
    const threads = new Set(warm.map((c) => c.threadId))
    for (const connection of warm) connection.release()
    expect(threads.size).toBe(connections)
    expect(await winnersPerRound(adapter, connections, 10)).toEqual(Array(10).fill(1))
  })
})
