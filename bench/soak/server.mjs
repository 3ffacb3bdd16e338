/**
 * One app instance of the soak run (bench/soak/run.mjs starts several on one PostgreSQL schema, or
 * one Redis key prefix). Database sessions; two ways in: email links (printed on stdout as
 * `mail {"to":…,"url":…}`, where the driver reads them, so that a link sent by one instance can be
 * opened on another) and credentials (a known address, the password "open sesame"). Besides
 * Sesame's routes under /auth:
 *
 *   GET  /app/sessions       the signed-in user's sessions (listSessions)
 *   POST /app/revoke         {"id": …}: revokes one of them (revokeSession)
 *   POST /app/revoke-others  ends every session of the user but this one (revokeOtherSessions)
 *   GET  /app/memory         heapUsed, the part of it that is compiled code and bytecode, and RSS,
 *                            after a full GC (run node with --expose-gc)
 *
 *   DATABASE_URL=postgres://… AUTH_SECRET=… PORT=0 node --expose-gc bench/soak/server.mjs [--handler web|node]
 *   ADAPTER=redis REDIS_URL=redis://127.0.0.1:6379 REDIS_PREFIX=… AUTH_SECRET=… PORT=0 node --expose-gc bench/soak/server.mjs
 *
 * `--handler web` (the default) serves /auth through `Auth()` and a node:http bridge; `--handler
 * node` through `toNodeHandler` from @sesame/core/node. The /app routes build a web Request either
 * way, as an app calling Sesame's server functions does; when one of those throws Sesame's
 * `StorageUnavailable` (the storage cannot be reached), the route answers 503 with its
 * `Retry-After`, as an Express error handler does with the error's `status` and `headers`.
 * "listening on <port>" says where it is.
 */
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { getHeapCodeStatistics } from "node:v8"
import PostgresAdapter from "@sesame/adapter-pg"
import { Auth, listSessions, revokeOtherSessions, revokeSession } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Email from "@sesame/core/providers/email"
import pg from "pg"
// The node:http bridge of the basic example: web Request in, web Response out.
import { sendWebResponse, toWebRequest } from "../../examples/basic/node-http.mjs"

const { values: args } = parseArgs({ options: { handler: { type: "string", default: "web" } } })
if (args.handler !== "web" && args.handler !== "node") throw new Error(`--handler is web or node, not ${args.handler}`)
const { ADAPTER: adapterName = "pg", DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix, AUTH_SECRET: secret } = process.env
if (!secret) throw new Error("Set AUTH_SECRET (the same for every instance).")

/** The adapter on PostgreSQL (DATABASE_URL), and how to close its pool. */
function postgres() {
  if (!databaseUrl) throw new Error("Set DATABASE_URL (the same for every instance).")
  // Fail a request quickly when the database cannot be reached rather than hold it.
  const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: 3_000, query_timeout: 10_000 })
  return { adapter: PostgresAdapter(pool), close: () => pool.end() }
}

/** The adapter on Redis (REDIS_URL, keys under REDIS_PREFIX), and how to close its client. */
async function redis() {
  if (!redisUrl || !redisPrefix) throw new Error("Set REDIS_URL and REDIS_PREFIX (the same for every instance).")
  // Imported here: a run on PostgreSQL needs neither package.
  const [{ Redis }, { default: RedisAdapter }] = await Promise.all([import("ioredis"), import("@sesame/adapter-redis")])
  // The client options packages/adapter-redis/README.md recommends ("When Redis goes away"):
  // ioredis's defaults hide an outage (a command waits in the offline queue for up to 20
  // reconnections, over a minute), these answer it within a bound with a 503 and serve the first
  // request after Redis is back.
  const client = new Redis(redisUrl, {
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 50, 200),
    connectTimeout: 2_000,
    commandTimeout: 1_000,
  })
  return { adapter: RedisAdapter(client, { prefix: redisPrefix }), close: () => client.quit() }
}

