/**
 * docs/features/oauth-provider.md: its examples, run as written, on real HTTP servers. The hosts
 * they name (example.com: the provider app; reports.example.com: the app that signs in through
 * it; mcp.example.com: the MCP server) are this machine's servers: `fetch` is pointed at them, so
 * openid-client, the MCP SDK and the guard speak https URLs exactly as in production. The provider
 * app runs with AUTH_URL=https://example.com (its issuer https://example.com/auth/oauth); the
 * reports app behind `trustHost`, its origin from the forwarded headers a proxy would set.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Auth, type AuthConfig } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { readmeExample, serve, type TestServer } from "@sesame/testing"
import * as client from "openid-client"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Browser, formOf } from "./world.js"

const root = join(import.meta.dirname, "..", "..", "..")
const page = join(root, "docs", "features", "oauth-provider.md")
const scratch = join(import.meta.dirname, ".scratch")
const reportsSecret = "reports-docs-secret-0123456789abcdefghijklmn"
const issuer = "https://example.com/auth/oauth"
const callback = "https://reports.example.com/auth/callback/company"

async function load(name: string): Promise<any> {
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, `${name}-example.ts`)
  writeFileSync(path, readmeExample(page, name))
  return import(path)
}

let providerServer: TestServer
let reportsServer: TestServer
let mcpServer: Server
let provider: AuthConfig
const realFetch = globalThis.fetch
const hosts = new Map<string, { port: string; forwarded?: boolean }>()

beforeAll(async () => {
  vi.stubEnv("AUTH_SECRET", "docs-oauth-provider-secret-0123456789abcdefghij")
  vi.stubEnv("REPORTS_CLIENT_SECRET", reportsSecret)
  vi.stubEnv("COMPANY_ISSUER", issuer)
  // The hosts the examples name are this machine's servers; a proxy's headers say which host was asked.
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const target = hosts.get(url.hostname)
    if (!target) return realFetch(request)
    const headers = new Headers(request.headers)
    if (target.forwarded) {
      headers.set("x-forwarded-host", url.host)
      headers.set("x-forwarded-proto", "https")
    }
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer()
    return realFetch(`http://127.0.0.1:${target.port}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" })
  }) as typeof fetch

  const example = await load("oauth-provider")
  const adapter = example.config.adapter
  provider = {
    ...example.config,
    session: { strategy: "database" },
    providers: [Credentials({ credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail(email) : null) })],
  }
  providerServer = await serve((request) => Auth(request, provider))
  hosts.set("example.com", { port: new URL(providerServer.origin).port })
  // Its configuration resolved with AUTH_URL, which then makes way for the reports app's proxy headers.
  vi.stubEnv("AUTH_URL", "https://example.com")
  expect((await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()).issuer).toBe(issuer)
  vi.stubEnv("AUTH_URL", undefined)

  const reports = await load("oauth-client-app")
  const reportsConfig: AuthConfig = { ...reports.reportsConfig, trustHost: true }
  reportsServer = await serve((request) => Auth(request, reportsConfig))
  hosts.set("reports.example.com", { port: new URL(reportsServer.origin).port, forwarded: true })

  const mcp = await load("mcp-server")
  mcpServer = createServer((req, res) => void mcp.handle(req, res))
  await new Promise<void>((resolve) => mcpServer.listen(0, "127.0.0.1", resolve))
  hosts.set("mcp.example.com", { port: String((mcpServer.address() as AddressInfo).port) })
})

afterAll(async () => {
  globalThis.fetch = realFetch
  vi.unstubAllEnvs()
  mcpServer?.closeAllConnections()
  await new Promise((resolve) => mcpServer?.close(resolve))
  await providerServer?.close()
  await reportsServer?.close()
})

/** A user of the provider app, signed in there in a browser of their own. */
async function user(email: string) {
  await provider.adapter!.createUser!({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: new Date() })
  return new Browser({ origin: "https://example.com", config: provider }, email).signIn()
}

