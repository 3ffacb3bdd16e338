/**
 * A PostgreSQL schema of its own for each test file, on the server of this machine (127.0.0.1:5432,
 * database `test`; `SESAME_TEST_PG_URL` to use another), so that concurrent runs and files never
 * see each other's rows. `npm test` starts the server when it is down.
 */
import pg from "pg"

export const serverUrl = process.env.SESAME_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"

export interface TestSchema {
  name: string
  /** A connection URL whose `search_path` is the schema (what `sesame migrate --url` takes). */
  url: string
  /** A new pool on the schema. */
  pool(config?: pg.PoolConfig): pg.Pool
  /** Creates the schema. */
  create(): Promise<void>
  /** Ends the pools made by `pool` and drops the schema with everything in it. */
  drop(): Promise<void>
}

/** A URL like `url` whose connections use `schema` as their `search_path`. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url)
  u.searchParams.set("options", `-c search_path=${schema}`)
  return u.href
}

export function testSchema(label: string): TestSchema {
  const name = `sesame_${label}_${crypto.randomUUID().slice(0, 8)}`
  const pools: pg.Pool[] = []
  const admin = () => new pg.Client({ connectionString: serverUrl })
  const once = async (sql: string) => {
    const client = admin()
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  return {
    name,
    url: withSearchPath(serverUrl, name),
    pool(config = {}) {
      const pool = new pg.Pool({ connectionString: serverUrl, options: `-c search_path=${name}`, max: 10, ...config })
      pools.push(pool)
      return pool
    },
    create: () => once(`CREATE SCHEMA "${name}"`),
    async drop() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})))
      await once(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)
    },
  }
}
