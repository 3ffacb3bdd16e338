/**
 * The run's own Redis key prefix (`--adapter redis`), what database.mjs's schema is to PostgreSQL:
 * the virtual users' accounts are created under it (through the adapter, with confirmed addresses,
 * for the reason database.mjs gives) before the instances start, and every key under it is deleted
 * afterwards, so that runs never see each other's keys or leave any behind.
 */
import RedisAdapter from "@sesame/adapter-redis"
import { Redis } from "ioredis"

/** The Redis server the run uses unless told otherwise (the one `npm test` starts). */
export const defaultRedis = process.env.SESAME_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

/** A connected client that gives up at once when the server is not there (the run says so and stops). */
export async function connect(url) {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: () => null })
  client.on("error", () => {})
  try {
    await client.connect()
  } catch (error) {
    client.disconnect()
    throw new Error(`Redis is not reachable at ${url} (${error.message})`)
  }
  return client
}

/** Deletes every key under `prefix`, a batch of SCAN at a time. */
async function dropKeys(url, prefix) {
  const client = await connect(url)
  try {
    let cursor = "0"
    do {
      const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000)
      if (found.length) await client.unlink(...found)
      cursor = next
    } while (cursor !== "0")
  } finally {
    client.disconnect()
  }
}

/**
 * Creates a new key prefix on `url` with a user of confirmed address for each of `emails`; returns
 * the instances' environment (server.mjs) and how to delete every key under it.
 */
export async function createPrefix(url, emails) {
  // Only letters, digits and dashes: nothing SCAN's MATCH would read as a pattern.
  const prefix = `sesame-soak-${crypto.randomUUID().slice(0, 8)}:`
  const drop = () => dropKeys(url, prefix)
  const client = await connect(url)
  try {
    const users = RedisAdapter(client, { prefix })
    for (const email of emails) await users.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date(), name: null, image: null })
  } catch (error) {
    await drop()
    throw error
  } finally {
    client.disconnect()
  }
  return { name: prefix, env: { ADAPTER: "redis", REDIS_URL: url, REDIS_PREFIX: prefix }, drop }
}
