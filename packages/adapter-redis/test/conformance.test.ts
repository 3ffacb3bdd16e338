import { runAdapterTests } from "@sesame/adapter-test"
import RedisAdapter from "@sesame/adapter-redis"
import { connectRedis, dropPrefix, testPrefix } from "./services.js"
import { rawReader } from "./raw-reader.js"

const prefix = testPrefix()
const client = await connectRedis()
// A second connection reads what the adapter wrote, as another app instance would.
const reader = await connectRedis()

runAdapterTests({
  name: "RedisAdapter",
  adapter: RedisAdapter(client, { prefix }),
  db: rawReader(reader, prefix, async () => {
    await dropPrefix(reader, prefix)
    await Promise.all([client.quit(), reader.quit()])
  }),
})
