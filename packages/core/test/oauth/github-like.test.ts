/**
 * The `oauth` kind against a plain OAuth 2 server without OpenID Connect, shaped like GitHub's:
 * `/login/oauth/authorize`, `/login/oauth/access_token`, an API with `/user` (whose email may be
 * private, so null) and `/user/emails`. It checks what a real server checks: the client secret,
 * the redirect URI, single use of the code, and the PKCE verifier.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { OAuth2Config, Profile } from "@sesame/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, origin } from "../helpers.js"
import { atProvider, callbackUrl, deliver, expectRejected, quietLogger, session, startSignIn, withAdapter } from "./harness.js"

const clientId = "gh-client"
const clientSecret = "gh-secret-0123456789"

interface Grant {
  redirectUri: string
  challenge: string | null
}

/** HTTP Basic client authentication, with form-encoded id and secret (RFC 6749 2.3.1). */
function basicCredentialsMatch(header: string | undefined): boolean {
  if (!header?.startsWith("Basic ")) return false
  const [id, secret] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":").map((part) => decodeURIComponent(part.replace(/\+/g, " ")))
  return id === clientId && secret === clientSecret
}

/** A small GitHub-like authorization server and API. */
async function startGitHubLike() {
  const grants = new Map<string, Grant>()
  const tokens = new Set<string>()
  const requests: { path: string; query: URLSearchParams }[] = []
  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    let body = ""
    for await (const chunk of req) body += String(chunk)
    return new URLSearchParams(body)
  }
  const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body), type: "application/json" })
  async function handle(req: IncomingMessage): Promise<{ status: number; body?: string; type?: string; location?: string }> {
    const url = new URL(req.url!, "http://127.0.0.1")
    requests.push({ path: url.pathname, query: url.searchParams })
    if (url.pathname === "/login/oauth/authorize") {
      const redirect = url.searchParams.get("redirect_uri")!
      if (url.searchParams.get("client_id") !== clientId || redirect !== callbackUrl("github")) return { status: 400, body: "bad client or redirect_uri" }
      const code = randomBytes(16).toString("hex")
      grants.set(code, { redirectUri: redirect, challenge: url.searchParams.get("code_challenge") })
      const back = new URL(redirect)
      back.searchParams.set("code", code)
      const state = url.searchParams.get("state")
      if (state) back.searchParams.set("state", state)
      return { status: 302, location: back.href }
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const params = await form(req)
      if (!basicCredentialsMatch(req.headers.authorization)) return json(401, { error: "invalid_client" })
      const grant = grants.get(params.get("code") ?? "")
      grants.delete(params.get("code") ?? "")
      if (!grant || grant.redirectUri !== params.get("redirect_uri")) return json(400, { error: "invalid_grant" })
      const verifier = params.get("code_verifier")
      if (grant.challenge && (!verifier || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)) {
        return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" })
      }
      const token = `gho_${randomBytes(16).toString("hex")}`
      tokens.add(token)
      // GitHub answers "bearer" in lower case; this one shouts, to show Sesame lower-cases it.
      return json(200, { access_token: token, token_type: "Bearer", scope: "read:user,user:email" })
    }
    const token = req.headers.authorization?.replace(/^Bearer /, "")
    if (!token || !tokens.has(token)) return json(401, { message: "Bad credentials" })
    if (url.pathname === "/user") {
      return json(200, { id: 583231, login: "octocat", name: "The Octocat", email: null, avatar_url: "https://avatars.example/u/583231" })
    }
    if (url.pathname === "/user/emails") {
      return json(200, [
        { email: "octocat@users.noreply.example", primary: false, verified: true },
        { email: "Octocat@Example.com", primary: true, verified: true },
      ])
    }
    return json(404, { message: "Not Found" })
  }
  const server: Server = createServer((req, res) => {
    handle(req).then(({ status, body, type, location }) => {
      res.writeHead(status, { ...(type ? { "content-type": type } : {}), ...(location ? { location } : {}) }).end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let github: Awaited<ReturnType<typeof startGitHubLike>>

beforeAll(async () => {
  github = await startGitHubLike()
})
afterAll(() => github.close())

/** A GitHub-style provider, as a built-in provider would define it. */
function gitHubLike(overrides: Partial<OAuth2Config> = {}): OAuth2Config {
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    clientId,
    clientSecret,
    authorization: { url: `${github.base}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${github.base}/login/oauth/access_token`,
    userinfo: {
      url: `${github.base}/user`,
      // The email is private on the profile: ask the emails endpoint, as GitHub requires.
      async request({ tokens }) {
        const headers = { authorization: `Bearer ${tokens.access_token}` }
        const profile = (await (await fetch(`${github.base}/user`, { headers })).json()) as Profile
        if (!profile.email) {
          const emails = (await (await fetch(`${github.base}/user/emails`, { headers })).json()) as { email: string; primary: boolean }[]
          profile.email = emails.find((e) => e.primary)?.email ?? null
        }
        return profile
      },
    },
    // GitHub's ids are numbers; Sesame turns the returned id into a string.
    profile: (profile) => ({ id: String(profile.id), name: profile.name ?? String(profile.login), email: profile.email, image: String(profile.avatar_url) }),
    ...overrides,
  }
}

describe("plain OAuth 2 (a GitHub-like server)", () => {
  it("signs in with the oauth kind: PKCE, no OpenID scope added, profile from the API", async () => {
    const { adapter, config } = withAdapter({ providers: [gitHubLike()] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "github")
    const authorization = new URL(start.headers.get("location")!)
    expect(authorization.searchParams.get("scope")).toBe("read:user user:email")
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authorization.searchParams.has("nonce")).toBe(false)

    const callback = await deliver(config, jar, await atProvider(authorization.href, callbackUrl("github")))
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({
      user: { name: "The Octocat", email: "octocat@example.com", image: "https://avatars.example/u/583231" },
    })
    const [account] = [...adapter.tables.accounts.values()]
    expect(account).toMatchObject({ provider: "github", type: "oauth", providerAccountId: "583231", token_type: "bearer", scope: "read:user,user:email" })
    expect(account!.access_token).toMatch(/^gho_/)
    expect(account).not.toHaveProperty("expires_at")
  })

  it("reads the profile from the userinfo URL when there is no handler", async () => {
    const plain = gitHubLike({ userinfo: `${github.base}/user` })
    const { config } = withAdapter({ session: { strategy: "jwt" }, providers: [plain] })
    const { logger } = quietLogger()
    // The public profile has no email, and a user cannot be created without one.
    const noEmail = { ...config, logger }
    const jar = new CookieJar()
    const start = await startSignIn(noEmail, jar, "github")
    const callback = await deliver(noEmail, jar, await atProvider(start.headers.get("location")!, callbackUrl("github")))
    expect(callback.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
    // Without an adapter, no user is created: the profile is enough.
    const stateless = { ...config, adapter: undefined, session: undefined }
    const jar2 = new CookieJar()
    const start2 = await startSignIn(stateless, jar2, "github")
    await deliver(stateless, jar2, await atProvider(start2.headers.get("location")!, callbackUrl("github")))
    expect(await session(stateless, jar2)).toMatchObject({ user: { name: "The Octocat", email: null } })
  })

  it("works with a custom token request handler", async () => {
    const provider = gitHubLike({
      token: {
        async request({ params }) {
          const body = new URLSearchParams({ grant_type: "authorization_code", code: params.code, redirect_uri: params.redirect_uri })
          if (params.code_verifier) body.set("code_verifier", params.code_verifier)
          const response = await fetch(`${github.base}/login/oauth/access_token`, {
            method: "POST",
            headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`, accept: "application/json" },
            body,
          })
          return { tokens: await response.json() }
        },
      },
    })
    const { config } = withAdapter({ providers: [provider] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "github")
    await deliver(config, jar, await atProvider(start.headers.get("location")!, callbackUrl("github")))
    expect(await session(config, jar)).toMatchObject({ user: { email: "octocat@example.com" } })
  })

  it("the server's PKCE check holds: a wrong verifier cookie fails the sign-in", async () => {
    const { logger } = quietLogger()
    const { config } = withAdapter({ logger, providers: [gitHubLike()] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "github")
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("github"))
    const other = new CookieJar()
    await startSignIn(config, other, "github")
    jar.cookies.set("sesame.pkce.code_verifier", other.cookies.get("sesame.pkce.code_verifier")!)
    await expectRejected(config, jar, await deliver(config, jar, answer), "OAuthCallbackError")
  })

  it("with the state check, the state goes to the server and must come back", async () => {
    const { logger } = quietLogger()
    const { config } = withAdapter({ logger, providers: [gitHubLike({ checks: ["pkce", "state"] })] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "github")
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("github"))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    expect(new URL(answer.url).searchParams.get("state")).toBe(new URL(start.headers.get("location")!).searchParams.get("state"))
    const tampered = new URL(answer.url)
    tampered.searchParams.delete("state")
    await expectRejected(config, jar, await deliver(config, jar, { kind: "redirect", url: tampered.href }), "InvalidCheck")
  })
})
