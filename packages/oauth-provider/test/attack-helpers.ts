/**
 * What the attack tests do by hand, without a client library that would refuse the attack first:
 * raw requests to the token, introspection and revocation endpoints (client authentication as the
 * client registered), a browser walk that stops the moment it would leave the app's origin (so
 * that nothing is ever sent to a redirect URI, and the test sees where it would have gone), the
 * authorization code flow step by step, the device flow's pages, and requests with a forged
 * `Host` (which `fetch` cannot send).
 */
import { request as httpRequest } from "node:http"
import * as client from "openid-client"
import { defaultOptions, formOf, type Browser, type World } from "./world.js"

/** A registered client as the tests present it: its id, its secret when confidential, its first redirect URI. */
export interface Client {
  clientId: string
  secret?: string
  redirectUri?: string
}

/** The client `clientId` of the world's default options, with its secret and first redirect URI. */
export function clientNamed(clientId: string): Client {
  const found = defaultOptions.clients?.find((c) => c.clientId === clientId)
  if (!found) throw new Error(`no client "${clientId}" in the default options`)
  return { clientId, ...(found.clientSecret === undefined ? {} : { secret: found.clientSecret }), ...(found.redirectUris?.[0] ? { redirectUri: found.redirectUris[0] } : {}) }
}

/** The server's discovery document. */
export interface Metadata {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  introspection_endpoint: string
  revocation_endpoint: string
  userinfo_endpoint: string
  jwks_uri: string
  device_authorization_endpoint: string
  registration_endpoint?: string
  [key: string]: unknown
}

const metadataCache = new WeakMap<World, Promise<Metadata>>()

export function metadataOf(world: World): Promise<Metadata> {
  let found = metadataCache.get(world)
  if (!found) {
    found = fetch(`${world.issuer}/.well-known/openid-configuration`).then(async (response) => {
      if (!response.ok) throw new Error(`discovery answered ${response.status}`)
      return (await response.json()) as Metadata
    })
    metadataCache.set(world, found)
  }
  return found
}

/** A JSON answer of the server's back-channel endpoints. */
export interface Answer {
  status: number
  body: Record<string, any>
}

/**
 * A form POST to `url` authenticated as `as`: HTTP Basic with the secret for a confidential
 * client (`client_secret_basic`, as registered), `client_id` in the body for a public one.
 */
export async function postAs(url: string, as: Client, params: Record<string, string>): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }
  const body = new URLSearchParams(params)
  if (as.secret !== undefined) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(as.clientId)}:${encodeURIComponent(as.secret)}`).toString("base64")}`
  else body.set("client_id", as.clientId)
  const response = await fetch(url, { method: "POST", headers, body })
  const text = await response.text()
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, any>) }
}

export async function token(world: World, as: Client, params: Record<string, string>): Promise<Answer> {
  return postAs((await metadataOf(world)).token_endpoint, as, params)
}

