/**
 * Passkeys with the SQLite adapter on a file, end to end with a software authenticator: what lands
 * in the tables, the counter, the transaction that keeps a user, their account and their
 * authenticator together, and passkey deletion.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { deletePasskey, type AuthConfig } from "@sesame/core"
import Passkey from "@sesame/core/providers/passkey"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { SoftAuthenticator, type CreationOptionsJSON, type RequestOptionsJSON } from "@sesame/testing"
import { browser, origin } from "./browser.js"

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), "sesame-passkeys-")), "auth.db")
  const errors: Error[] = []
  const config: AuthConfig = {
    secret: "sqlite-passkey-test-secret-0123456789",
    trustHost: true,
    adapter: SqliteAdapter(file),
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
    logger: { error: (e) => void errors.push(e), warn: () => {} },
  }
  const client = browser(config)
  const { cookies } = client
  const call = (path: string, json?: unknown) => client.call(path, json === undefined ? undefined : { json })
  const register = async (key: SoftAuthenticator, email?: string) => {
    const { options } = (await (await call(`/auth/webauthn-options/passkey?action=register${email ? `&email=${email}` : ""}`)).json()) as { options: CreationOptionsJSON }
    return call("/auth/callback/passkey", { action: "register", data: key.register(options, { origin }) })
  }
  const authenticate = async (key: SoftAuthenticator) => {
    const { options } = (await (await call("/auth/webauthn-options/passkey?action=authenticate")).json()) as { options: RequestOptionsJSON }
    return call("/auth/callback/passkey", { action: "authenticate", data: key.authenticate(options, { origin }) })
  }
  const session = async () => ((await (await call("/auth/session")).json()) as { user?: { email?: string } } | null)?.user?.email ?? null
  const me = () => client.request()
  return { file, config, errors, cookies, call, register, authenticate, session, me, raw: () => new Database(file) }
}

describe("passkeys on SQLite", () => {
  it("registers (user, webauthn account and authenticator rows), signs in again, and stores the counter", async () => {
    const app = setup()
    const key = new SoftAuthenticator()
    expect((await app.register(key, "ada@example.com")).headers.get("location")).toBe(`${origin}/`)
    const db = app.raw()
    const credentialID = Buffer.from(key.credentials[0]!.id, "base64url").toString("base64")
    const user = db.prepare(`SELECT id, email FROM sesame_users`).get() as { id: string; email: string }
    expect(user.email).toBe("ada@example.com")
    expect(db.prepare(`SELECT userId, type, provider, providerAccountId FROM sesame_accounts`).all()).toEqual([
      { userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: credentialID },
    ])
    const row = db.prepare(`SELECT * FROM sesame_authenticators`).get() as Record<string, unknown>
    expect(row).toMatchObject({ credentialID, userId: user.id, providerAccountId: credentialID, counter: 0, transports: "internal", credentialBackedUp: 0 })
    expect(typeof row.createdAt).toBe("number")

    app.cookies.clear()
    expect(await app.session()).toBeNull()
    await app.authenticate(key)
    await app.authenticate(key)
    expect(await app.session()).toBe("ada@example.com")
    expect(db.prepare(`SELECT counter FROM sesame_authenticators`).get()).toEqual({ counter: 2 })
    db.close()
  })

  it("rolls back the user and the account when the authenticator cannot be stored", async () => {
    const app = setup()
    const db = app.raw()
    db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON sesame_authenticators BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
    const response = await app.register(new SoftAuthenticator(), "ada@example.com")
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    expect(app.errors.at(-1)?.message).toMatch(/Adapter (method "createAuthenticator" failed|transaction failed)/)
    for (const table of ["sesame_users", "sesame_accounts", "sesame_authenticators", "sesame_sessions"]) {
      expect(db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get(), table).toEqual({ n: 0 })
    }
    expect(await app.session()).toBeNull()
    db.close()
  })

  it("deletes a passkey with its account, but not the last one", async () => {
    const app = setup()
    const [phone, laptop] = [new SoftAuthenticator(), new SoftAuthenticator()]
    await app.register(phone, "ada@example.com")
    await app.register(laptop)
    const db = app.raw()
    const ids = (db.prepare(`SELECT credentialID FROM sesame_authenticators ORDER BY createdAt, rowid`).all() as { credentialID: string }[]).map((r) => r.credentialID)
    expect(ids).toHaveLength(2)
    expect(await deletePasskey(app.me(), app.config, ids[0]!)).toEqual({ deleted: true })
    expect(await deletePasskey(app.me(), app.config, ids[1]!)).toEqual({ deleted: false, reason: "LastSignInMethod" })
    expect(db.prepare(`SELECT providerAccountId FROM sesame_accounts`).all()).toEqual([{ providerAccountId: ids[1] }])
    expect(db.prepare(`SELECT credentialID FROM sesame_authenticators`).all()).toEqual([{ credentialID: ids[1] }])
    db.close()
  })
})
