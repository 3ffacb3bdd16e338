/**
 * `GET session` with database sessions on a SQLite file: @sesame/core against @auth/core, in one
 * run. Both use the same adapter code (@sesame/adapter-sqlite satisfies Auth.js's adapter contract)
 * on separate files with the same data, so the difference is the libraries' own work. Sesame hashes
 * the cookie's token before the lookup (SHA-256); Auth.js looks the raw token up.
 *
 *   npm run bench            (builds first)
 *   node bench/session-database.mjs [--quick]
 */
import { createHash } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Auth } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { Auth as AuthJs } from "@auth/core"
import GitHub from "@auth/core/providers/github"
import { compare, options } from "./harness.mjs"

const secret = "benchmark-secret-0123456789-abcdefghijklmnop"
const dir = mkdtempSync(join(tmpdir(), "sesame-bench-"))
const user = { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: null, image: null }
const expires = new Date(Date.now() + 30 * 86_400_000)

const sesameAdapter = SqliteAdapter(join(dir, "sesame.db"))
const authJsAdapter = SqliteAdapter(join(dir, "authjs.db"))
const token = "a-random-session-token-of-the-usual-length-0123"
for (const adapter of [sesameAdapter, authJsAdapter]) await adapter.createUser(user)
await sesameAdapter.createSession({ sessionToken: createHash("sha256").update(token).digest("hex"), userId: user.id, expires })
await authJsAdapter.createSession({ sessionToken: token, userId: user.id, expires })

const sesame = { secret, trustHost: true, basePath: "/auth", adapter: sesameAdapter, providers: [Credentials({ authorize: async () => null })] }
// Auth.js refuses credentials-only with database sessions; an (unused) OAuth provider keeps it valid.
const authjs = { secret, trustHost: true, basePath: "/auth", adapter: authJsAdapter, providers: [GitHub({ clientId: "x", clientSecret: "y" })] }

const url = "http://localhost:3000/auth/session"
for (const [auth, config, cookie] of [
  [Auth, sesame, "sesame.session-token"],
  [AuthJs, authjs, "authjs.session-token"],
]) {
  const body = await (await auth(new Request(url, { headers: { cookie: `${cookie}=${token}` } }), config)).json()
  if (body?.user?.email !== user.email) throw new Error(`unexpected session: ${JSON.stringify(body)}`)
}

const results = await compare(
  "GET session, database session on SQLite (lookup, callbacks; no write within updateAge)",
  [
    { name: "@sesame/core", fn: async () => (await Auth(new Request(url, { headers: { cookie: `sesame.session-token=${token}` } }), sesame)).text() },
    { name: "@auth/core", fn: async () => (await AuthJs(new Request(url, { headers: { cookie: `authjs.session-token=${token}` } }), authjs)).text() },
  ],
  options(),
)
console.log(`\nsummary: database session ${(results[1].us / results[0].us).toFixed(1)}× faster than @auth/core (node ${process.version}, SQLite file)`)