if (adapterName !== "pg" && adapterName !== "redis") throw new Error(`ADAPTER is pg or redis, not ${adapterName}`)
const { adapter, close } = adapterName === "redis" ? await redis() : postgres()

const config = {
  secret,
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  providers: [
    Email({
      sendVerificationRequest: ({ identifier, url }) => void console.log(`mail ${JSON.stringify({ to: identifier, url })}`),
      // The run asks for hundreds of links per address, all from 127.0.0.1: the limits would
      // (rightly) hold most of them back.
      rateLimit: false,
    }),
    // No `createUser`: the run creates its users beforehand, with confirmed addresses.
    Credentials({
      throttle: true,
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (password === "open sesame" && email ? { email: String(email).trim().toLowerCase() } : null),
    }),
  ],
  callbacks: {
    // An update (POST /auth/session with `data: { name }`) renames the user in the shared store, so
    // that every instance shows it from then on.
    async session({ session, user, trigger, newSession }) {
      if (trigger !== "update" || typeof newSession?.name !== "string") return session
      await adapter.updateUser({ id: user.id, name: newSession.name })
      return { ...session, user: { ...session.user, name: newSession.name } }
    },
  },
}

async function nodeAuthHandler() {
  try {
    const { toNodeHandler } = await import("@sesame/core/node")
    return toNodeHandler(config)
  } catch (error) {
    console.error(`--handler node: @sesame/core/node cannot be loaded in this build (${error.message})`)
    process.exit(2)
  }
}
const nodeAuth = args.handler === "node" ? await nodeAuthHandler() : null

const json = (body, status = 200, headers = {}) => Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } })

/** Whether `error` is Sesame's StorageUnavailable (by type: the app's copy of the class need not be the core's). */
const storageUnavailable = (error) => error?.type === "StorageUnavailable"

/**
 * The /app routes. A storage outage is a 503 with Sesame's Retry-After, not a 500: Sesame logged it
 * already (once per outage), so the app does not log it again.
 */
async function app(request) {
  try {
    return await appRoute(request)
  } catch (error) {
    if (!storageUnavailable(error)) throw error
    return json({ error: "StorageUnavailable", message: error.message }, error.status ?? 503, error.headers ?? { "retry-after": "3" })
  }
}

/** The /app routes' work. Their POSTs take JSON only: a cross-site form cannot send it without a CORS preflight. */
async function appRoute(request) {
  const { pathname } = new URL(request.url)
  const post = request.method === "POST"
  if (post && !request.headers.get("content-type")?.startsWith("application/json")) return json({ error: "JSON only" }, 415)
  if (pathname === "/app/sessions" && !post) {
    const sessions = await listSessions(request, config)
    return sessions ? json(sessions) : json(null, 401)
  }
  if (pathname === "/app/revoke" && post) {
    const { id } = await request.json()
    return json({ revoked: await revokeSession(request, config, String(id)) })
  }
  if (pathname === "/app/revoke-others" && post) return json({ ended: await revokeOtherSessions(request, config) })
  if (pathname === "/app/memory" && !post) {
    globalThis.gc?.()
    const { heapUsed, rss } = process.memoryUsage()
    const { code_and_metadata_size: code, bytecode_and_metadata_size: bytecode } = getHeapCodeStatistics()
    return json({ heapUsed, code: code + bytecode, rss, gc: typeof globalThis.gc === "function" })
  }
  return json({ error: "Not found" }, 404)
}

const server = createServer(async (req, res) => {
  try {
    if (nodeAuth && req.url?.startsWith("/auth/")) return await nodeAuth(req, res)
    const request = toWebRequest(req, `http://${req.headers.host ?? "localhost"}`)
    const response = req.url?.startsWith("/auth/") ? await Auth(request, config) : await app(request)
    await sendWebResponse(res, response)
  } catch (error) {
    console.error(error)
    if (!res.headersSent) res.writeHead(500)
    res.end()
  }
})

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`listening on ${server.address().port}`))

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => close().finally(() => process.exit(0)))
    server.closeAllConnections()
  })
}
