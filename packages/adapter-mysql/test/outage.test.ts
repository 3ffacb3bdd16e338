/**
 * Issue 40 on a real MariaDB: a database restart is a short "try again", never a sign-out.
 * The outage suite (../../adapter-pg/test/outage-suite.ts) runs `Auth()` with this adapter on a
 * mysql2 pool connected through the TCP proxy it cuts and restores.
 */
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import mysql from "mysql2/promise"
import { afterAll, beforeAll, expect } from "vitest"
import { runOutageTests } from "../../adapter-pg/test/outage-suite.js"
import { serverUrl, testDatabase } from "./database.js"

const db = testDatabase("outage")
const server = new URL(serverUrl)

let pool: mysql.Pool
/** The pool's idle connections (mysql2 keeps them in a private list). */
const idle = () => (pool.pool as unknown as { _freeConnections: { toArray(): object[] } })._freeConnections.toArray()

const outage = runOutageTests({
  server: "MariaDB",
  target: { host: server.hostname, port: Number(server.port || 3306) },
  adapter: () => MysqlAdapter(pool),
  watchIdleConnections() {
    const before = idle()
    expect(before.length).toBeGreaterThan(0)
    return () => expect(idle().filter((connection) => before.includes(connection))).toEqual([])
  },
  jwt: "sign-in needs the database",
})

beforeAll(async () => {
  await db.create()
  await migrate(db.pool())
  pool = mysql.createPool({
    host: "127.0.0.1",
    port: outage.proxy.port,
    user: decodeURIComponent(server.username) || "root",
    password: decodeURIComponent(server.password) || undefined,
    database: db.name,
    connectionLimit: 5,
    // A server that takes the connection but never answers fails the call instead of hanging it.
    connectTimeout: 2000,
  })
})
afterAll(async () => {
  await pool?.end().catch(() => {})
  await db.drop()
})
