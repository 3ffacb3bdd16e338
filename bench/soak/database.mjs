/**
 * The run's own PostgreSQL schema: created and migrated (with the adapter's `migrate`, what
 * `sesame migrate` runs) before the instances start, dropped with everything in it afterwards, so
 * that runs never see each other's rows or leave any behind.
 */
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import pg from "pg"

/** The server and database the run uses unless told otherwise (the one `npm test` starts). */
export const defaultDatabase = process.env.SESAME_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"

async function once(serverUrl, sql) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Creates and migrates a new schema on `serverUrl`, with a user of confirmed address for each of
 * `emails`; returns its connection URL and how to drop it.
 *
 * Confirmed, because the first email sign-in of an address nobody had proven would take it back
 * from whoever claimed it, ending that user's sessions (Sesame's defence against account
 * pre-hijacking): right, but not what a soak of returning users is about.
 */
export async function createSchema(serverUrl, emails) {
  const name = `sesame_soak_${crypto.randomUUID().slice(0, 8)}`
  await once(serverUrl, `CREATE SCHEMA "${name}"`)
  const drop = () => once(serverUrl, `DROP SCHEMA IF EXISTS "${name}" CASCADE`)
  try {
    const pool = new pg.Pool({ connectionString: serverUrl, options: `-c search_path=${name}`, max: 1 })
    try {
      await migrate(pool)
      const users = PostgresAdapter(pool)
      for (const email of emails) await users.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date(), name: null, image: null })
    } finally {
      await pool.end()
    }
  } catch (error) {
    await drop()
    throw error
  }
  const url = new URL(serverUrl)
  url.searchParams.set("options", `-c search_path=${name}`)
  return { name, url: url.href, drop }
}
