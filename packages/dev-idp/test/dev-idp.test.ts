/**
 * The dev IdP itself: automatic and interactive logins, refresh tokens, lifetimes and counts.
 */
import { createHash, randomBytes } from "node:crypto"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { afterEach, describe, expect, it } from "vitest"

const redirectUri = "http://localhost:3000/auth/callback/dev"
const secret = "dev-idp-test-secret-0123456789-abcdefghijklmnop"
const accounts = [
  { id: "alice", email: "alice@example.com", name: "Alice" },
  { id: "bob", email: "bob@example.com", name: "Bob" },
]

let idp: DevIdp | undefined
afterEach(async () => {
  await idp?.close()
  idp = undefined
})

function start(options: { interactive?: boolean; accessTokenTtl?: number } = {}) {
  return startDevIdp({ clients: [{ client_id: "app", client_secret: secret, redirect_uris: [redirectUri] }], accounts, ...options })
}

/** A tiny browser: a cookie jar and manual redirects. */
function browser() {
  const cookies = new Map<string, string>()
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "))
    const response = await fetch(url, { ...init, headers, redirect: "manual" })
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";")
      const eq = pair!.indexOf("=")
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1))
    }
    return response
  }
}

function authorizationUrl(issuer: string, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString("base64url")
  const url = new URL(`${issuer}/auth`)
  url.search = new URLSearchParams({
    client_id: "app",
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid email profile",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...extra,
  }).toString()
  return { url: url.href, verifier }
}

/** Follows redirects until the client's redirect URI; returns its parameters, or the page it stopped on. */
async function follow(get: ReturnType<typeof browser>, url: string, init?: RequestInit): Promise<URLSearchParams | Response> {
  let response = await get(url, init)
  for (let hop = 0; hop < 10; hop++) {
    const location = response.headers.get("location")
    if (!location) return response
    const next = new URL(location, url).href
    if (next.startsWith(redirectUri)) return new URL(next).searchParams
    url = next
    response = await get(url)
  }
  throw new Error("too many redirects")
}

async function tokens(issuer: string, body: Record<string, string>) {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`app:${secret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

function claims(idToken: unknown): Record<string, unknown> {
  return JSON.parse(Buffer.from(String(idToken).split(".")[1]!, "base64url").toString("utf8"))
}

describe("startDevIdp", () => {
  it("listens on 127.0.0.1 with a discovery document and a JWKS holding its signing key", async () => {
    idp = await start()
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const metadata = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(metadata).toMatchObject({ issuer: idp.issuer, authorization_response_iss_parameter_supported: true })
    expect(metadata.response_modes_supported).toContain("form_post")
    const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: { kid: string; d?: string }[] }
    expect(jwks.keys.map((k) => k.kid)).toEqual([idp.signingKey.kid])
    expect(jwks.keys[0]).not.toHaveProperty("d")
  })

  it("logs in on its own as the login_hint account, issues refresh tokens and counts token requests", async () => {
    idp = await start({ accessTokenTtl: 120 })
    const { url, verifier } = authorizationUrl(idp.issuer, { login_hint: "bob" })
    const params = await follow(browser(), url)
    if (!(params instanceof URLSearchParams)) throw new Error(`stopped at ${params.status}`)
    expect(params.get("iss")).toBe(idp.issuer)
    const grant = await tokens(idp.issuer, { grant_type: "authorization_code", code: params.get("code")!, redirect_uri: redirectUri, code_verifier: verifier })
    expect(grant.status).toBe(200)
    expect(grant.body.expires_in).toBe(120)
    expect(claims(grant.body.id_token)).toMatchObject({ sub: "bob", email: "bob@example.com", name: "Bob", iss: idp.issuer, aud: "app" })
    const refreshed = await tokens(idp.issuer, { grant_type: "refresh_token", refresh_token: String(grant.body.refresh_token) })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).not.toBe(grant.body.refresh_token)
    expect([idp.tokenRequests(), idp.tokenRequests("authorization_code"), idp.tokenRequests("refresh_token")]).toEqual([2, 1, 1])
  })

  it("answers access_denied for an unknown login_hint", async () => {
    idp = await start()
    const params = await follow(browser(), authorizationUrl(idp.issuer, { login_hint: "mallory" }).url)
    if (!(params instanceof URLSearchParams)) throw new Error(`stopped at ${params.status}`)
    expect(params.get("error")).toBe("access_denied")
  })

  it("interactive: shows a page to pick a test account, then logs in as the one picked", async () => {
    idp = await start({ interactive: true })
    const get = browser()
    const page = await follow(get, authorizationUrl(idp.issuer).url)
    if (!(page instanceof Response)) throw new Error("expected the login page")
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("<h1>Sesame Dev IdP</h1>")
    expect(html).toContain("alice@example.com")
    expect(html).toContain("bob@example.com")
    const action = /<form method="post" action="([^"]+\/login)">/.exec(html)![1]!
    const params = await follow(get, new URL(action, idp.issuer).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "account=bob",
    })
    if (!(params instanceof URLSearchParams)) throw new Error(`stopped at ${params.status}`)
    expect(params.get("code")).toBeTruthy()
  })

  it("interactive: cancelling answers access_denied", async () => {
    idp = await start({ interactive: true })
    const get = browser()
    const page = await follow(get, authorizationUrl(idp.issuer).url)
    if (!(page instanceof Response)) throw new Error("expected the login page")
    const action = /<form method="post" action="([^"]+\/abort)">/.exec(await page.text())![1]!
    const params = await follow(get, new URL(action, idp.issuer).href, { method: "POST" })
    if (!(params instanceof URLSearchParams)) throw new Error(`stopped at ${params.status}`)
    expect(params.get("error")).toBe("access_denied")
  })
})

describe("redirect_uri_prefixes", () => {
  const prefix = "http://localhost:3000/auth/callback/sso-"
  let other: DevIdp | undefined
  afterEach(async () => {
    await other?.close()
    other = undefined
  })

  /** Where an authorization request with `redirectUri` ends: the URL the IdP sends back to, or its error page's status and text. */
  async function answer(issuer: string, redirect: string): Promise<string> {
    const get = browser()
    let url = authorizationUrl(issuer, { redirect_uri: redirect }).url
    for (let hop = 0; hop < 10; hop++) {
      const response = await get(url)
      const location = response.headers.get("location")
      if (!location) return `${response.status} ${await response.text()}`
      const next = new URL(location, url).href
      if (!next.startsWith(issuer)) return next
      url = next
    }
    throw new Error("too many redirects")
  }

  it("accepts a redirect URI of the prefix and one segment, and nothing else; another IdP's client keeps exact URIs", async () => {
    idp = await startDevIdp({ clients: [{ client_id: "app", client_secret: secret, redirect_uris: [redirectUri], redirect_uri_prefixes: [prefix] }], accounts })
    other = await start()
    expect(await answer(idp.issuer, `${prefix}0c8f2a`)).toMatch(new RegExp(`^${prefix}0c8f2a\\?code=`))
    expect(await answer(idp.issuer, redirectUri)).toMatch(new RegExp(`^${redirectUri}\\?code=`))
    for (const refused of [`${prefix}a/b`, `${prefix}a?next=x`, `${prefix}`, `${prefix}a%2F..`, "http://evil.example/auth/callback/sso-a", `${prefix.replace("3000", "3001")}a`]) {
      expect(await answer(idp.issuer, refused), refused).toMatch(/^400 invalid_redirect_uri/)
    }
    expect(await answer(other.issuer, `${prefix}0c8f2a`)).toMatch(/^400 invalid_redirect_uri/)
  })
})
