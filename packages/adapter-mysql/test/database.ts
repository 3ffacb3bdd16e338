/**
 * A MariaDB/MySQL database of its own for each test file, on the server of this machine
 * (127.0.0.1:3306, user root without a password; `SESAME_TEST_MYSQL_URL` to use another), so that
 * concurrent runs and files never see each other's rows. `npm test` starts the server when it is
 * down.
 */
import mysql from "mysql2/promise"

export const serverUrl = process.env.SESAME_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test"

export interface TestDatabase {
  name: string
  /** A connection URL for the database (what `sesame migrate --url` takes). */
  url: string
  /** A new pool on the database. */
  pool(config?: mysql.PoolOptions): mysql.Pool
  /** Creates the database. */
  create(): Promise<void>
  /** Ends the pools made by `pool` and drops the database. */
  drop(): Promise<void>
}

/** Runs one statement on a connection of its own, outside any test database. */
export async function admin(sql: string, params: (string | number)[] = []): Promise<unknown> {
  const connection = await mysql.createConnection(serverUrl)
  try {
    const [result] = await connection.query(sql, params)
    return result
  } finally {
    await connection.end()
  }
}

export function testDatabase(label: string): TestDatabase {
  const name = `sesame_${label}_${crypto.randomUUID().slice(0, 8)}`
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const pools: mysql.Pool[] = []
  return {
    name,
    url: url.href,
    pool(config = {}) {
      const pool = mysql.createPool({ uri: url.href, connectionLimit: 10, ...config })
      pools.push(pool)
      return pool
    },
    create: async () => {
      await admin(`CREATE DATABASE \`${name}\``)
    },
    async drop() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})))
      await admin(`DROP DATABASE IF EXISTS \`${name}\``)
    },
  }
}
