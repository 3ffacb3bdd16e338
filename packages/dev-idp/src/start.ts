/**
 * A real OpenID Provider (panva's `oidc-provider`) on 127.0.0.1, for tests and local development.
 *
 * It is configured the way most hosted providers behave: authorization code with PKCE, the
 * `openid email profile offline_access` scopes, refresh tokens for clients allowed the grant,
 * RFC 9207 `iss` in authorization responses, `form_post` available, RS256 ID tokens. Consent is
 * always implied. Logins either complete on their own (tests) or go through a page where a person
 * picks a test account (demos, browser tests).
 *
 * @module
 */
import { randomBytes, randomUUID, webcrypto } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider"
import { loginPage } from "./login-page.js"
import { memoryStore } from "./memory-store.js"
import type { DevIdp, DevIdpAccount, DevIdpOptions } from "./types.js"

const interactionPath = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|abort))?$/

async function signingKey(): Promise<JsonWebKey & { kid: string }> {
  const { privateKey } = await webcrypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )
  // key_ops and ext describe the private key ("sign"); published as they are, they would tell
  // clients that the public key cannot verify.
  const { key_ops: _ops, ext: _ext, ...jwk } = await webcrypto.subtle.exportKey("jwk", privateKey)
  return { ...jwk, kid: randomUUID(), alg: "RS256", use: "sig" }
}

function listen(port: number): Promise<ReturnType<typeof createServer>> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve(server))
  })
}

async function formField(req: IncomingMessage, name: string): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > 16_384) return null
    chunks.push(chunk)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get(name)
}

function claimsOf(account: DevIdpAccount): { sub: string; [claim: string]: unknown } {
  return {
    ...account.claims,
    sub: account.id,
    email: account.email,
    email_verified: account.email_verified ?? true,
    name: account.name,
    ...(account.picture ? { picture: account.picture } : {}),
  }
}

/** Adds the clients' `redirect_uri_prefixes` to the exact redirect URIs oidc-provider compares. */
function allowRedirectPrefixes(provider: Provider, clients: DevIdpOptions["clients"]): void {
  const prefixes = new Map(clients.filter((c) => c.redirect_uri_prefixes?.length).map((c) => [c.client_id, c.redirect_uri_prefixes!]))
  if (prefixes.size === 0) return
  const prototype = provider.Client.prototype as { redirectUriAllowed(value: string): boolean; clientId: string }
  const exact = prototype.redirectUriAllowed
  prototype.redirectUriAllowed = function (value: string) {
    return exact.call(this, value) || (prefixes.get(this.clientId) ?? []).some((prefix) => value.startsWith(prefix) && /^[A-Za-z0-9_-]+$/.test(value.slice(prefix.length)))
  }
}

/** Starts a dev IdP. Close it with `close()`. */
export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  const accounts = new Map(options.accounts.map((a) => [a.id, a]))
  const name = options.name ?? "Sesame Dev IdP"
  const server = await listen(options.port ?? 0)
  const port = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${port}`
  const key = await signingKey()
  const counts = new Map<string, number>()

  const configuration: Configuration = {
    adapter: memoryStore(),
    // oidc-provider wants one exact redirect URI at least: a client of prefixes only registers them.
    clients: options.clients.map(({ redirect_uri_prefixes: prefixes, ...c }) => ({
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: c.client_secret || c.jwks ? "client_secret_basic" : "none",
      ...c,
      redirect_uris: c.redirect_uris.length > 0 ? c.redirect_uris : (prefixes ?? []),
    })),
    jwks: { keys: [key as Required<Configuration>["jwks"]["keys"][number]] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    scopes: ["openid", "offline_access", "email", "profile"],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      // The accounts' further claims too: oidc-provider releases only the claims a scope names.
      profile: [...new Set(["name", "picture", "given_name", "family_name", "preferred_username", "locale", ...options.accounts.flatMap((a) => Object.keys(a.claims ?? {}))])],
    },
    conformIdTokenClaims: !(options.idTokenClaims ?? true),
    findAccount: (_ctx, id) => {
      const account = accounts.get(id)
      return account ? { accountId: id, claims: () => claimsOf(account) } : undefined
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is implied: the grant covers whatever the client asked for.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const session = ctx.oidc.session
      const client = ctx.oidc.client
      if (!session?.accountId || !client) return undefined
      const existing = session.grantIdFor(client.clientId)
      if (existing) return ctx.oidc.provider.Grant.find(existing)
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId })
      const scope = ctx.oidc.params?.scope
      grant.addOIDCScope(typeof scope === "string" ? scope : "openid")
      await grant.save()
      session.grantIdFor(client.clientId, grant.jti)
      return grant
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: options.rotateRefreshTokens ?? true,
    pkce: { required: () => false },
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    async renderError(ctx, out) {
      ctx.type = "text/plain; charset=utf-8"
      ctx.body = `${out.error}: ${out.error_description ?? ""}`
    },
  }
  const provider = new Provider(issuer, configuration)
  allowRedirectPrefixes(provider, options.clients)
  provider.use(async (ctx, next) => {
    await next()
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc
    if (oidc?.route !== "token") return
    const grantType = oidc.params?.grant_type
    counts.set("", (counts.get("") ?? 0) + 1)
    if (typeof grantType === "string") counts.set(grantType, (counts.get(grantType) ?? 0) + 1)
  })
  const oidcHandler = provider.callback()

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined) {
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid) throw new Error("interaction mismatch")
    const finish = (result: Parameters<Provider["interactionFinished"]>[2]) =>
      provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
    const deny = (description: string) => finish({ error: "access_denied", error_description: description })
    if (step === "abort") return deny("The user cancelled the sign-in.")
    if (details.prompt.name === "consent") {
      // Asked for explicitly (prompt=consent): grant what the client asked for.
      const grant = new provider.Grant({ clientId: String(details.params.client_id), accountId: details.session?.accountId })
      grant.addOIDCScope(typeof details.params.scope === "string" ? details.params.scope : "openid")
      return finish({ consent: { grantId: await grant.save() } })
    }
    if (step === "login") {
      const chosen = await formField(req, "account")
      return chosen && accounts.has(chosen) ? finish({ login: { accountId: chosen } }) : deny("No such test account.")
    }
    if (options.interactive) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      res.end(loginPage({ name, uid, clientId: String(details.params.client_id), accounts: options.accounts }))
      return
    }
    const hint = details.params.login_hint
    const accountId = typeof hint === "string" ? hint : options.accounts[0]?.id
    return accountId && accounts.has(accountId) ? finish({ login: { accountId } }) : deny("No such test account.")
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const match = interactionPath.exec(new URL(req.url ?? "/", issuer).pathname)
    if (!match) {
      void oidcHandler(req, res)
      return
    }
    const step = match[2]
    if ((step && req.method !== "POST") || (!step && req.method !== "GET")) {
      res.writeHead(405).end()
      return
    }
    interaction(req, res, match[1]!, step).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain; charset=utf-8" })
      res.end(`The interaction could not be completed: ${error instanceof Error ? error.message : "unknown error"}`)
    })
  })

  return {
    issuer,
    url: issuer,
    port,
    signingKey: key,
    tokenRequests: (grantType) => counts.get(grantType ?? "") ?? 0,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
