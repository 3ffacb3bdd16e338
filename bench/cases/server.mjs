/**
 * One HTTP case's server, in a fresh process (started by bench/run.mjs, pinned to CPU 0 when
 * `taskset` is there): sets the case up, listens on a free loopback port, and says where and what
 * to ask. Web-standard handlers are served through bench/lib/bridge.mjs. Stops on SIGTERM.
 */
import { createServer } from "node:http"
import { bridge } from "../lib/bridge.mjs"
import { target } from "../lib/cases.mjs"
import { send, spec } from "../lib/protocol.mjs"

const { id, root, before } = spec()
const t = await target(id, { root, before })
if (t.unavailable) {
  await send("ready", { unavailable: t.unavailable })
  process.exit(0)
}
const server = createServer(t.listener ?? bridge(t.handler))
process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
// Bounded like every load test here: a server whose run.mjs is gone (killed, crashed) stops too.
const parent = process.ppid
setInterval(() => process.ppid !== parent && process.exit(0), 1000).unref()
server.listen(0, "127.0.0.1", () => {
  send("ready", { port: server.address().port, path: t.path, headers: t.headers, expect: t.expect })
})
