/**
 * Atomic use-once of verification tokens under real contention: twenty uses of one token at the
 * same moment, each on its own pooled connection, and exactly one gets it. On PostgreSQL that is
 * one `DELETE … RETURNING`; on MariaDB a transaction (`db.transaction()`) that locks the row.
 */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { Kysely, MysqlDialect, PostgresDialect } from "kysely"
import { afterAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { winnersPerRound } from "../../sql-common/test/shared/contention.js"

const connections = 20

describe("useVerificationToken under contention", () => {
  const schema = testSchema("kysely_race")
  const database = testDatabase("kysely_race")
  afterAll(() => Promise.all([schema.drop(), database.drop()]))

  it(`PostgreSQL: ${connections} concurrent uses of one token on ${connections} connections: exactly one gets it, every time`, async () => {
    await schema.create()
    const pool = schema.pool({ max: connections })
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    await migrate(db)
    // Open every connection first, so that the uses below really run side by side.
    const warm = await Promise.all(Array.from({ length: connections }, () => pool.connect()))
    for (const client of warm) client.release()
    expect(pool.totalCount).toBe(connections)
    expect(await winnersPerRound(KyselyAdapter(db), connections, 10)).toEqual(Array(10).fill(1))
    expect(pool.totalCount).toBe(connections)
  })

  it(`MariaDB: ${connections} concurrent uses of one token on ${connections} connections: exactly one gets it, every time`, async () => {
    await database.create()
    const pool = database.pool({ connectionLimit: connections })
    const db = new Kysely({ dialect: new MysqlDialect({ pool: pool.pool }) })
    await migrate(db)
    const warm = await Promise.all(Array.from({ length: connections }, () => pool.getConnection()))
    const threads = new Set(warm.map((connection) => connection.threadId))
    for (const connection of warm) connection.release()
    expect(threads.size).toBe(connections)
    expect(await winnersPerRound(KyselyAdapter(db), connections, 10)).toEqual(Array(10).fill(1))
  })
})
