/**
 * Partner notes and Living-room TV, the two apps of the page /dev/partner, as OAuth clients of the
 * demo's authorization server (`@sesame/oauth-provider`, lib/store.ts): server-side code with
 * `openid-client`, talking to the server over HTTP through its discovery document, as any other
 * client would. Nothing here reads the demo's database or session: each app knows the issuer, its
 * client ID and (Partner notes only) its secret.
 *
 * What each app remembers lives in a cookie of its own on the browser (path `/dev/partner`,
 * HttpOnly, signed with a key of Partner notes' own), standing for the app's session on its own
 * site, and for the TV's memory:
 * - `partner-notes-signin`: the state and PKCE code verifier of a sign-in under way (10 minutes);
 * - `partner-notes-session`: whom Partner notes signed in, and the scopes it was granted;
 * - `partner-tv`: the device code and the user code of the TV's sign-in, then whom it signed in.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import * as client from "openid-client"
import { basePath } from "../../../auth"
import { publicOrigin } from "../../../lib/api"
import { livingRoomTv, partnerNotes, partnerRedirectUri, partnerSecret } from "../../../lib/partner"

export const partnerPath = "/dev/partner"

/** The authorization server's issuer (`<AUTH_URL>/oauth`), or null without AUTH_URL. */
export function partnerIssuer(): string | null {
  const origin = publicOrigin()
  return origin ? `${origin}${basePath}/oauth` : null
}

/** The page's absolute URL, for the redirects of route handlers (from AUTH_URL, never a request's Host). */
export const partnerPageUrl = (search = "") => `${publicOrigin() ?? "http://localhost:3000"}${partnerPath}${search}`

const configurations = new Map<string, Promise<client.Configuration>>()

/**
 * The client's configuration from the server's discovery document, fetched once per client. The
 * demo's server is http on localhost, which openid-client refuses unless told:
 * `allowInsecureRequests` is for that alone (an https issuer never gets it).
 */
function configuration(clientId: string, clientSecret?: string): Promise<client.Configuration> {
  const issuer = partnerIssuer()
  if (!issuer) return Promise.reject(new Error("AUTH_URL is not set: start the demo with npm start."))
  const key = `${issuer} ${clientId}`
  let found = configurations.get(key)
  if (!found) {
    const insecure = new URL(issuer).protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined
    found = client.discovery(new URL(issuer), clientId, clientSecret, clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret), insecure)
    found.catch(() => configurations.delete(key))
    configurations.set(key, found)
  }
  return found
}

const partnerConfiguration = () => configuration(partnerNotes.clientId, partnerSecret)
const tvConfiguration = () => configuration(livingRoomTv.clientId)

/** The address (else the id) of the user the tokens are for: the ID token's claims, else userinfo. */
async function whoFrom(config: client.Configuration, tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): Promise<string> {
  const claims = tokens.claims()
  if (typeof claims?.email === "string") return claims.email
  const info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? client.skipSubjectCheck)
  return typeof info.email === "string" ? info.email : (claims?.sub ?? info.sub)
}

// ---- The apps' cookies ----

export const cookieNames = { signIn: "partner-notes-signin", session: "partner-notes-session", tv: "partner-tv" } as const
type CookieName = (typeof cookieNames)[keyof typeof cookieNames]

/** Partner notes' key for its cookies, one per cookie name (a value of one is no value of another). */
const cookieKey = (name: CookieName) => createHmac("sha256", partnerSecret).update(`partner-notes cookie ${name}`).digest()

/** `value` as a cookie value: its JSON, and the signature that says the app wrote it. */
export function sealCookie(name: CookieName, value: unknown): string {
  const body = Buffer.from(JSON.stringify(value)).toString("base64url")
  return `${body}.${createHmac("sha256", cookieKey(name)).update(body).digest("base64url")}`
}

