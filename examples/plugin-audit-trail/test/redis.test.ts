/** The audit trail on Redis: no schema to make; the plugin's rows live under the adapter's prefix. */
import RedisAdapter from "@sesame/adapter-redis"
import { afterAll } from "vitest"
import { connectRedis, dropPrefix, testPrefix } from "../../../packages/adapter-redis/test/services.js"
import { auditTrailTests } from "./suite.js"

const prefix = testPrefix()
const client = await connectRedis()
auditTrailTests("Redis (@sesame/adapter-redis)", RedisAdapter(client, { prefix }))

afterAll(async () => {
  await dropPrefix(client, prefix)
  await client.quit()
})
