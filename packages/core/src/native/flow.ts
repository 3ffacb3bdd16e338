/**
 * The native-app sign-in (RFC 8252, with PKCE as RFC 7636 and RFC 9700 ask):
 *
 * 1. `GET native/authorize?redirect_uri&code_challenge&code_challenge_method=S256[&state]`, opened by
 *    the app in the system browser. A redirect URI that is not configured is refused with a `400`,
 *    never followed. Without a session, the browser goes to the sign-in page and comes back here.
 *    With one (the browser's own cookie, live), a page asks the user to confirm: RFC 8252 §8.6
 *    warns against authorizing a client that cannot prove who it is without asking, and here any
 *    page or program on the device could open the URL. Only the confirmation's `POST` (CSRF token
 *    and same-origin checked by the dispatcher) makes a code, and the browser is sent to the
 *    redirect URI with `code`, `state` and `iss` (RFC 9207, so that an app talking to several
 *    servers knows which answered); "Cancel" sends it there with `error=access_denied`.
 * 2. `POST native/token` (`code`, `code_verifier`, `redirect_uri`), from the app. The code must open,
 *    be unexpired, name this redirect URI, match the verifier (S256, compared in constant time) and
 *    not have been used: each failure is the same `400 invalid_grant`, and the code's single use is
 *    spent only once the verifier matched; the browser's session it came from must still be live (a
 *    sign-out in between takes it back). The answer is a new database session for the user, as
 *    `{ sessionToken, tokenType: "Bearer", expiresAt }`: a continuation of the browser's sign-in
 *    (its start is the browser's), so it is no fresher, and lives no longer, than the sign-in it
 *    came from.
 *
 * @module
 */
import { currentActing } from "../session/acting.js"
import { stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import { backend } from "#crypto"
import { base64url } from "../crypto/encoding.js"
import { timingSafeEqual } from "../crypto/timing.js"
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { issuerOf } from "../http/issuer.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { translatorFor } from "../pages/where.js"
import { nativeAppPage } from "./page.js"
import { liveStoredSession, storeSession } from "../session/database.js"
import { storedSessionLive, storedStart } from "../session/lifetime.js"
import { codeIdentifier, codePurpose, openCode, sealCode } from "./code.js"
import { allowedRedirectUri, type ResolvedNativeApps } from "./settings.js"

/** RFC 7636 §4.1: 43 to 128 unreserved characters; §4.2: S256 gives 43 base64url characters. */
const verifierShape = /^[A-Za-z0-9\-._~]{43,128}$/
const challengeShape = /^[A-Za-z0-9_-]{43}$/

function settingsOf(ctx: RequestContext): ResolvedNativeApps {
  const settings = ctx.config.nativeApps
  if (!settings) throw new BadRequest("Native app sign-in is not enabled (`nativeApps`).", 404)
  return settings
}

/** The authorization request's parameters, from the query (GET) or the confirmation form (POST), checked. */
function authorizationRequest(ctx: RequestContext, settings: ResolvedNativeApps): { redirectUri: string; challenge: string; state: string | undefined } {
  const source = ctx.method === "POST" ? ctx.body : ctx.query
  const field = (name: string) => (typeof source[name] === "string" ? (source[name] as string) : undefined)
  const redirectUri = field("redirect_uri")
  const challenge = field("code_challenge")
  const state = field("state")
  if (!allowedRedirectUri(settings, redirectUri)) throw new BadRequest("The redirect_uri is not one of the configured nativeApps.redirectUris.")
  if (field("code_challenge_method") !== "S256" || !challenge || !challengeShape.test(challenge)) {
    throw new BadRequest("A code_challenge (S256: 43 base64url characters) and code_challenge_method=S256 are required.")
  }
  if (state !== undefined && state.length > 512) throw new BadRequest("The state is too long.")
  return { redirectUri, challenge, state }
}

/**
 * `redirectUri` with the answer's parameters, and `iss` (RFC 9207): `issuerOf(ctx)`, fixed from
 * `AUTH_URL`, never from the request's host (`http/issuer.ts`). Not `apiTokens.issuer`: that names
 * the API tokens' issuer, which an app may have chosen otherwise, while a native app checks this
 * one against the endpoints' URL it was built with.
 */
function answerUrl(issuer: string, redirectUri: string, params: Record<string, string | undefined>): string {
  const target = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) target.searchParams.set(name, value)
  target.searchParams.set("iss", issuer)
  return target.href
}

