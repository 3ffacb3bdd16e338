/**
 * The Notes MCP server: one tool, `list-notes`, that returns the notes of the user an access token
 * speaks for. It trusts the provider app and nothing else, through `protectedResource` of
 * `@sesame/oauth-provider/mcp`:
 *
 * - `GET /.well-known/oauth-protected-resource/mcp`: its metadata (RFC 9728), which names the
 *   provider's issuer as the server to get tokens from;
 * - each call to `/mcp` without a good token: `401` with `WWW-Authenticate: Bearer
 *   resource_metadata="…"`, where MCP clients start signing in;
 * - a good token: a JWT the provider signed for this server alone (`aud`), unexpired, with the
 *   scope `notes:read`. Its subject is the user's id at the provider.
 *
 * Streamable HTTP, stateless: a server and a transport for each request, no MCP session.
 *
 *   node mcp-server.mjs        (npm start runs it with the other parts)
 */
import { createServer } from "node:http"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { protectedResource } from "@sesame/oauth-provider/mcp"
import { issuer, mcpPort, mcpUrl, stopOnSignals } from "./settings.mjs"

const guard = protectedResource({ resource: mcpUrl, authorizationServer: issuer, scopes: ["notes:read"], name: "Notes" })

/** Made-up notes, by the subject of the token (the user's id at the provider). */
const notesBySubject = {
  "demo-user": [
    { title: "Groceries", text: "Oat milk, lemons, coffee." },
    { title: "Ideas", text: "An example that signs in an MCP client." },
  ],
  grace: [{ title: "Talk", text: "Bring a nanosecond: a wire 30 cm long." }],
}

/** The web Request the guard reads: the method, the headers and the URL of a Node.js request. */
function webRequest(req) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
  return new Request(new URL(req.url ?? "/", mcpUrl), { method: req.method, headers })
}

async function handle(req, res) {
  const path = new URL(req.url ?? "/", mcpUrl).pathname
  if (path === guard.metadataPath) {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(guard.metadata()))
    return
  }
  if (path !== new URL(mcpUrl).pathname) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found")
    return
  }
  const access = await guard.verify(webRequest(req), ["notes:read"])
  if (!access.ok) {
    res.writeHead(access.response.status, Object.fromEntries(access.response.headers)).end(await access.response.text())
    return
  }
  const server = new McpServer({ name: "notes", version: "1.0.0" })
  server.registerTool("list-notes", { title: "List my notes", description: "The notes of the signed-in user", annotations: { readOnlyHint: true } }, async () => {
    const notes = notesBySubject[access.subject] ?? []
    const text = notes.length === 0 ? "No notes yet." : notes.map((note) => `${note.title}: ${note.text}`).join("\n")
    return { content: [{ type: "text", text }] }
  })
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
  res.on("close", () => void transport.close())
  await server.connect(transport)
  await transport.handleRequest(req, res)
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" })
    res.end("Internal error")
  })
})

server.listen(mcpPort, "127.0.0.1", () => {
  console.log(`Notes MCP server: ${mcpUrl}, trusting ${issuer}`)
})
stopOnSignals(server)
