/**
 * Raw reads of the SQLite tables for the conformance suite: straight SQL on a connection of the
 * test's choosing, bypassing the adapter.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { defaultTableNames, type TableNames } from "@sesame/adapter-sqlite"
import type Database from "better-sqlite3"
import { toAccount, toAuthenticator, toSession, toUser, toVerificationToken, type Row } from "@sesame/sql-common"
import { toCounter, toPassword, toSigningKey, toTwoFactor } from "../../sql-common/test/shared/built-in-rows.js"

export function rawReader(db: Database.Database, tables: Partial<TableNames> = {}, disconnect?: () => void): AdapterTestDb {
  const t = { ...defaultTableNames, ...tables }
  const read = <T>(map: (row: Row) => T, sql: string, ...params: unknown[]) => {
    const row = db.prepare(sql).get(...params) as Row | undefined
    return Promise.resolve(row ? map(row) : null)
  }
  return {
    disconnect,
    user: (id) => read(toUser, `SELECT * FROM "${t.users}" WHERE id = ?`, id),
    account: ({ provider, providerAccountId }) =>
      read(toAccount, `SELECT * FROM "${t.accounts}" WHERE provider = ? AND providerAccountId = ?`, provider, providerAccountId),
    session: (token) => read(toSession, `SELECT * FROM "${t.sessions}" WHERE sessionToken = ?`, token),
    verificationToken: ({ identifier, token }) =>
      read(toVerificationToken, `SELECT * FROM "${t.verificationTokens}" WHERE identifier = ? AND token = ?`, identifier, token),
    authenticator: (id) => read(toAuthenticator, `SELECT * FROM "${t.authenticators}" WHERE credentialID = ?`, id),
    password: (userId) => read(toPassword, `SELECT * FROM "${t.passwords}" WHERE userId = ?`, userId),
    counter: (key) => read(toCounter, `SELECT * FROM "${t.counters}" WHERE key = ?`, key),
    twoFactor: (userId) => read(toTwoFactor, `SELECT * FROM "${t.twoFactors}" WHERE userId = ?`, userId),
    recoveryCodes: async (userId) => (db.prepare(`SELECT hash FROM "${t.recoveryCodes}" WHERE userId = ?`).all(userId) as { hash: string }[]).map((r) => r.hash),
    signingKey: (id) => read(toSigningKey, `SELECT * FROM "${t.signingKeys}" WHERE id = ?`, id),
  }
}
