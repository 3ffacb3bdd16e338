/**
 * The provider: a Sesame app ("Company accounts") whose users sign in with email and password, and
 * which is an OAuth 2.1 / OpenID Connect provider for three other programs, through
 * `@sesame/oauth-provider`:
 *
 * - the Notes app (client-app.mjs): a server-side app, a confidential client;
 * - the Notes CLI (cli.mjs): a command-line tool, public, signing in with the device flow;
 * - the Notes agent (agent.mjs): an MCP client on the user's machine, public and native, its
 *   redirect URI a loopback address; its tokens are for the Notes MCP server (mcp-server.mjs).
 *
 * Its issuer is `http://127.0.0.1:4100/auth/oauth` (PROVIDER_PORT): on a loopback host Sesame
 * takes the origin of the request, so no AUTH_URL is needed. In production set
 * AUTH_URL=https://accounts.example.com and the issuer is https://accounts.example.com/auth/oauth.
 *
 * Users, sessions, and the provider's grants, codes, tokens and keys are in one SQLite file
 * (DATABASE_FILE, default .data/provider.db), so a token survives a restart.
 *
 *   node provider.mjs          (npm start runs it with the other parts)
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import { dirname, join } from "node:path"
import Database from "better-sqlite3"
import SqliteAdapter, { migrate } from "@sesame/adapter-sqlite"
import { Auth, modelsOf } from "@sesame/core"
import { toNodeHandler } from "@sesame/core/node"
import Credentials from "@sesame/core/providers/credentials"
import { oauthProvider } from "@sesame/oauth-provider"
import { agentClientId, agentRedirectUri, cliClientId, demoPassword, demoUsers, escapeHtml, issuer, mcpUrl, notesClient, page, providerOrigin, providerPort, stopOnSignals } from "./settings.mjs"

const file = process.env.DATABASE_FILE ?? join(import.meta.dirname, ".data", "provider.db")
mkdirSync(dirname(file), { recursive: true })
const database = new Database(file)
// Sesame's own tables (made by the adapter on first use).
const adapter = SqliteAdapter(database)

const plugins = [
  oauthProvider({
    clients: [
      { clientId: notesClient.id, name: "Notes", clientSecret: notesClient.secret, redirectUris: [notesClient.redirectUri] },
      { clientId: cliClientId, name: "Notes CLI", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"] },
      { clientId: agentClientId, name: "Notes agent", applicationType: "native", redirectUris: [agentRedirectUri] },
    ],
    // The APIs tokens are made for: a token names one, and that API refuses a token made for another.
    resources: { [mcpUrl]: { scopes: ["notes:read"] } },
  }),
]
// The module's tables (grants, codes, tokens, consents, keys), made or completed from its models
// before the first request; `sesame migrate` does the same for a real deployment.
await migrate(database, { models: modelsOf({ plugins }) })

// The demo accounts, stored once: the authorization server finds its users through the adapter.
for (const user of demoUsers) {
  if (!(await adapter.getUserByEmail(user.email))) await adapter.createUser({ ...user, emailVerified: new Date() })
}

/** Compares digests, so that the time taken says nothing about how much of the value matched. */
const same = (given, expected) => timingSafeEqual(createHash("sha256").update(String(given ?? "")).digest(), createHash("sha256").update(expected).digest())

/** @type {import("@sesame/core").AuthConfig} */
const config = {
  // Unset in development: Sesame keeps a development secret in node_modules/.cache/sesame, for
  // loopback hosts only. Set AUTH_SECRET in production: it also seals the provider's keys.
  secret: process.env.AUTH_SECRET,
  adapter,
  session: { strategy: "database" },
  providers: [
    Credentials({
      name: "email and password",
      // Only the users the app stored (the demo accounts above) sign in.
      createUser: false,
      credentials: {
        email: { label: "Email", type: "email", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      async authorize({ email, password }) {
        const user = await adapter.getUserByEmail(String(email ?? "").trim().toLowerCase())
        // The password is compared even for an unknown address: both take as long.
        const passwordMatches = same(password, demoPassword)
        return user && passwordMatches ? user : null
      },
    }),
  ],
  plugins,
}

/** The signed-in user of a request, through Sesame's own session endpoint; null when signed out. */
async function userOf(req) {
  const response = await Auth(new Request(`${providerOrigin}/auth/session`, { headers: { cookie: req.headers.cookie ?? "" } }), config)
  return ((await response.json()) ?? {}).user ?? null
}

async function home(req, res) {
  const user = await userOf(req)
  const body = user
    ? `<p data-testid="status">Signed in as <strong>${escapeHtml(user.name)}</strong> (${escapeHtml(user.email)}).</p>
<ul>
  <li><a href="/auth/oauth/consents">Apps you allowed</a>: Notes, the Notes CLI, the Notes agent, once you allow them</li>
  <li><a href="/auth/signout">Sign out</a></li>
</ul>`
    : `<p data-testid="status">Not signed in.</p>
<p>Demo accounts: <code>demo@example.com</code> or <code>grace@example.com</code>, password <code>${escapeHtml(demoPassword)}</code>.</p>
<p><a href="/auth/signin?callbackUrl=%2F">Sign in</a></p>`
  const html = page(
    "Company accounts",
    `${body}
<p>This app is an OpenID Connect provider. Its issuer is <code>${escapeHtml(issuer)}</code>
(<a href="/auth/oauth/.well-known/openid-configuration">discovery document</a>).</p>`,
  )
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html)
}

const auth = toNodeHandler(config)

const server = createServer(async (req, res) => {
  try {
    // One name for the provider: on `localhost` its issuer (and its cookies) would be another's.
    if (req.headers.host !== `127.0.0.1:${providerPort}`) {
      res.writeHead(308, { location: `${providerOrigin}${req.url}` }).end()
      return
    }
    const path = new URL(req.url ?? "/", providerOrigin).pathname
    // Sesame under /auth: sign-in, sessions, and the authorization server under /auth/oauth.
    if (path.startsWith("/auth/")) return await auth(req, res)
    if (path === "/" && req.method === "GET") return await home(req, res)
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found")
  } catch (error) {
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" })
    res.end("Internal error")
  }
})

server.listen(providerPort, "127.0.0.1", () => {
  console.log(`Company accounts (the provider): ${providerOrigin}, issuer ${issuer}`)
})
stopOnSignals(server, () => database.close())
