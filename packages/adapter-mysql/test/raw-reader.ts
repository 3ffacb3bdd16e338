/**
 * Raw reads of the MySQL tables for the conformance suite: straight SQL on a pool of the test's
 * own, bypassing the adapter. Dates are read as strings, as the adapter reads them.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { defaultTableNames, type TableNames } from "@sesame/adapter-mysql"
import { toAccount, toAuthenticator, toSession, toUser, toVerificationToken, type Row } from "@sesame/sql-common"
import { toCounter, toPassword, toSigningKey, toTwoFactor } from "../../sql-common/test/shared/built-in-rows.js"
import type mysql from "mysql2/promise"

export function rawReader(pool: mysql.Pool, tables: Partial<TableNames> = {}, hooks: Pick<AdapterTestDb, "connect" | "disconnect"> = {}): AdapterTestDb {
  const t = { ...defaultTableNames, ...tables }
  const read = async <T>(map: (row: Row) => T, sql: string, ...params: string[]) => {
    const [rows] = await pool.query<mysql.RowDataPacket[]>({ sql, dateStrings: true }, params)
    return rows[0] ? map(rows[0]) : null
  }
  return {
    ...hooks,
    user: (id) => read(toUser, `SELECT * FROM \`${t.users}\` WHERE \`id\` = ?`, id),
    account: ({ provider, providerAccountId }) =>
      read(toAccount, `SELECT * FROM \`${t.accounts}\` WHERE \`provider\` = ? AND \`providerAccountId\` = ?`, provider, providerAccountId),
    session: (token) => read(toSession, `SELECT * FROM \`${t.sessions}\` WHERE \`sessionToken\` = ?`, token),
    verificationToken: ({ identifier, token }) =>
      read(toVerificationToken, `SELECT * FROM \`${t.verificationTokens}\` WHERE \`identifier\` = ? AND \`token\` = ?`, identifier, token),
    authenticator: (id) => read(toAuthenticator, `SELECT * FROM \`${t.authenticators}\` WHERE \`credentialID\` = ?`, id),
    password: (userId) => read(toPassword, `SELECT * FROM \`${t.passwords}\` WHERE \`userId\` = ?`, userId),
    counter: (key) => read(toCounter, `SELECT * FROM \`${t.counters}\` WHERE \`key\` = ?`, key),
    twoFactor: (userId) => read(toTwoFactor, `SELECT * FROM \`${t.twoFactors}\` WHERE \`userId\` = ?`, userId),
    async recoveryCodes(userId) {
      const [rows] = await pool.query<mysql.RowDataPacket[]>(`SELECT \`hash\` FROM \`${t.recoveryCodes}\` WHERE \`userId\` = ?`, [userId])
      return rows.map((r) => r.hash as string)
    },
    signingKey: (id) => read(toSigningKey, `SELECT * FROM \`${t.signingKeys}\` WHERE \`id\` = ?`, id),
  }
}
