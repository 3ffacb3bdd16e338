/**
 * The Redis server the tests run against, and a fresh key prefix per test run. When the server is
 * not running, `connectRedis` fails at once with the command that starts it, instead of letting
 * every test time out.
 */
import { Redis, type RedisOptions } from "ioredis"

export const redisAddress = { host: "127.0.0.1", port: 6379 }

export const startRedis = `redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no`

/** A key prefix no other run uses. */
export const testPrefix = () => `sesame-test-${crypto.randomUUID().slice(0, 8)}:`

/** A connected client, or an error naming the command that starts Redis. */
export async function connectRedis(options: RedisOptions = {}): Promise<Redis> {
  const client = new Redis({ ...redisAddress, lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null, ...options })
  // A refused connection rejects `connect()` below; the event would only repeat it on the console.
  client.on("error", () => {})
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    client.disconnect()
    throw new Error(
      `Redis is not reachable on ${redisAddress.host}:${redisAddress.port} (${(error as Error).message}). Start it with:\n  ${startRedis}`,
    )
  }
  return client
}

/** Every key under `prefix`. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const found: string[] = []
  let cursor = "0"
  do {
    const [next, batch] = await client.scan(cursor, "MATCH", `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`, "COUNT", 1000)
    found.push(...batch)
    cursor = next
  } while (cursor !== "0")
  return found.sort()
}

/** Deletes every key under `prefix` (the end of a test run). */
export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  const found = await keysUnder(client, prefix)
  if (found.length > 0) await client.del(...found)
}
