/**
 * The database connection dropped in the middle of a sign-in. A TCP proxy sits between the app and
 * PostgreSQL and goes down at a chosen statement:
 *
 * - End to end: an app instance (a real process) signs a new user in with credentials
 *   (`createUser: true`, database sessions); the database goes away just as the user row is about
 *   to be written. The browser gets `503` with `Retry-After` (the storage is unavailable: not the
 *   `Configuration` error, not a 500 or a hang), the process lives on, no row was written, and
 *   once the database is back the same sign-in succeeds.
 * - The multi-row write Sesame does for a new OAuth user (create the user, link the account, in one
 *   `transaction`): the connection drops after the account's INSERT reached the server but before
 *   COMMIT, first through the adapter alone, then end to end in a real OpenID Connect sign-in
 *   against the dev IdP. Neither row remains, and the same sign-in succeeds once the database is
 *   back.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { serverUrl, testSchema } from "../../../packages/adapter-pg/test/database.js"
import { startDevIdp } from "@sesame/dev-idp"
import { Browser, freePort, startInstance, type Instance } from "./instances.js"
import { tcpProxy, type TcpProxy } from "@sesame/testing"

const schema = testSchema("fault")
const direct = schema.pool()
let proxy: TcpProxy
let proxiedUrl: string

beforeAll(async () => {
  await schema.create()
  await migrate(direct)
  const target = new URL(serverUrl)
  proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const viaProxy = new URL(schema.url)
  viaProxy.host = `127.0.0.1:${proxy.port}`
  proxiedUrl = viaProxy.href
})
afterAll(async () => {
  await proxy?.close()
  await schema.drop()
})

/** Rows of `table`, read straight from PostgreSQL (not through the proxy), where `column` is `value`. */
const count = async (table: string, column?: string, value?: string) =>
  (await direct.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "${table}"${column ? ` WHERE "${column}" = $1` : ""}`, column ? [value] : [])).rows[0]!.n

describe("the database drops in the middle of a sign-in", () => {
  let app: Instance

  beforeAll(async () => {
    app = await startInstance({ DATABASE_URL: proxiedUrl, AUTH_SECRET: `fault-secret-${crypto.randomUUID()}` })
  })
  afterAll(() => app?.stop())

  it("credentials sign-in of a new user: 503, no rows, then success once the database is back", async () => {
    // Concurrent session lookups leave several connections in the app's pool; when the database
    // goes, those sitting idle fail too (an unhandled pool error would end the process).
    const visitors = Array.from({ length: 4 }, () => new Browser())
    for (const visitor of visitors) visitor.cookies.set("sesame.session-token", crypto.randomUUID())
    // Wait for at least two connections open through the proxy.
    for (let burst = 0; burst < 20 && proxy.connections < 2; burst++) {
      expect(await Promise.all(visitors.map((v) => v.session(app.origin)))).toEqual([null, null, null, null])
    }
    expect(proxy.connections).toBeGreaterThanOrEqual(2)

    const browser = new Browser()
    const email = `grace-${crypto.randomUUID().slice(0, 8)}@example.com`
    // The app looks the user up through the proxy first: the connection is live mid-sign-in.
    const down = proxy.failOn(`INSERT INTO "sesame_users"`, { forward: false })
    const failed = await browser.signIn(app.origin, email)
    await down
    expect(failed.status).toBe(503)
    expect(failed.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(browser.cookies.has("sesame.session-token")).toBe(false)
    expect(await count("sesame_users", "email", email)).toBe(0)
    expect(await count("sesame_sessions")).toBe(0)
    // While the database is down the app answers each sign-in with 503, quickly.
    const again = await browser.signIn(app.origin, email)
    expect(again.status).toBe(503)
    expect(app.process.exitCode).toBeNull()
    expect(app.errors()).toContain("StorageUnavailable")
    expect(app.errors()).not.toContain("Configuration")

    await proxy.restore()
    const signIn = await browser.signIn(app.origin, email)
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(`${app.origin}/welcome`)
    expect((await browser.session(app.origin))?.user?.email).toBe(email)
    expect(await count("sesame_users", "email", email)).toBe(1)
    expect(app.process.exitCode).toBeNull()
  })
})

describe("the database drops inside the user-and-account transaction", () => {
  it("leaves neither row, and the same transaction succeeds once the database is back", async () => {
    const pool = new pg.Pool({ connectionString: proxiedUrl, connectionTimeoutMillis: 3_000 })
    const reported: Error[] = []
    const adapter = PostgresAdapter(pool, { onPoolError: (error) => reported.push(error) })
    const email = `linus-${crypto.randomUUID().slice(0, 8)}@example.com`
    const providerAccountId = `gh-${crypto.randomUUID().slice(0, 8)}`
    const signUp = () =>
      adapter.transaction!(async (tx) => {
        const user = await tx.createUser!({ id: crypto.randomUUID(), email, emailVerified: null, name: "Linus" })
        await tx.linkAccount!({ userId: user.id, type: "oauth", provider: "github", providerAccountId, access_token: "gho_x" })
        return user
      })
    try {
      await proxy.restore()
      const down = proxy.failOn(`INSERT INTO "sesame_accounts"`, { forward: true })
      await expect(signUp()).rejects.toThrow()
      await down
      expect(await count("sesame_users", "email", email)).toBe(0)
      expect(await count("sesame_accounts", "providerAccountId", providerAccountId)).toBe(0)

      await proxy.restore()
      const user = await signUp()
      expect(await count("sesame_users", "email", email)).toBe(1)
      expect(await adapter.getUserByAccount!({ provider: "github", providerAccountId })).toEqual(user)
    } finally {
      await pool.end()
    }
  })
})

describe("the database drops in the middle of an OAuth first sign-in", () => {
  it("503, neither the user nor the account, then success once the database is back", async () => {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const secret = `idp-client-secret-${crypto.randomUUID()}`
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`
    const idp = await startDevIdp({
      clients: [{ client_id: "shared-db", client_secret: secret, redirect_uris: [`${origin}/auth/callback/idp`] }],
      accounts: [{ id: "ada", email, name: "Ada" }],
    })
    const app = await startInstance({
      DATABASE_URL: proxiedUrl,
      PORT: String(port),
      AUTH_SECRET: `fault-secret-${crypto.randomUUID()}`,
      AUTH_IDP_ID: "shared-db",
      AUTH_IDP_SECRET: secret,
      AUTH_IDP_ISSUER: idp.issuer,
    })
    try {
      await proxy.restore()
      const browser = new Browser()
      // The account's INSERT reaches PostgreSQL inside the transaction; COMMIT never does.
      const down = proxy.failOn(`INSERT INTO "sesame_accounts"`, { forward: true })
      const failed = await browser.signInWithIdp(app.origin, "ada")
      await down
      expect(failed.status).toBe(503)
      expect(browser.cookies.has("sesame.session-token")).toBe(false)
      expect(await count("sesame_users", "email", email)).toBe(0)
      expect(await count("sesame_accounts", "provider", "idp")).toBe(0)
      expect(app.process.exitCode).toBeNull()

      await proxy.restore()
      const signIn = await browser.signInWithIdp(app.origin, "ada")
      expect(signIn.headers.get("location")).toBe(`${app.origin}/welcome`)
      expect((await browser.session(app.origin))?.user?.email).toBe(email)
      expect(await count("sesame_users", "email", email)).toBe(1)
      expect(await count("sesame_accounts", "provider", "idp")).toBe(1)
    } finally {
      await app.stop()
      await idp.close()
    }
  })
})
