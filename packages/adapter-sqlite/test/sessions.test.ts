/**
 * Sesame with the SQLite adapter on a file: credentials sign-in with database sessions, end to end,
 * and what actually lands in the sessions table.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { browser } from "./browser.js"

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), "sesame-sqlite-")), "auth.db")
  const config: AuthConfig = {
    secret: "sqlite-session-test-secret-0123456789",
    trustHost: true,
    adapter: SqliteAdapter(file),
    providers: [
      Credentials({
        createUser: true,
        credentials: { email: { type: "email" }, password: { type: "password" } },
        authorize: ({ email, password }) => (password === "open sesame" ? { email: String(email), name: "Ada" } : null),
      }),
    ],
  }
  const client = browser(config)
  const { cookies } = client
  const call = (path: string, form?: Record<string, string>) => client.call(path, form && { form })
  return { file, call, cookies, raw: () => new Database(file, { readonly: true }) }
}

describe("credentials with database sessions on SQLite", () => {
  it("signs in, reads the session, and sign-out deletes the row", async () => {
    const { call, raw } = setup()
    const { csrfToken } = await (await call("/auth/csrf")).json()
    const signIn = await call("/auth/callback/credentials", { csrfToken, email: "ada@example.com", password: "open sesame" })
    expect(signIn.status).toBe(302)
    const db = raw()
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sesame_sessions`).get()).toEqual({ n: 1 })
    expect(db.prepare(`SELECT email, name FROM sesame_users`).all()).toEqual([{ email: "ada@example.com", name: "Ada" }])
    expect(await (await call("/auth/session")).json()).toMatchObject({ user: { email: "ada@example.com", name: "Ada" } })
    await call("/auth/signout", { csrfToken })
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sesame_sessions`).get()).toEqual({ n: 0 })
    expect(await (await call("/auth/session")).json()).toBeNull()
    db.close()
  })

  it("stores no value equal to (or containing) the cookie's token", async () => {
    const { call, cookies, raw } = setup()
    const { csrfToken } = await (await call("/auth/csrf")).json()
    await call("/auth/callback/credentials", { csrfToken, email: "ada@example.com", password: "open sesame" })
    const token = cookies.get("sesame.session-token")!
    expect(token.length).toBeGreaterThanOrEqual(43)
    const db = raw()
    const rows = db.prepare(`SELECT * FROM sesame_sessions`).all() as Record<string, unknown>[]
    expect(rows).toHaveLength(1)
    for (const value of Object.values(rows[0]!)) expect(String(value)).not.toContain(token)
    // Nor anywhere else in the database file's tables.
    for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) expect(String(value)).not.toContain(token)
      }
    }
    db.close()
  })
})
