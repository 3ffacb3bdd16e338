/**
 * Local stand-ins for services that `@sesame/dev-idp` cannot play, on 127.0.0.1:
 * - a GitHub (Enterprise Server layout: `/login/oauth/*` and the API under `/api/v3`) whose user
 *   keeps their email private, so that it is only in `/user/emails`;
 * - a Microsoft identity platform with a tenant-specific and a multi-tenant (`common`) endpoint,
 *   whose discovery names the `{tenantid}` template and whose ID tokens name the user's tenant.
 * Both check what the real services check: client authentication, the redirect URI, single-use
 * codes and the PKCE verifier.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, SignJWT } from "jose"

interface Grant {
  redirectUri: string
  challenge: string | null
  nonce: string | null
  tenant: string
}

export interface Emulator {
  base: string
  /** Paths requested, in order. */
  requests: string[]
  close(): Promise<void>
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let body = ""
  for await (const chunk of req) body += String(chunk)
  return new URLSearchParams(body)
}

function basicCredentials(header: string | undefined): [string, string] | undefined {
  if (!header?.startsWith("Basic ")) return undefined
  const [id, secret] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":").map((p) => decodeURIComponent(p.replace(/\+/g, " ")))
  return id !== undefined && secret !== undefined ? [id, secret] : undefined
}

function pkceHolds(grant: Grant, verifier: string | null): boolean {
  return !grant.challenge || (!!verifier && createHash("sha256").update(verifier).digest("base64url") === grant.challenge)
}

type Handler = (req: IncomingMessage, url: URL) => Promise<{ status: number; json?: unknown; location?: string }>