export async function introspect(world: World, as: Client, value: string): Promise<Record<string, any>> {
  const answer = await postAs((await metadataOf(world)).introspection_endpoint, as, { token: value })
  if (answer.status !== 200) throw new Error(`introspection answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

export async function revoke(world: World, as: Client, value: string): Promise<Answer> {
  return postAs((await metadataOf(world)).revocation_endpoint, as, { token: value })
}

export async function refresh(world: World, as: Client, refreshToken: string): Promise<Answer> {
  return token(world, as, { grant_type: "refresh_token", refresh_token: refreshToken })
}

/** The userinfo endpoint's status for `accessToken` (200 when the token is accepted there). */
export async function userinfoStatus(world: World, accessToken: string): Promise<number> {
  const response = await fetch((await metadataOf(world)).userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } })
  await response.body?.cancel()
  return response.status
}

/** Where a browser walk ended. */
export interface Walk {
  /** Every URL the browser requested, in order. */
  visited: string[]
  /** The last URL requested on the app's origin. */
  url: string
  status: number
  /** The page shown, when the walk ended on one. */
  html?: string
  /** Where the browser was sent off the app's origin (a client's redirect URI); never requested. */
  left?: URL
}

/**
 * Follows redirects from `url` as a browser does while they stay on the app's origin; a redirect
 * elsewhere ends the walk unrequested (`left`), so nothing ever reaches that address.
 */
export async function walk(browser: Browser, url: string, init: Parameters<Browser["fetch"]>[1] = {}): Promise<Walk> {
  const origin = browser.world.origin
  const visited = [url]
  let at = url
  let response = await browser.fetch(url, init)
  for (let hops = 0; hops < 25; hops++) {
    if (response.status < 300 || response.status >= 400) return { visited, url: at, status: response.status, html: await response.text() }
    const next = new URL(response.headers.get("location")!, at)
    await response.body?.cancel()
    if (next.origin !== origin) return { visited, url: at, status: response.status, left: next }
    at = next.href
    visited.push(at)
    response = await browser.fetch(at)
  }
  throw new Error(`too many redirects, last at ${at}`)
}

/** The uid of the interaction a walk went through (`/auth/oauth/interaction?uid=…`). */
export function interactionUid(steps: Walk): string {
  for (const url of steps.visited) {
    const at = new URL(url)
    if (at.pathname.endsWith("/oauth/interaction") && at.searchParams.get("uid")) return at.searchParams.get("uid")!
  }
  throw new Error(`no interaction in ${steps.visited.join(" → ")}`)
}

/** Whether a walk ended on the module's error page with `error`. */
export function endedOnError(steps: Walk, error: string): boolean {
  const at = new URL(steps.url)
  return steps.left === undefined && at.pathname.endsWith("/auth/oauth/error") && at.searchParams.get("error") === error
}

/** Whether `html` is the module's consent page (its Allow form). */
export function isConsentPage(html: string | undefined): html is string {
  return html !== undefined && /name="decision" value="allow"/.test(html)
}

/** Submits the consent page `html` with `decision`, walking on from the answer. */
export function decide(browser: Browser, html: string, decision: "allow" | "deny"): Promise<Walk> {
  return walk(browser, `${browser.world.origin}/auth/oauth/interaction`, { form: formOf(html, decision) })
}

/** An authorization request's PKCE and state, kept by the client. */
export interface Started {
  url: URL
  verifier: string
  state: string
  redirectUri: string
}

/** An authorization request of `as` (PKCE S256, a state, `prompt=consent`), with `params` over the defaults. */
export async function authorizationRequest(world: World, as: Client, params: Record<string, string | undefined> = {}): Promise<Started> {
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const redirectUri = params.redirect_uri ?? as.redirectUri!
  const url = new URL((await metadataOf(world)).authorization_endpoint)
  const all: Record<string, string | undefined> = {
    client_id: as.clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: "openid email offline_access",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    prompt: "consent",
    ...params,
  }
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value)
  return { url, verifier, state, redirectUri }
}

/** A code the user of `browser` gives `as` (answering the consent page with `decision`), and what the client kept. */
export interface Authorized extends Started {
  /** Where the browser was sent at the end: the client's redirect URI, with the code or an error. */
  callback: URL
  code: string | null
}

export async function authorize(world: World, browser: Browser, as: Client, params: Record<string, string | undefined> = {}, decision: "allow" | "deny" = "allow"): Promise<Authorized> {
  const started = await authorizationRequest(world, as, params)
  let steps = await walk(browser, started.url.href)
  if (isConsentPage(steps.html)) steps = await decide(browser, steps.html, decision)
  if (!steps.left) throw new Error(`the authorization ended on ${steps.url} (${steps.status}), not at the client:\n${steps.html?.slice(0, 2000)}`)
  return { ...started, callback: steps.left, code: steps.left.searchParams.get("code") }
}

/** Exchanges `code` as `as`, with the verifier and redirect URI given (each may be overridden or left out). */
export function exchange(world: World, as: Client, code: string, extra: Record<string, string | undefined>): Promise<Answer> {
  const params: Record<string, string> = { grant_type: "authorization_code", code }
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) params[name] = value
  return token(world, as, params)
}

/** The whole flow: the user of `browser` allows `as`, and the client exchanges the code. */
export async function tokensFor(world: World, browser: Browser, as: Client, params: Record<string, string | undefined> = {}, tokenParams: Record<string, string> = {}): Promise<Record<string, any>> {
  const authorized = await authorize(world, browser, as, params)
  if (!authorized.code) throw new Error(`no code: ${authorized.callback.href}`)
  const answer = await exchange(world, as, authorized.code, { code_verifier: authorized.verifier, redirect_uri: authorized.redirectUri, ...tokenParams })
  if (answer.status !== 200) throw new Error(`the code exchange answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

/** The hidden fields of the first form of `html` that has a field named `field`. */
export function formWith(html: string, field: string): Record<string, string> {
  const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(`name="${field}"`))
  if (!form) throw new Error(`no form with "${field}" on the page:\n${html}`)
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll("&amp;", "&")]))
}

/** A device authorization (RFC 8628) asked by `as`. */
export async function deviceAuthorization(world: World, as: Client, scope = "openid"): Promise<{ device_code: string; user_code: string; [key: string]: unknown }> {
  const answer = await postAs((await metadataOf(world)).device_authorization_endpoint, as, { scope })
  if (answer.status !== 200) throw new Error(`the device authorization answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body as { device_code: string; user_code: string }
}

export function pollDevice(world: World, as: Client, deviceCode: string): Promise<Answer> {
  return token(world, as, { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCode })
}

/**
 * The user of `browser` enters `userCode` at `<issuer>/device` (through the module's pages), then
 * confirms it or cancels, then allows or denies on the consent page when asked. The walk's end.
 */
export async function answerDevice(world: World, browser: Browser, userCode: string, choice: "allow" | "deny" | "cancel"): Promise<Walk> {
  const start = await walk(browser, `${world.issuer}/device`)
  if (start.status !== 200 || !start.html) throw new Error(`the device page answered ${start.status} at ${start.url}`)
  const xsrf = formWith(start.html, "xsrf").xsrf!
  const confirmPage = await walk(browser, `${world.issuer}/device`, { form: { xsrf, user_code: userCode } })
  if (!confirmPage.html?.includes('name="confirm"')) throw new Error(`no confirmation page at ${confirmPage.url}:\n${confirmPage.html}`)
  let steps = await walk(browser, `${world.issuer}/device`, { form: formWith(confirmPage.html, choice === "cancel" ? "abort" : "confirm") })
  if (choice !== "cancel" && isConsentPage(steps.html)) steps = await decide(browser, steps.html, choice)
  return steps
}

/** A GET with headers `fetch` will not send (a forged `Host`), over plain HTTP to the world's server. */
export function rawGet(world: World, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(world.origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: Number(port), path, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })
}

/** Every string in a JSON value, with where it was. */
export function stringsOf(value: unknown, at = "$"): [string, string][] {
  if (typeof value === "string") return [[at, value]]
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsOf(v, `${at}[${i}]`))
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringsOf(v, `${at}.${k}`))
  return []
}
