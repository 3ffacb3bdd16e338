/**
 * The authorization server's tests' world: a Sesame app with the module, served over real HTTP on
 * 127.0.0.1 (the issuer is `<origin>/auth/oauth`: a loopback host needs no AUTH_URL), on the
 * memory adapter; users stored with proven addresses who sign in with credentials in a browser of
 * their own (a cookie jar that follows redirects as a browser does, and can answer the consent page).
 */
import { Auth, callModuleApi, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { oauthProvider, type OAuthProviderOptions } from "@sesame/oauth-provider"
import { serve, type TestServer } from "@sesame/testing"
import * as client from "openid-client"
import { CookieJar } from "../../core/test/helpers.js"

export const secret = "oauth-provider-test-secret-0123456789abcdefghij"
export const webSecret = "reports-client-secret-0123456789abcdefghijkl"
export const redirectUri = "https://reports.example/callback"
export const mcpResource = "https://mcp.example/mcp"

export const defaultOptions: OAuthProviderOptions = {
  clients: [
    { clientId: "reports", name: "Reports", clientSecret: webSecret, redirectUris: [redirectUri], postLogoutRedirectUris: ["https://reports.example/signed-out"] },
    { clientId: "cli", name: "Sesame CLI", redirectUris: ["http://127.0.0.1:8765/callback"], applicationType: "native", grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"] },
    { clientId: "intranet", name: "Intranet", clientSecret: "intranet-client-secret-0123456789abcdefgh", redirectUris: ["https://intranet.example/callback"], firstParty: true },
    { clientId: "worker", name: "Nightly worker", clientSecret: "worker-client-secret-0123456789abcdefghij", grantTypes: ["client_credentials"], scopes: ["tools:read"] },
  ],
  resources: { [mcpResource]: { scopes: ["tools:read", "tools:write"] }, "https://other.example/api": { scopes: ["tools:read"] } },
}

export interface World {
  origin: string
  issuer: string
  adapter: Adapter
  config: AuthConfig
  server: TestServer
  /** A stored user, signed in in a browser of their own. */
  user(email: string): Promise<Browser & { id: string }>
  close(): Promise<void>
}

export class Browser {
  readonly jar = new CookieJar()
  constructor(
    readonly world: { origin: string; config: AuthConfig },
    readonly email?: string,
  ) {}

  /** One request with the browser's cookies, redirects not followed. */
  async fetch(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.jar.header(), ...init.headers }
    let body: string | undefined
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      headers.origin ??= this.world.origin
      body = new URLSearchParams(init.form).toString()
    }
    const response = await fetch(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" })
    this.jar.apply(response)
    return response
  }

  /**
   * Follows redirects from `url` as a browser does, until one leaves for `stopAt` (a client's
   * redirect URI: the URL is returned) or a page is shown (returned with its HTML).
   */
  async follow(url: string, stopAt: string, init: Parameters<Browser["fetch"]>[1] = {}): Promise<{ url: string; status: number; html?: string }> {
    let response = await this.fetch(url, init)
    let at = url
    for (let hops = 0; hops < 20; hops++) {
      if (response.status < 300 || response.status >= 400) return { url: at, status: response.status, html: await response.text() }
      at = new URL(response.headers.get("location")!, at).href
      if (at.startsWith(stopAt)) return { url: at, status: response.status }
      response = await this.fetch(at)
    }
    throw new Error(`too many redirects, last at ${at}`)
  }

  async csrf(): Promise<string> {
    return ((await (await this.fetch(`${this.world.origin}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
  }

  async signIn(): Promise<this> {
    const response = await this.fetch(`${this.world.origin}/auth/callback/credentials`, { form: { csrfToken: await this.csrf(), email: this.email! } })
    if (response.status !== 302 || new URL(response.headers.get("location")!).searchParams.has("error")) throw new Error(`sign-in of ${this.email} failed`)
    return this
  }

  /** Submits the consent page `html` with `decision`, and follows on to `stopAt`. */
  async decide(html: string, decision: "allow" | "deny", stopAt: string): Promise<{ url: string; status: number; html?: string }> {
    const form = formOf(html, decision)
    return this.follow(`${this.world.origin}/auth/oauth/interaction`, stopAt, { form })
  }

  /** A server function, with this browser's cookies. */
  api(name: string, ...args: unknown[]): Promise<any> {
    return callModuleApi(new Request(`${this.world.origin}/app`, { headers: { cookie: this.jar.header() } }), this.world.config, name, ...args)
  }
}

/** The hidden fields of the consent page's form for `decision`. */
export function formOf(html: string, decision: string): Record<string, string> {
  const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(`value="${decision}"`))
  if (!form) throw new Error(`no "${decision}" form on the page:\n${html}`)
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll("&amp;", "&")]))
}

export async function startWorld(options: OAuthProviderOptions = defaultOptions, extra: { plugins?: SesameModule[]; adapter?: Adapter; config?: Partial<AuthConfig> } = {}): Promise<World> {
  const adapter = extra.adapter ?? MemoryAdapter()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null),
      }),
    ],
    plugins: [oauthProvider(options), ...(extra.plugins ?? [])],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...extra.config,
  }
  const server = await serve((request) => Auth(request, config))
  const world = { origin: server.origin, config }
  return {
    origin: server.origin,
    issuer: `${server.origin}/auth/oauth`,
    adapter,
    config,
    server,
    async user(email) {
      const stored = await adapter.createUser!({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: new Date() })
      const browser = await new Browser(world, email).signIn()
      return Object.assign(browser, { id: stored.id })
    },
    close: () => server.close(),
  }
}

/** openid-client's configuration for `clientId` at the world's issuer (plain http: a loopback test server). */
export async function clientOf(world: World, clientId: string, clientSecret?: string): Promise<client.Configuration> {
  return client.discovery(new URL(world.issuer), clientId, clientSecret, clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret), { execute: [client.allowInsecureRequests] })
}