/** What `sealCookie` wrote, or null for anything else (absent, changed, not JSON). */
export function openCookie<T>(name: CookieName, cookie: string | undefined): T | null {
  const [body, mac] = cookie?.split(".") ?? []
  if (!body || !mac) return null
  const expected = createHmac("sha256", cookieKey(name)).update(body).digest()
  const given = Buffer.from(mac, "base64url")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T
  } catch {
    return null
  }
}

/** The options of the apps' cookies: HttpOnly, for the page and its routes only. */
export function cookieOptions(maxAge?: number) {
  const secure = publicOrigin()?.startsWith("https:") ?? false
  return { httpOnly: true, sameSite: "lax" as const, secure, path: partnerPath, ...(maxAge === undefined ? {} : { maxAge }) }
}

// ---- Partner notes: the authorization code with PKCE ----

/** A sign-in under way: what the callback checks the answer against. */
export interface SignInStarted {
  state: string
  verifier: string
}

/** Whom Partner notes signed in, and what the user allowed it. */
export interface PartnerSession {
  email: string
  scopes: string[]
}

/** The authorization request to send the browser to, and what to keep until the callback. */
export async function startSignIn(): Promise<{ url: URL; started: SignInStarted }> {
  const config = await partnerConfiguration()
  const started = { state: client.randomState(), verifier: client.randomPKCECodeVerifier() }
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: partnerRedirectUri(),
    scope: partnerNotes.scope,
    code_challenge: await client.calculatePKCECodeChallenge(started.verifier),
    code_challenge_method: "S256",
    state: started.state,
  })
  return { url, started }
}

/**
 * The callback's answer (`code`, `state`, `iss`; or `error`) exchanged for tokens: the state and
 * the PKCE verifier must be the ones of the sign-in this browser started. The URL checked is the
 * registered redirect URI with the answer's parameters, not the request's own (whose host the
 * request names).
 */
export async function finishSignIn(answer: URLSearchParams, started: SignInStarted): Promise<PartnerSession> {
  const config = await partnerConfiguration()
  const callback = new URL(partnerRedirectUri())
  callback.search = answer.toString()
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state })
  return { email: await whoFrom(config, tokens), scopes: (tokens.scope ?? partnerNotes.scope).split(" ").filter(Boolean) }
}

// ---- Living-room TV: the device flow ----

/** The TV's memory: the codes it shows and polls with, or whom it signed in. */
export type TvState =
  | { step: "code"; deviceCode: string; userCode: string; verificationUri: string; expiresAt: number }
  | { step: "signed-in"; email: string }

/** A device authorization: the code the TV shows, and where to enter it. */
export async function startTv(): Promise<TvState & { step: "code" }> {
  const device = await client.initiateDeviceAuthorization(await tvConfiguration(), { scope: livingRoomTv.scope })
  return {
    step: "code",
    deviceCode: device.device_code,
    userCode: device.user_code,
    verificationUri: device.verification_uri,
    expiresAt: Date.now() + device.expires_in * 1000,
  }
}

export type TvCheck = { outcome: "signed-in"; email: string } | { outcome: "waiting" | "denied" | "expired" }

/**
 * One token request with the device code, as a TV polling would make every few seconds: tokens
 * once the user allowed it, else what the server said (`authorization_pending`, `access_denied`,
 * `expired_token`). Any other refusal throws.
 */
export async function checkTv(deviceCode: string): Promise<TvCheck> {
  const config = await tvConfiguration()
  try {
    const tokens = await client.genericGrantRequest(config, "urn:ietf:params:oauth:grant-type:device_code", { device_code: deviceCode })
    return { outcome: "signed-in", email: await whoFrom(config, tokens) }
  } catch (error) {
    if (error instanceof client.ResponseBodyError) {
      if (error.error === "authorization_pending" || error.error === "slow_down") return { outcome: "waiting" }
      if (error.error === "access_denied") return { outcome: "denied" }
      if (error.error === "expired_token" || error.error === "invalid_grant") return { outcome: "expired" }
    }
    throw error
  }
}
