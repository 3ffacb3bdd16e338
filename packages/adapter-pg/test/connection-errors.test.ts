/**
 * Driver failures are errors of the adapter's methods, never crashes: a pooled connection that the
 * server drops while idle is discarded (and reported), one dropped inside a transaction rejects it
 * with nothing written, an unreachable server or one that hangs (a connection timeout) rejects the
 * call, and so does a constraint violation, with the driver's error.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import pg from "pg"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { blackHole } from "../../sql-common/test/shared/black-hole.js"
import { serverUrl, testSchema } from "./database.js"

const db = testSchema("drop")

beforeAll(async () => {
  await db.create()
  await migrate(db.pool())
})
afterAll(() => db.drop())

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Has the server end every connection of `applicationName`, as a restart or a failover would. */
async function terminate(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [applicationName])
    return rowCount ?? 0
  } finally {
    await admin.end()
  }
}

describe("driver errors", () => {
  it("an idle connection dropped by the server is reported and replaced, not an uncaught error", async () => {
    const name = `sesame-idle-${crypto.randomUUID().slice(0, 8)}`
    const pool = db.pool({ application_name: name })
    const reported: Error[] = []
    const adapter = PostgresAdapter(pool, { onPoolError: (error) => reported.push(error) })
    expect(await adapter.getUser!("nobody")).toBeNull()
    expect(pool.idleCount).toBe(1)
    expect(await terminate(name)).toBe(1)
    await until(() => reported.length === 1)
    expect(pool.totalCount).toBe(0)
    expect(await adapter.getUser!("nobody")).toBeNull()
  })

  it("by default a dropped idle connection is discarded without a word: no uncaught error, nothing printed", async () => {
    const name = `sesame-idle-${crypto.randomUUID().slice(0, 8)}`
    const pool = db.pool({ application_name: name })
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const adapter = PostgresAdapter(pool)
      await adapter.getUser!("nobody")
      expect(pool.idleCount).toBe(1)
      await terminate(name)
      await until(() => pool.totalCount === 0)
      expect(warn).not.toHaveBeenCalled()
      expect(await adapter.getUser!("nobody")).toBeNull()
    } finally {
      warn.mockRestore()
    }
  })

  it("a connection dropped inside a transaction rejects it, and nothing of it is written", async () => {
    const name = `sesame-tx-${crypto.randomUUID().slice(0, 8)}`
    const pool = db.pool({ application_name: name })
    const adapter = PostgresAdapter(pool)
    const email = `tx-${crypto.randomUUID()}@example.com`
    await expect(
      adapter.transaction!(async (tx) => {
        const user = await tx.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })
        await terminate(name)
        await tx.linkAccount!({ userId: user.id, type: "oauth", provider: "github", providerAccountId: email })
      }),
    ).rejects.toThrow(/terminat|connection error/i)
    expect(await PostgresAdapter(db.pool()).getUserByEmail!(email)).toBeNull()
    // The broken connection went back to no one: the pool serves the next call on a new one.
    expect(await adapter.getUserByEmail!(email)).toBeNull()
  })

  it("a server that accepts but never answers times out and rejects the call", async () => {
    const { server, port, close } = await blackHole()
    try {
      const silent = new pg.Pool({ host: "127.0.0.1", port, user: "postgres", database: "test", connectionTimeoutMillis: 300 })
      await expect(PostgresAdapter(silent).getSessionAndUser!("x")).rejects.toThrow(/timeout/i)
      await silent.end()
    } finally {
      await close()
    }
    expect(server.listening).toBe(false)
  })

  it("an unreachable server and a constraint violation reject the call", async () => {
    const closed = new pg.Pool({ host: "127.0.0.1", port: 1, user: "postgres", database: "test", connectionTimeoutMillis: 2000 })
    await expect(PostgresAdapter(closed).getUser!("x")).rejects.toThrow(/ECONNREFUSED/)
    await closed.end()
    const adapter = PostgresAdapter(db.pool())
    const email = `dup-${crypto.randomUUID()}@example.com`
    await adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })
    await expect(adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: null })).rejects.toMatchObject({ code: "23505" })
  })
})