/** `GET native/authorize`: the sign-in page without a session, else the confirmation page. */
export async function showNativeAuthorize(ctx: RequestContext): Promise<InternalResponse> {
  const settings = settingsOf(ctx)
  const { redirectUri, challenge, state } = authorizationRequest(ctx, settings)
  const signedIn = await signedInSession(ctx, settings)
  if (!signedIn) {
    const signIn = new URL(`${ctx.authUrl}/signin`)
    signIn.searchParams.set("callbackUrl", `${ctx.url.pathname}${ctx.url.search}`)
    return { redirect: signIn.href, headers: { ...noStore }, cookies: ctx.setCookies }
  }
  const { token } = await ctx.csrf()
  const fields = { redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", ...(state === undefined ? {} : { state }) }
  const response = nativeAppPage(
    {
      action: `${ctx.authUrl}/native/authorize`,
      csrfToken: token,
      account: signedIn.user.email || signedIn.user.name || signedIn.user.id,
      target: redirectUri,
      fields,
      cancelUrl: answerUrl(issuerOf(ctx), redirectUri, { error: "access_denied", state }),
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...response, headers: { ...response.headers, ...noStore }, cookies: ctx.setCookies }
}

/** `POST native/authorize` (CSRF and same-origin checked by the dispatcher): the code, to the app. */
export async function confirmNativeAuthorize(ctx: RequestContext): Promise<InternalResponse> {
  const settings = settingsOf(ctx)
  const { redirectUri, challenge, state } = authorizationRequest(ctx, settings)
  const signedIn = await signedInSession(ctx, settings)
  if (!signedIn) throw new BadRequest("Sign in first.", 403)
  // Before the code is made: an answer that cannot name its issuer makes none.
  const issuer = issuerOf(ctx)
  const code = await sealCode(settings.adapter, ctx.config.secrets, {
    userId: signedIn.user.id,
    sessionHash: signedIn.hash,
    redirectUri,
    challenge,
    ...(signedIn.startedAt === undefined ? {} : { signedInAt: signedIn.startedAt }),
  })
  return { redirect: answerUrl(issuer, redirectUri, { code, state }), headers: { ...noStore }, cookies: ctx.setCookies }
}

/**
 * The browser's own session (its cookie, never a bearer token: `http/bearer.ts` applies to reads
 * only), live, with its user, hash and start; null without one. A cookie sent twice (one planted
 * by a sibling subdomain) counts as none, and so does an acting session (`session/acting.ts`).
 */
async function signedInSession(ctx: RequestContext, settings: ResolvedNativeApps) {
  if (ctx.cookies.repeated.has(ctx.cookieOptions.sessionToken.name)) return null
  // An acting session (an admin as the user) hands no app a session of the user's own.
  if (await currentActing(ctx)) return null
  const found = await liveStoredSession(ctx, settings.adapter)
  return found && { user: found.user, hash: found.hash, startedAt: storedStart(found.session) }
}

function invalidGrant(message: string): BadRequest {
  return new BadRequest(message, 400, "invalid_grant")
}

export async function exchangeNativeCode(ctx: RequestContext): Promise<InternalResponse> {
  const settings = settingsOf(ctx)
  const field = (name: string) => (typeof ctx.body[name] === "string" ? (ctx.body[name] as string) : undefined)
  const grantType = field("grant_type")
  if (grantType !== undefined && grantType !== "authorization_code") throw new BadRequest("grant_type must be authorization_code.", 400, "unsupported_grant_type")
  const code = field("code")
  const verifier = field("code_verifier")
  const redirectUri = field("redirect_uri")
  if (!code || !verifier || !redirectUri) throw new BadRequest("code, code_verifier and redirect_uri are required.", 400, "invalid_request")
  const opened = await openCode(ctx.config.secrets, code)
  if (!opened || opened.redirectUri !== redirectUri || !verifierShape.test(verifier)) throw invalidGrant("The code is not valid.")
  const computed = base64url(await backend.sha256(verifier))
  if (!timingSafeEqual(computed, opened.challenge)) throw invalidGrant("The code is not valid.")
  const used = await useOneTime(settings.adapter, codeIdentifier, codePurpose, opened.codeId, ctx.config.secrets, ctx.spentOneTime)
  if (!used || !stillValid(used)) throw invalidGrant("The code is not valid.")
  // The browser's session it came from must still be live: a sign-out or revocation in the code's
  // two minutes takes it back.
  const browser = await settings.adapter.getSessionAndUser(opened.sessionHash)
  if (!browser || browser.user.id !== opened.userId || !storedSessionLive(ctx.config.session, browser.session, Date.now())) {
    throw invalidGrant("The code is not valid.")
  }
  const session = await storeSession(ctx, settings.adapter, opened.userId, { startedAt: opened.signedInAt ?? null })
  return {
    status: 200,
    body: { sessionToken: session.token, tokenType: "Bearer", expiresAt: session.expires.toISOString() },
    headers: { ...noStore },
  }
}
