/**
 * Where each part of the example runs, and the clients the provider knows: read by all of them, so
 * that the provider registers exactly the redirect URI the Notes app uses, the MCP server names
 * the issuer the provider has, and so on.
 *
 * | part            | address                          | variable          |
 * |-----------------|----------------------------------|-------------------|
 * | provider.mjs    | http://127.0.0.1:4100            | `PROVIDER_PORT`   |
 * | client-app.mjs  | http://localhost:4200            | `CLIENT_APP_PORT` |
 * | mcp-server.mjs  | http://127.0.0.1:4300/mcp        | `MCP_PORT`        |
 *
 * The provider and the Notes app are on two host names on purpose: a browser keeps cookies by host,
 * not by port, so two Sesame apps on `127.0.0.1` would overwrite each other's session cookies.
 * Two real sites (accounts.example.com, notes.example.com) never meet this.
 */

function port(name, fallback) {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number, not ${process.env[name]}`)
  return value
}

export const providerPort = port("PROVIDER_PORT", 4100)
export const clientAppPort = port("CLIENT_APP_PORT", 4200)
export const mcpPort = port("MCP_PORT", 4300)

/** The provider app. On a loopback host its issuer needs no AUTH_URL: `<origin>/auth/oauth`. */
export const providerOrigin = `http://127.0.0.1:${providerPort}`
export const issuer = `${providerOrigin}/auth/oauth`

/** The Notes app, a second Sesame app that signs its users in through the provider. */
export const clientAppOrigin = `http://localhost:${clientAppPort}`

/** The MCP server: the resource its tokens are made for, named exactly so by clients (RFC 8707). */
export const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`

/** The accounts of the provider app; they all sign in with `demoPassword`. */
export const demoPassword = process.env.DEMO_PASSWORD ?? "sesame-demo"
export const demoUsers = [
  { id: "demo-user", email: "demo@example.com", name: "Demo User" },
  { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
]

/**
 * The Notes app: a server-side app, so a confidential client with a secret. A fixed one keeps the
 * example runnable as it is; a real deployment puts a random one (`openssl rand -base64 32`) in
 * both apps' environment.
 */
export const notesClient = {
  id: "notes",
  secret: process.env.NOTES_CLIENT_SECRET ?? "notes-example-client-secret-do-not-use-in-production",
  redirectUri: `${clientAppOrigin}/auth/callback/company`,
}

/** The command-line tool: public (it cannot keep a secret), signing in with the device flow. */
export const cliClientId = "notes-cli"

/**
 * The MCP client (agent.mjs): public and native, its redirect URI a loopback address. The port is
 * left out of the registered URI because a native app listens on whatever port is free: the
 * provider accepts any port on a loopback redirect URI of a native client (RFC 8252 §7.3).
 */
export const agentClientId = "notes-agent"
export const agentRedirectUri = "http://127.0.0.1/callback"

export const escapeHtml = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A small page: the example's apps share this look. */
export function page(title, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
  code { background: #f2f2f2; padding: 0 0.25rem; border-radius: 4px; }
  button { font: inherit; padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid #1f2328; background: #1f2328; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1f2328; }
  ul { padding-left: 1.25rem; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`
}

/** Stops `server` and exits on Ctrl-C (SIGINT) or SIGTERM; `cleanup` runs once the server is closed. */
export function stopOnSignals(server, cleanup = () => {}) {
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    server.close(() => {
      cleanup()
      process.exit(0)
    })
    // Keep-alive connections (a browser's) would hold `close` back.
    server.closeAllConnections()
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}
