/**
 * Issue 40 on a real PostgreSQL: a database restart is a short "try again", never a sign-out.
 * The outage suite (./outage-suite.ts) runs `Auth()` with this adapter on a `pg.Pool` connected
 * through the TCP proxy it cuts and restores. Here besides: a server that stops answering without
 * closing the connection is a 503 too, bounded by the pool's timeouts.
 */
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serverUrl, testSchema } from "./database.js"
import { freezingProxy, reportedDeadConnections, runOutageTests } from "./outage-suite.js"

const db = testSchema("outage")
const server = new URL(serverUrl)
const target = { host: server.hostname, port: Number(server.port || 5432) }

let pool: pg.Pool
/** The idle connections the pool reported dead (the adapter's `onPoolError`). */
const poolErrors: Error[] = []

/** A pool through the proxy at `port`, on the test's schema. */
const poolAt = (port: number, options: pg.PoolConfig) =>
  new pg.Pool({
    host: "127.0.0.1",
    port,
    user: decodeURIComponent(server.username) || "postgres",
    password: decodeURIComponent(server.password) || undefined,
    database: server.pathname.slice(1) || "test",
    options: `-c search_path=${db.name}`,
    max: 5,
    ...options,
  })

const outage = runOutageTests({
  server: "PostgreSQL",
  target,
  adapter: () => PostgresAdapter(pool, { onPoolError: (error) => void poolErrors.push(error) }),
  watchIdleConnections: reportedDeadConnections(() => pool, poolErrors),
  jwt: "sign-in needs the database",
})

beforeAll(async () => {
  await db.create()
  await migrate(db.pool())
  // A server that takes the connection but never answers fails the call instead of hanging it.
  pool = poolAt(outage.proxy.port, { connectionTimeoutMillis: 2000 })
})
afterAll(async () => {
  await pool?.end().catch(() => {})
  await db.drop()
})

describe("PostgreSQL stops answering without closing the connection", () => {
  it("answers 503, bounded by the pool's query_timeout and connectionTimeoutMillis, and the session again once it answers", async () => {
    const frozen = await freezingProxy(target)
    const stuck = poolAt(frozen.port, { connectionTimeoutMillis: 500, query_timeout: 500 })
    try {
      const c = outage.config({ adapter: PostgresAdapter(stuck, { onPoolError: () => {} }) })
      const ms = await outage.expectPartitionHeals(c, await outage.signIn(c), frozen)
      expect(ms).toBeLessThan(3000)
    } finally {
      await stuck.end().catch(() => {})
      await frozen.close()
    }
  })
})