async function serve(handler: Handler): Promise<Emulator> {
  const requests: string[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    requests.push(url.pathname)
    handler(req, url).then(
      ({ status, json, location }) => {
        res.writeHead(status, { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...(location ? { location } : {}) })
        res.end(json === undefined ? undefined : JSON.stringify(json))
      },
      () => res.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function authorize(url: URL, grants: Map<string, Grant>, expected: { clientId: string; redirectUri: string }, tenant = ""): { status: number; location?: string } {
  const redirect = url.searchParams.get("redirect_uri")
  if (url.searchParams.get("client_id") !== expected.clientId || redirect !== expected.redirectUri) return { status: 400 }
  const code = randomBytes(16).toString("hex")
  grants.set(code, { redirectUri: redirect, challenge: url.searchParams.get("code_challenge"), nonce: url.searchParams.get("nonce"), tenant })
  const back = new URL(redirect)
  back.searchParams.set("code", code)
  const state = url.searchParams.get("state")
  if (state) back.searchParams.set("state", state)
  return { status: 302, location: back.href }
}

/** Redeems a code once, checking the client, the redirect URI and PKCE. */
function redeem(grants: Map<string, Grant>, params: URLSearchParams, client: [string, string] | undefined, expected: { clientId: string; clientSecret: string }): Grant | undefined {
  const code = params.get("code") ?? ""
  const grant = grants.get(code)
  grants.delete(code)
  if (!client || client[0] !== expected.clientId || client[1] !== expected.clientSecret) return undefined
  if (!grant || grant.redirectUri !== params.get("redirect_uri") || !pkceHolds(grant, params.get("code_verifier"))) return undefined
  return grant
}

export const gitHubUser = { id: 583231, login: "octocat", name: "The Octocat", email: null, avatar_url: "https://avatars.example/u/583231", html_url: "https://github.example/octocat", type: "User" }

/** A GitHub Enterprise Server with one user whose email is private. */
export function startGitHub(expected: { clientId: string; clientSecret: string; redirectUri: string }): Promise<Emulator> {
  const grants = new Map<string, Grant>()
  const tokens = new Set<string>()
  return serve(async (req, url) => {
    if (url.pathname === "/login/oauth/authorize") return authorize(url, grants, expected)
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      if (!redeem(grants, await form(req), basicCredentials(req.headers.authorization), expected)) return { status: 400, json: { error: "invalid_grant" } }
      const token = `gho_${randomBytes(16).toString("hex")}`
      tokens.add(token)
      return { status: 200, json: { access_token: token, token_type: "bearer", scope: "read:user,user:email" } }
    }
    // GitHub's API refuses requests without a User-Agent.
    if (!req.headers["user-agent"]) return { status: 403, json: { message: "Request forbidden by administrative rules." } }
    if (!tokens.has(req.headers.authorization?.replace(/^Bearer /, "") ?? "")) return { status: 401, json: { message: "Bad credentials" } }
    if (url.pathname === "/api/v3/user") return { status: 200, json: gitHubUser }
    if (url.pathname === "/api/v3/user/emails") {
      return {
        status: 200,
        json: [
          { email: "unverified@example.com", primary: false, verified: false, visibility: null },
          { email: "583231+octocat@users.noreply.example", primary: false, verified: true, visibility: null },
          { email: "Octocat@Example.com", primary: true, verified: true, visibility: "private" },
        ],
      }
    }
    return { status: 404, json: { message: "Not Found" } }
  })
}

export const tenants = { contoso: "72f988bf-86f1-41af-91ab-2d7cd011db47", fabrikam: "0b3a1f7e-5c2d-4e8a-9f6b-1a2b3c4d5e6f" }

/**
 * A Microsoft identity platform. `/<tenant id>/v2.0` is a tenant's own issuer; `/common/v2.0`
 * publishes the `{tenantid}` template. `signInTenant` picks the user's home tenant for the next
 * sign-ins; `forgeIssuer` makes the next ID token name another tenant's issuer than its `tid`.
 */
export async function startEntra(expected: { clientId: string; clientSecret: string; redirectUri: string }) {
  const grants = new Map<string, Grant>()
  const { publicKey, privateKey } = await generateKeyPair("RS256")
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }
  const state = { signInTenant: tenants.contoso, forgeIssuer: undefined as string | undefined }
  const emulator = await serve(async (req, url) => {
    const match = /^\/([^/]+)\/v2\.0(\/.*)$/.exec(url.pathname)
    const [, tenant, rest] = match ?? []
    const issuerOf = (t: string) => `${emulator.base}/${t}/v2.0`
    const published = tenant === "common" || tenant === "organizations" ? issuerOf("{tenantid}") : issuerOf(tenant ?? "")
    if (rest === "/.well-known/openid-configuration") {
      return {
        status: 200,
        json: {
          issuer: published,
          authorization_endpoint: `${emulator.base}/${tenant}/oauth2/v2.0/authorize`,
          token_endpoint: `${emulator.base}/${tenant}/oauth2/v2.0/token`,
          jwks_uri: `${emulator.base}/${tenant}/discovery/v2.0/keys`,
          response_types_supported: ["code"],
          subject_types_supported: ["pairwise"],
          id_token_signing_alg_values_supported: ["RS256"],
        },
      }
    }
    const path = /^\/([^/]+)\/(oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/token|discovery\/v2\.0\/keys)$/.exec(url.pathname)
    if (!path) return { status: 404 }
    const [, endpointTenant, endpoint] = path
    if (endpoint === "discovery/v2.0/keys") return { status: 200, json: { keys: [jwk] } }
    const home = endpointTenant === "common" || endpointTenant === "organizations" ? state.signInTenant : endpointTenant!
    if (endpoint === "oauth2/v2.0/authorize") return authorize(url, grants, expected, home)
    const grant = redeem(grants, await form(req), basicCredentials(req.headers.authorization), expected)
    if (!grant) return { status: 400, json: { error: "invalid_grant" } }
    const idToken = await new SignJWT({ tid: grant.tenant, oid: "00000000-0000-0000-66f3-3332eca7ea81", name: "Ada Lovelace", email: `ada@${grant.tenant.slice(0, 8)}.example`, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(state.forgeIssuer ?? issuerOf(grant.tenant))
      .setAudience(expected.clientId)
      .setSubject(`pairwise-subject-of-${grant.tenant.slice(0, 8)}`)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey)
    state.forgeIssuer = undefined
    return { status: 200, json: { access_token: randomBytes(16).toString("hex"), token_type: "Bearer", expires_in: 3600, id_token: idToken } }
  })
  return Object.assign(emulator, { state })
}
