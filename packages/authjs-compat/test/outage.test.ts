/**
 * Issue 40 with Auth.js's own `@auth/pg-adapter`, handed to `Auth()` unchanged: a database restart
 * is a short "try again", never a sign-out, whatever adapter the app brings. Its errors are
 * node-postgres's own, which Sesame recognises as the database being away. The outage suite
 * (../../adapter-pg/test/outage-suite.ts) runs it on a `pg.Pool` connected through the TCP proxy it
 * cuts and restores. The schema is the adapter's documented one (schemas/pg-adapter.sql), in a
 * place of its own.
 *
 * Two differences from Sesame's adapters: its `getUser` answers null for any failure, which splits
 * a sign-in's outage in the log (a case of its own here); and with JWT sessions a credentials
 * sign-in needs no database (no store, so no second-factor gate looks the user up).
 */
import { readFileSync } from "node:fs"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import { reportedDeadConnections, runOutageTests, type OutageHarness } from "../../adapter-pg/test/outage-suite.js"
import { postgresPlace, type PostgresPlace } from "./places.js"

const server = new URL(process.env.SESAME_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test")

let place: PostgresPlace
let pool: pg.Pool
/** The idle connections the pool reported dead: the app's listener (Auth.js's adapter adds none). */
const poolErrors: Error[] = []

const outage = runOutageTests({
  label: "@auth/pg-adapter",
  server: "PostgreSQL",
  target: { host: server.hostname, port: Number(server.port || 5432) },
  /** Auth.js's adapter, exactly as its package makes it. */
  adapter: () => PostgresAdapter(pool),
  watchIdleConnections: reportedDeadConnections(() => pool, poolErrors),
  // Sesame says at start that the adapter lacks optional methods.
  startupWarnings: true,
  getUserHidesFailures: true,
  cases: getUserSplitsTheOutage,
  jwt: "sign-in needs no database",
})

beforeAll(async () => {
  place = await postgresPlace("outage")
  await place.query(readFileSync(new URL("./schemas/pg-adapter.sql", import.meta.url), "utf8"))
  pool = new pg.Pool({
    host: "127.0.0.1",
    port: outage.proxy.port,
    user: decodeURIComponent(server.username) || "postgres",
    password: decodeURIComponent(server.password) || undefined,
    database: server.pathname.slice(1) || "test",
    options: `-c search_path=${place.schema}`,
    max: 5,
    // A server that takes the connection but never answers fails the call instead of hanging it.
    connectionTimeoutMillis: 2000,
  })
  // What an app does for an idle connection that dies: without a listener, the pool's `error`
  // event would crash the process.
  pool.on("error", (error) => void poolErrors.push(error))
})
afterAll(async () => {
  await pool?.end().catch(() => {})
  await place?.close()
})

function getUserSplitsTheOutage({ cut, restore, outageErrors, backAgain, config, signIn, expectSignInRefused }: OutageHarness) {
  it("a sign-in during the outage answers 503 (JSON or page), never error=Configuration; the adapter's getUser, which answers null for any failure, splits the outage in the log", async () => {
    const c = config()
    const { user } = await signIn(c)
    await cut()
    await expectSignInRefused(c, user)
    // A credentials sign-in looks the user up by id (`getUser`), then by email (`getUserByEmail`).
    // @auth/pg-adapter's `getUser` catches every error and answers null ("no such user"), so each
    // attempt fails only at `getUserByEmail`. The first begins the outage; in the second, Sesame
    // sees `getUser` succeed, logs the storage as answering again, then a new outage. With
    // Sesame's adapters (adapter-pg/test/outage.test.ts) the same attempts log one outage.
    expect(outageErrors()).toHaveLength(2)
    expect(backAgain()).toHaveLength(1)
  })
}
