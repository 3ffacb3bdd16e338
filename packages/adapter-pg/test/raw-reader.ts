/**
 * Raw reads of the PostgreSQL tables for the conformance suite: straight SQL on a pool of the
 * test's own, bypassing the adapter.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { defaultTableNames, type TableNames } from "@sesame/adapter-pg"
import { toAccount, toAuthenticator, toSession, toUser, toVerificationToken, type Row } from "@sesame/sql-common"
import { toCounter, toPassword, toSigningKey, toTwoFactor } from "../../sql-common/test/shared/built-in-rows.js"
import type pg from "pg"

export function rawReader(pool: pg.Pool, tables: Partial<TableNames> = {}, hooks: Pick<AdapterTestDb, "connect" | "disconnect"> = {}): AdapterTestDb {
  const t = { ...defaultTableNames, ...tables }
  const read = async <T>(map: (row: Row) => T, sql: string, ...params: unknown[]) => {
    const { rows } = await pool.query<Row>(sql, params)
    return rows[0] ? map(rows[0]) : null
  }
  return {
    ...hooks,
    user: (id) => read(toUser, `SELECT * FROM "${t.users}" WHERE "id" = $1`, id),
    account: ({ provider, providerAccountId }) =>
      read(toAccount, `SELECT * FROM "${t.accounts}" WHERE "provider" = $1 AND "providerAccountId" = $2`, provider, providerAccountId),
    session: (token) => read(toSession, `SELECT * FROM "${t.sessions}" WHERE "sessionToken" = $1`, token),
    verificationToken: ({ identifier, token }) =>
      read(toVerificationToken, `SELECT * FROM "${t.verificationTokens}" WHERE "identifier" = $1 AND "token" = $2`, identifier, token),
    authenticator: (id) => read(toAuthenticator, `SELECT * FROM "${t.authenticators}" WHERE "credentialID" = $1`, id),
    password: (userId) => read(toPassword, `SELECT * FROM "${t.passwords}" WHERE "userId" = $1`, userId),
    counter: (key) => read(toCounter, `SELECT * FROM "${t.counters}" WHERE "key" = $1`, key),
    twoFactor: (userId) => read(toTwoFactor, `SELECT * FROM "${t.twoFactors}" WHERE "userId" = $1`, userId),
    recoveryCodes: async (userId) =>
      (await pool.query<{ hash: string }>(`SELECT "hash" FROM "${t.recoveryCodes}" WHERE "userId" = $1`, [userId])).rows.map((r) => r.hash),
    signingKey: (id) => read(toSigningKey, `SELECT * FROM "${t.signingKeys}" WHERE "id" = $1`, id),
  }
}