describe("docs/features/oauth-provider.md", () => {
  it("oauth-provider and oauth-client-app: the reports app signs its user in through the provider app", async () => {
    const ada = await user("ada@example.com")
    // The user starts at the reports app, with the browser's cookies of both hosts in one jar.
    const csrf = ((await (await ada.fetch("https://reports.example.com/auth/csrf")).json()) as { csrfToken: string }).csrfToken
    let step = await ada.follow("https://reports.example.com/auth/signin/company", `${callback}`, { form: { csrfToken: csrf }, headers: { origin: "https://reports.example.com" } })
    expect(step.html).toContain("Allow Reports?")
    step = await ada.decide(step.html!, "allow", callback)
    const back = await ada.follow(step.url, "https://reports.example.com/")
    expect(back.url).toBe("https://reports.example.com/")
    const session = (await (await ada.fetch("https://reports.example.com/auth/session")).json()) as { user: { email: string } }
    expect(session.user.email).toBe("ada@example.com")
  })

  it("oauth-consents: the signed-in user's apps, and taking one back", async () => {
    const bob = await user("bob@example.com")
    const csrf = ((await (await bob.fetch("https://reports.example.com/auth/csrf")).json()) as { csrfToken: string }).csrfToken
    const step = await bob.follow("https://reports.example.com/auth/signin/company", callback, { form: { csrfToken: csrf }, headers: { origin: "https://reports.example.com" } })
    await bob.decide(step.html!, "allow", callback)
    const { allowedApps, removeApp } = await load("oauth-consents")
    const asBob = new Request("https://example.com/app", { headers: { cookie: bob.jar.header() } })
    expect((await allowedApps(asBob, provider)).map((c: { clientId: string }) => c.clientId)).toEqual(["reports"])
    expect(await removeApp(asBob, provider, "reports")).toBe(true)
    expect(await allowedApps(asBob, provider)).toEqual([])
  })

  it("oauth-device-cli: the tool gets its tokens once the user enters its code", async () => {
    const cleo = await user("cleo@example.com")
    const lines: string[] = []
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line))
    try {
      const running = load("oauth-device-cli")
      await vi.waitFor(() => expect(lines[0]).toMatch(/^Open https:\/\/example\.com\/auth\/oauth\/device and enter /), { timeout: 10_000 })
      const code = lines[0]!.split(" ").at(-1)!
      const input = await cleo.follow(`${issuer}/device`, "https://nowhere.example/")
      const typed = await cleo.follow(`${issuer}/device`, "https://nowhere.example/", { form: { ...formOf(input.html!, ""), user_code: code } })
      expect(typed.html).toContain("Company CLI")
      const confirmed = await cleo.follow(`${issuer}/device`, "https://nowhere.example/", { form: formOf(typed.html!, "yes") })
      const done = confirmed.html?.includes("Allow Company CLI?") ? await cleo.decide(confirmed.html, "allow", "https://nowhere.example/") : confirmed
      expect(done.html).toContain("Your device is connected")
      await running
      const sub = (await provider.adapter!.getUserByEmail!("cleo@example.com"))!.id
      expect(lines.at(-1)).toBe(`Signed in as ${sub}`)
    } finally {
      log.mockRestore()
    }
  }, 30_000)

  it("mcp-server: the MCP SDK's client signs in through the provider app and calls the tool", async () => {
    const dana = await user("dana@example.com")
    const auth = new (class implements OAuthClientProvider {
      url: URL | undefined
      saved: OAuthTokens | undefined
      verifier = ""
      get redirectUrl() {
        return callback
      }
      get clientMetadata(): OAuthClientMetadata {
        return { redirect_uris: [callback], client_name: "Reports" }
      }
      clientInformation(): OAuthClientInformationMixed {
        return { client_id: "reports", client_secret: reportsSecret }
      }
      tokens() {
        return this.saved
      }
      saveTokens(tokens: OAuthTokens) {
        this.saved = tokens
      }
      redirectToAuthorization(url: URL) {
        this.url = url
      }
      saveCodeVerifier(verifier: string) {
        this.verifier = verifier
      }
      codeVerifier() {
        return this.verifier
      }
    })()
    const mcpUrl = new URL("https://mcp.example.com/mcp")
    await expect(new Client({ name: "reports", version: "1" }).connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }))).rejects.toBeInstanceOf(UnauthorizedError)
    let step = await dana.follow(auth.url!.href, callback)
    step = await dana.decide(step.html!, "allow", callback)
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }).finishAuth(new URL(step.url).searchParams.get("code")!)
    const mcpClient = new Client({ name: "reports", version: "1" })
    await mcpClient.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }))
    const sub = (await provider.adapter!.getUserByEmail!("dana@example.com"))!.id
    expect((await mcpClient.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: sub }])
    await mcpClient.close()
  })

  it("the README's configuration serves the discovery document at its issuer", async () => {
    mkdirSync(scratch, { recursive: true })
    const path = join(scratch, "readme-example.ts")
    writeFileSync(path, readmeExample(join(import.meta.dirname, "..", "README.md"), "readme"))
    const { config } = (await import(path)) as { config: AuthConfig }
    const app = await serve((request) => Auth(request, config))
    try {
      const discovery = await (await realFetch(`${app.origin}/auth/oauth/.well-known/openid-configuration`)).json()
      expect(discovery).toMatchObject({ issuer: `${app.origin}/auth/oauth`, code_challenge_methods_supported: ["S256"] })
    } finally {
      await app.close()
    }
  })

  it("oauth-clients: a user registers an app, which then signs its users in; a refusal is said", async () => {
    const erin = await user("erin@example.com")
    const { registerApp } = await load("oauth-clients")
    const asErin = new Request("https://example.com/app", { headers: { cookie: erin.jar.header() } })
    const made = await registerApp(asErin, provider, "Erin's dashboard", "https://dash.example.net/callback")
    expect(made.clientId).toMatch(/^sesame_/)
    expect(made.clientSecret).toBeTypeOf("string")
    expect(await registerApp(asErin, provider, "Plain http", "http://dash.example.net/callback")).toMatchObject({ refused: "InvalidInput" })
    const discovery = await client.discovery(new URL(issuer), made.clientId, made.clientSecret)
    const verifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(discovery, { redirect_uri: "https://dash.example.net/callback", scope: "openid email", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st" })
    let step = await erin.follow(url.href, "https://dash.example.net/callback")
    expect(step.html).toContain("Allow Erin")
    // A user's app: the page says the site does not vouch for its name.
    expect(step.html).toContain("This app was not added by this site")
    step = await erin.decide(step.html!, "allow", "https://dash.example.net/callback")
    const tokens = await client.authorizationCodeGrant(discovery, new URL(step.url), { pkceCodeVerifier: verifier, expectedState: "st" })
    expect(tokens.claims()!.email).toBe("erin@example.com")
  })

  it("oauth-registration: the app's rules decide who registers, and which metadata documents are fetched", async () => {
    const { server } = await load("oauth-registration")
    expect(server.id).toBe("oauth")
    const config: AuthConfig = { ...provider, plugins: [server] }
    const app = await serve((request) => Auth(request, config))
    try {
      const register = (uris: string[]) => realFetch(`${app.origin}/auth/oauth/reg`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: uris, application_type: "native", token_endpoint_auth_method: "none" }) })
      expect((await register(["http://127.0.0.1:4000/cb"])).status).toBe(201)
      expect((await register(["https://evil.example/cb"])).status).toBe(400)
      const discovery = await (await realFetch(`${app.origin}/auth/oauth/.well-known/openid-configuration`)).json()
      expect(discovery.registration_endpoint).toBe(`${app.origin}/auth/oauth/reg`)
      expect(discovery.client_id_metadata_document_supported).toBe(true)
    } finally {
      await app.close()
    }
  })
})
