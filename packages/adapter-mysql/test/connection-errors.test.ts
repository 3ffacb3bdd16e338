/**
 * Driver failures are errors of the adapter's methods, never crashes: a pooled connection that the
 * server drops while idle is discarded, one dropped inside a transaction rejects it with nothing
 * written, an unreachable server or one that hangs (a connection timeout) rejects the call, and so
 * does a constraint violation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import mysql from "mysql2/promise"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { blackHole } from "../../sql-common/test/shared/black-hole.js"
import { admin, testDatabase } from "./database.js"

const db = testDatabase("drop")

beforeAll(async () => {
  await db.create()
  await migrate(db.pool())
})
afterAll(() => db.drop())

describe("driver errors", () => {
  it("an idle connection dropped by the server is discarded, not an uncaught error", async () => {
    const pool = db.pool({ connectionLimit: 1 })
    const adapter = MysqlAdapter(pool)
    expect(await adapter.getUser!("nobody")).toBeNull()
    const connection = await pool.getConnection()
    const closed = new Promise((resolve) => connection.connection.once("end", resolve))
    const thread = connection.threadId
    connection.release()
    await admin(`KILL ?`, [thread])
    await closed
    expect(await adapter.getUser!("nobody")).toBeNull()
    const again = await pool.getConnection()
    expect(again.threadId).not.toBe(thread)
    again.release()
  })

  it("a connection dropped inside a transaction rejects it, and nothing of it is written", async () => {
    const pool = db.pool()
    const adapter = MysqlAdapter(pool)
    const email = `tx-${crypto.randomUUID()}@example.com`
    await expect(
      adapter.transaction!(async (tx) => {
        const user = await tx.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })
        // Kill every other connection of this pool's database: the transaction's is among them.
        const [threads] = await pool.query<mysql.RowDataPacket[]>(`SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()`, [db.name])
        for (const { id } of threads) await admin(`KILL ?`, [id as number]).catch(() => {})
        await tx.linkAccount!({ userId: user.id, type: "oauth", provider: "github", providerAccountId: email })
      }),
    ).rejects.toThrow()
    expect(await MysqlAdapter(db.pool()).getUserByEmail!(email)).toBeNull()
    expect(await adapter.getUserByEmail!(email)).toBeNull()
  })

  it("a server that accepts but never answers times out and rejects the call", async () => {
    const { port, close } = await blackHole()
    try {
      const silent = mysql.createPool({ host: "127.0.0.1", port, user: "root", connectTimeout: 300 })
      await expect(MysqlAdapter(silent).getSessionAndUser!("x")).rejects.toMatchObject({ code: "ETIMEDOUT" })
      await silent.end()
    } finally {
      await close()
    }
  })

  it("an unreachable server and a constraint violation reject the call", async () => {
    const closed = mysql.createPool({ host: "127.0.0.1", port: 1, user: "root", connectTimeout: 2000 })
    await expect(MysqlAdapter(closed).getUser!("x")).rejects.toThrow(/ECONNREFUSED/)
    await closed.end()
    const adapter = MysqlAdapter(db.pool())
    const email = `dup-${crypto.randomUUID()}@example.com`
    await adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })
    await expect(adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })).rejects.toMatchObject({ code: "ER_DUP_ENTRY" })
  })
})
