/**
 * One instance of an app that runs as several: each instance is this process, on its own port, and
 * all of them share users and sessions through one database, with database sessions. Two ways in:
 *
 * - Password accounts (provider "password"): sign-up with address confirmation, sign-in, forgotten
 *   password. Their users, password hashes, one-time links and failure counts all live in the
 *   shared store, so a link sent by one instance works on another, and guesses spread over the
 *   instances are throttled together. Its emails are printed on stdout, one line each:
 *   `mail {"kind":…,"to":…,"url":…}` (kind: verify-email, reset-password, account-exists or
 *   no-account). The URL is a bearer credential: that is for trying the example (and for its tests,
 *   which read the links there); a deployment sends real mail, with `smtpSender` from
 *   @sesame/core/providers/nodemailer as `sendEmail`.
 * - Credentials sign-in (any email, the password "open sesame"), throttled the same way.
 *
 *   npx sesame migrate --adapter pg --url "$DATABASE_URL"     (once per deployment)
 *   DATABASE_URL=postgres://… AUTH_SECRET=… PORT=3001 node examples/shared-db/server.mjs
 *   DATABASE_URL=postgres://… AUTH_SECRET=… PORT=3002 node examples/shared-db/server.mjs
 *
 * With REDIS_URL instead of DATABASE_URL (and REDIS_PREFIX for the keys), the instances share a
 * Redis server through @sesame/adapter-redis. Every instance must have the same AUTH_SECRET.
 * With AUTH_IDP_ISSUER (and AUTH_IDP_ID, AUTH_IDP_SECRET) an OpenID provider "idp" is offered too.
 * PORT=0 picks a free port; the line "listening on <port>" says which.
 */
import { createServer } from "node:http"
import { Auth } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Password from "@sesame/core/providers/password"
// The Node http glue of the basic example: web Request in, web Response out.
import { sendWebResponse, toWebRequest } from "../basic/node-http.mjs"

const secret = process.env.AUTH_SECRET
if (!secret) throw new Error("Set AUTH_SECRET, the same for every instance.")

/** The adapter for DATABASE_URL (PostgreSQL) or REDIS_URL. */
async function adapter() {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import("pg")
    const { default: PostgresAdapter } = await import("@sesame/adapter-pg")
    // Fail a request quickly when the database cannot be reached rather than hold it.
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 3_000, query_timeout: 10_000 })
    return PostgresAdapter(pool)
  }
  if (process.env.REDIS_URL) {
    const { default: Redis } = await import("ioredis")
    const { default: RedisAdapter } = await import("@sesame/adapter-redis")
    return RedisAdapter(new Redis(process.env.REDIS_URL), { prefix: process.env.REDIS_PREFIX ?? "sesame:" })
  }
  throw new Error("Set DATABASE_URL (PostgreSQL) or REDIS_URL.")
}

export const config = {
  secret,
  trustHost: true,
  adapter: await adapter(),
  session: { strategy: "database" },
  providers: [
    // Hashes with Argon2id: needs the @node-rs/argon2 package.
    Password({ sendEmail: ({ kind, to, url }) => void console.log(`mail ${JSON.stringify({ kind, to, url })}`) }),
    Credentials({
      createUser: true,
      throttle: true,
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (password === "open sesame" && email ? { email: String(email).trim().toLowerCase() } : null),
    }),
    // Client id, secret and issuer come from AUTH_IDP_ID, AUTH_IDP_SECRET and AUTH_IDP_ISSUER.
    ...(process.env.AUTH_IDP_ISSUER ? [{ id: "idp", name: "Dev IdP", type: "oidc" }] : []),
  ],
}

const server = createServer(async (req, res) => {
  try {
    const request = toWebRequest(req, `http://${req.headers.host ?? "localhost"}`)
    const url = new URL(request.url)
    const response = url.pathname.startsWith("/auth/") ? await Auth(request, config) : new Response("Not found", { status: 404 })
    await sendWebResponse(res, response)
  } catch (error) {
    console.error(error)
    res.writeHead(500).end("Internal error")
  }
})

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`)
})

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
