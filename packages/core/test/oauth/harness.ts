/**
 * Driving OAuth sign-ins end to end: `Auth()` with real requests on one side, a real identity
 * provider on 127.0.0.1 on the other, and a browser's part (following redirects, carrying cookies,
 * submitting the form_post form) in between.
 */
import { startDevIdp, type DevIdp, type DevIdpClient, type DevIdpOptions } from "@sesame/dev-idp"
import type { AuthConfig, OIDCConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { expect } from "vitest"
import { CookieJar, csrfToken, origin, secret, send } from "../helpers.js"

export const clientSecret = "dev-idp-client-secret-0123456789-abcdefghijklmnop"

export const accounts = [
  { id: "alice", email: "alice@example.com", name: "Alice Liddell" },
  { id: "bob", email: "bob@example.com", name: "Bob Builder" },
]

/** The callback URL of provider `id` on the test app (or on `base`). */
export function callbackUrl(id: string, base = `${origin}/auth`): string {
  return `${base}/callback/${id}`
}

/** A confidential client registered at the IdP for provider `id` of the test app. */
export function client(id: string, extra: Partial<DevIdpClient> = {}): DevIdpClient {
  return { client_id: id, client_secret: clientSecret, redirect_uris: [callbackUrl(id)], ...extra }
}

/** Starts a dev IdP with clients for the given provider ids (default `dev`). */
export function startIdp(options: Partial<DevIdpOptions> = {}): Promise<DevIdp> {
  return startDevIdp({ clients: [client("dev")], accounts, ...options })
}

/** An `oidc` provider for `idp`, discovered through its issuer. */
export function oidc(idp: DevIdp, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id: "dev", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "dev", clientSecret, checks: ["pkce", "nonce"], ...overrides }
}

export function oauthConfig(overrides: Partial<AuthConfig>): AuthConfig {
  return { secret, trustHost: true, providers: [], ...overrides }
}

/** A configuration with a memory adapter (database sessions unless `session` says otherwise). */
export function withAdapter(overrides: Partial<AuthConfig>) {
  const adapter = MemoryAdapter()
  return { adapter, config: oauthConfig({ adapter, ...overrides }) }
}

/**
 * `POST signin/:id` from the app's page: returns the response (302 to the provider).
 * `query` and `fields` reach the authorization URL as extra parameters.
 */
export async function startSignIn(
  config: AuthConfig,
  jar: CookieJar,
  id: string,
  options: { query?: Record<string, string>; fields?: Record<string, string>; base?: string } = {},
): Promise<Response> {
  const base = options.base ?? `${origin}/auth`
  const token = await csrfToken(config, jar, base)
  const query = options.query ? `?${new URLSearchParams(options.query)}` : ""
  return send(config, `${base}/signin/${id}${query}`, { jar, form: { csrfToken: token, ...options.fields } })
}

/** What the provider sent the browser back with: a redirect, or a form that posts itself. */
export type ProviderAnswer = { kind: "redirect"; url: string } | { kind: "form"; action: string; fields: Record<string, string> }

/**
 * Plays the browser at the provider: follows its redirects from `authorizationUrl` until it sends
 * the browser to `redirectUri` (or answers with a self-posting form, for form_post).
 */
export async function atProvider(authorizationUrl: string, redirectUri: string, jar = new CookieJar()): Promise<ProviderAnswer> {
  let url = authorizationUrl
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } })
    jar.apply(response)
    const location = response.headers.get("location")
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href
      if (url.startsWith(redirectUri)) return { kind: "redirect", url }
      continue
    }
    const html = await response.text()
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
    if (response.status === 200 && form) {
      const fields: Record<string, string> = {}
      for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields[input[1]!] = decodeEntities(input[2]!)
      return { kind: "form", action: decodeEntities(form[1]!), fields }
    }
    throw new Error(`The provider answered ${response.status} at ${url}: ${html.slice(0, 300)}`)
  }
  throw new Error("Too many redirects at the provider.")
}

function decodeEntities(value: string): string {
  return value.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
}

/** Hands the provider's answer to the app (GET for a redirect, POST for form_post). */
export function deliver(config: AuthConfig, jar: CookieJar, answer: ProviderAnswer): Promise<Response> {
  return answer.kind === "redirect" ? send(config, answer.url, { jar }) : send(config, answer.action, { jar, form: answer.fields })
}

/** A whole sign-in: start, the provider, the callback. Returns the callback's response. */
export async function signIn(
  config: AuthConfig,
  jar: CookieJar,
  id = "dev",
  options: { query?: Record<string, string>; fields?: Record<string, string> } = {},
): Promise<Response> {
  const start = await startSignIn(config, jar, id, options)
  expect(start.status).toBe(302)
  const location = start.headers.get("location")!
  const answer = await atProvider(location, new URL(location).searchParams.get("redirect_uri")!)
  return deliver(config, jar, answer)
}

/** The session the app reports for `jar`. */
export async function session(config: AuthConfig, jar: CookieJar): Promise<{ user?: Record<string, unknown>; expires?: string } | null> {
  return (await send(config, "/auth/session", { jar })).json()
}

/** Asserts that a flow ended on the sign-in page with `error`, without a session. */
export async function expectRejected(config: AuthConfig, jar: CookieJar, response: Response, error: string): Promise<void> {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location")!)
  expect(`${location.origin}${location.pathname}`).toBe(`${origin}/auth/signin`)
  expect(location.searchParams.get("error")).toBe(error)
  expect(jar.get("sesame.session-token")).toBeUndefined()
  expect(await session(config, jar)).toBeNull()
}

/** The value of a Set-Cookie header for `name`, attributes included. */
export function setCookie(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
}

/** A logger that keeps errors (for assertions) and prints nothing. */
export function quietLogger() {
  const errors: Error[] = []
  return { errors, logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} } }
}
