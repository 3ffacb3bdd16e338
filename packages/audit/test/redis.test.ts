/** The audit log on Redis: no schema to make; the module's rows live under the adapter's prefix. */
import RedisAdapter from "@sesame/adapter-redis"
import { afterAll } from "vitest"
import { connectRedis, dropPrefix, testPrefix } from "../../adapter-redis/test/services.js"
import { auditTests } from "./suite.js"

const prefix = testPrefix()
const client = await connectRedis()
auditTests("Redis (@sesame/adapter-redis)", RedisAdapter(client, { prefix }))

afterAll(async () => {
  await dropPrefix(client, prefix)
  await client.quit()
})
