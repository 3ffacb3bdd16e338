/**
 * MCP authorization end to end: an MCP server guarded by `@sesame/oauth-provider/mcp`, and the
 * MCP TypeScript SDK's own client, which meets the 401, reads the protected resource's metadata
 * (RFC 9728), discovers the Sesame authorization server, sends the user to sign in and consent,
 * exchanges the code with PKCE for a token bound to the MCP server (RFC 8707), and calls a tool.
 * Beside it, the guard's refusals: no token, a token for another resource, a missing scope.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { protectedResource, type ProtectedResource } from "@sesame/oauth-provider/mcp"
import { freePort } from "@sesame/testing"
import * as client from "openid-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultOptions, startWorld, type World } from "./world.js"

const agentRedirect = "http://127.0.0.1:8799/callback"
let world: World
let mcp: Server
let mcpUrl: string
let guard: ProtectedResource

function webRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers })
}

beforeAll(async () => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  mcpUrl = `${origin}/mcp`
  world = await startWorld({
    ...defaultOptions,
    clients: [...defaultOptions.clients!, { clientId: "agent", name: "Research agent", redirectUris: [agentRedirect], applicationType: "native" }],
    resources: { ...defaultOptions.resources, [mcpUrl]: { scopes: ["tools:read"] } },
  })
  guard = protectedResource({ resource: mcpUrl, authorizationServer: world.issuer, scopes: ["tools:read"], name: "Notes MCP server" })
  mcp = createServer(async (req, res) => {
    if (req.url === guard.metadataPath) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(guard.metadata()))
      return
    }
    const access = await guard.verify(webRequest(req, origin), ["tools:read"])
    if (!access.ok) {
      res.writeHead(access.response.status, Object.fromEntries(access.response.headers)).end(await access.response.text())
      return
    }
    const server = new McpServer({ name: "notes", version: "1.0.0" })
    server.registerTool("whoami", { description: "Who the token speaks for" }, async () => ({ content: [{ type: "text", text: `${access.subject} via ${access.clientId}` }] }))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on("close", () => void transport.close())
    await server.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => mcp.listen(port, "127.0.0.1", resolve))
  expect((mcp.address() as AddressInfo).port).toBe(port)
})
afterAll(async () => {
  mcp.closeAllConnections()
  await new Promise((resolve) => mcp.close(resolve))
  await world.close()
})

/** The MCP SDK's client side of OAuth, with a pre-registered public client (dynamic registration is off). */
class AgentAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined
  private saved: OAuthTokens | undefined
  private verifier = ""
  get redirectUrl() {
    return agentRedirect
  }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [agentRedirect], client_name: "Research agent", token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }
  }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: "agent" }
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

describe("an MCP server guarded by Sesame", () => {
  it("the MCP SDK's client signs the user in through Sesame and calls a tool with a token for that server", async () => {
    const user = await world.user("agent-owner@example.com")
    const auth = new AgentAuth()
    const first = new Client({ name: "agent", version: "1.0.0" })
    await expect(first.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: auth }))).rejects.toBeInstanceOf(UnauthorizedError)
    const authorization = auth.authorizationUrl!
    expect(authorization.href.startsWith(`${world.issuer}/auth?`)).toBe(true)
    expect(authorization.searchParams.get("resource")).toBe(mcpUrl)
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")

    let step = await user.follow(authorization.href, agentRedirect)
    expect(step.html).toContain("Allow Research agent?")
    step = await user.decide(step.html!, "allow", agentRedirect)
    const code = new URL(step.url).searchParams.get("code")!
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: auth })
    await transport.finishAuth(code)

    const second = new Client({ name: "agent", version: "1.0.0" })
    await second.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: auth }))
    const result = await second.callTool({ name: "whoami", arguments: {} })
    expect(result.content).toEqual([{ type: "text", text: `${user.id} via agent` }])
    await second.close()
  })

  it("answers 401 with the metadata's URL without a token, and publishes the metadata", async () => {
    const response = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(response.status).toBe(401)
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${guard.metadataUrl}"`)
    const metadata = await (await fetch(guard.metadataUrl)).json()
    expect(metadata).toEqual({ resource: mcpUrl, authorization_servers: [world.issuer], bearer_methods_supported: ["header"], scopes_supported: ["tools:read"], resource_name: "Notes MCP server" })
  })

  it("refuses a token the same server made for another resource, a forged one, and one without the scope", async () => {
    const config = await client.discovery(new URL(world.issuer), "worker", "worker-client-secret-0123456789abcdefghij", undefined, { execute: [client.allowInsecureRequests] })
    const other = await client.clientCredentialsGrant(config, { scope: "tools:read", resource: "https://mcp.example/mcp" })
    const call = (token: string) => guard.verify(new Request(mcpUrl, { headers: { authorization: `Bearer ${token}` } }), ["tools:read"])
    const refused = await call(other.access_token)
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.response.status).toBe(401)
      expect(refused.response.headers.get("www-authenticate")).toContain('error="invalid_token"')
    }
    // The same token with its signature broken.
    const parts = other.access_token.split(".")
    const forged = [parts[0], Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(parts[1]!, "base64url").toString()), aud: mcpUrl })).toString("base64url"), parts[2]].join(".")
    expect((await call(forged)).ok).toBe(false)
    // A token for this resource, but the scope this call needs is not among those it was given.
    const mine = await client.clientCredentialsGrant(config, { scope: "tools:read", resource: mcpUrl })
    const ok = await guard.verify(new Request(mcpUrl, { headers: { authorization: `Bearer ${mine.access_token}` } }), ["tools:read"])
    expect(ok.ok).toBe(true)
    const short = await guard.verify(new Request(mcpUrl, { headers: { authorization: `Bearer ${mine.access_token}` } }), ["tools:write"])
    expect(short.ok).toBe(false)
    if (!short.ok) {
      expect(short.response.status).toBe(403)
      expect(short.response.headers.get("www-authenticate")).toContain('error="insufficient_scope"')
    }
  })
})
