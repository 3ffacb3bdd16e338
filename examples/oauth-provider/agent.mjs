/**
 * The Notes agent: an MCP client (the MCP TypeScript SDK's) that calls the Notes MCP server's tool
 * `list-notes` for its user, as an AI agent on the user's machine would.
 *
 * The first call meets the server's `401`; the SDK reads the server's metadata, finds the provider
 * app, and asks this program to send the user to the provider's authorization URL (printed here:
 * open it in the browser where you use the provider). There the user signs in and allows the agent;
 * the browser comes back to this program's own loopback address with a code, which the SDK
 * exchanges (PKCE) for a token made for the MCP server alone. Then it calls the tool.
 *
 *   npm run agent              (with npm start running)
 *
 * Its tokens are kept in memory: each run asks again (the provider remembers what you allowed, so
 * the second time there is nothing to click while you are signed in there).
 */
import { randomBytes } from "node:crypto"
import { once } from "node:events"
import { createServer } from "node:http"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { agentClientId, escapeHtml, issuer, mcpUrl, page } from "./settings.mjs"

// Where the browser brings the code back: a port of this machine that is free now (the provider
// takes any port on the agent's registered loopback URI, http://127.0.0.1/callback).
const callbackServer = createServer()
callbackServer.listen(0, "127.0.0.1")
await once(callbackServer, "listening")
const redirectUrl = `http://127.0.0.1:${callbackServer.address().port}/callback`

const state = randomBytes(16).toString("base64url")
/** The code the browser brings back, once. */
const codeArrives = new Promise((resolve, reject) => {
  callbackServer.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", redirectUrl)
    if (url.pathname !== "/callback") return void res.writeHead(404).end()
    // Only the answer to this program's own request: another page cannot send a code of its choice.
    const done = url.searchParams.get("state") === state
    const error = done ? url.searchParams.get("error") : "the answer is not to this request"
    const code = url.searchParams.get("code")
    res.writeHead(error || !code ? 400 : 200, { "content-type": "text/html; charset=utf-8", connection: "close" })
    res.end(page("Notes agent", error || !code ? `<p role="alert">The agent was not allowed: ${escapeHtml(error ?? "no code")}.</p>` : "<p>The agent is allowed. You can close this window and go back to it.</p>"))
    if (error || !code) reject(new Error(`The agent was not allowed: ${error ?? "no code"}`))
    else resolve(code)
  })
})

/** The SDK's OAuth client side: what it knows of this client, and where it keeps what it gets. */
const authProvider = {
  saved: undefined,
  verifier: "",
  get redirectUrl() {
    return redirectUrl
  },
  get clientMetadata() {
    return { client_name: "Notes agent", redirect_uris: [redirectUrl], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }
  },
  // Registered with the provider beforehand (provider.mjs): public, so no secret.
  clientInformation: () => ({ client_id: agentClientId, issuer }),
  state: () => state,
  tokens() {
    return this.saved
  },
  saveTokens(tokens) {
    this.saved = tokens
  },
  redirectToAuthorization(url) {
    console.log(`To let the agent read your notes, open:\n${url.href}`)
  },
  saveCodeVerifier(verifier) {
    this.verifier = verifier
  },
  codeVerifier() {
    return this.verifier
  },
}

const connect = async () => {
  const client = new Client({ name: "notes-agent", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider }))
  return client
}

let client
try {
  client = await connect()
} catch (error) {
  if (!(error instanceof UnauthorizedError)) throw error
  // Sent to the provider (the URL above): wait for the browser to come back with the code.
  const code = await codeArrives
  await new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider }).finishAuth(code)
  client = await connect()
} finally {
  callbackServer.close()
}

const result = await client.callTool({ name: "list-notes", arguments: {} })
console.log("Your notes, from the Notes MCP server:")
for (const item of result.content) if (item.type === "text") console.log(item.text)
await client.close()
