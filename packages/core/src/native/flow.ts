/**
 * The native-app sign-in (RFC 8252, with PKCE as RFC 7636 and RFC 9700 ask):
 *
 * 1. `GET native/authorize?redirect_uri&code_challenge&code_challenge_method=S256[&state]`, opened by
 *    the app in the system browser. A redirect URI that is not configured is refused with a `400`,
 *    never followed. Without a session, the browser goes to the sign-in page and comes back here.
 *    With one (from its cookie, never from a bearer token), the browser is sent to the redirect URI
 *    with `code`, `state` and `iss` (RFC 9207, so that an app talking to several servers knows
 *    which answered).
 * 2. `POST native/token` (`code`, `code_verifier`, `redirect_uri`), from the app. The code must open,
 *    be unexpired, name this redirect URI, match the verifier (S256, compared in constant time) and
 *    not have been used: each failure is the same `400 invalid_grant`, and the code's single use is
 *    spent only once the verifier matched. The answer is a new database session for the user, as
 *    `{ sessionToken, tokenType: "Bearer", expiresAt }`: a continuation of the browser's sign-in
 *    (its start is the browser's), so it is no fresher, and lives no longer, than the sign-in it
 *    came from.
 *
 * @module
 */
import { stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import { backend } from "#crypto"
import { base64url } from "../crypto/encoding.js"
import { timingSafeEqual } from "../crypto/timing.js"
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { storeSession } from "../session/database.js"
import { signedInUserId } from "../session/index.js"
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

export async function authorizeNativeApp(ctx: RequestContext): Promise<InternalResponse> {
  const settings = settingsOf(ctx)
  const { redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: method, state } = ctx.query
  if (!allowedRedirectUri(settings, redirectUri)) throw new BadRequest("The redirect_uri is not one of the configured nativeApps.redirectUris.")
  if (method !== "S256" || !challenge || !challengeShape.test(challenge)) {
    throw new BadRequest("A code_challenge (S256: 43 base64url characters) and code_challenge_method=S256 are required.")
  }
  if (state !== undefined && state.length > 512) throw new BadRequest("The state is too long.")
  const userId = ctx.bearer ? null : await signedInUserId(ctx)
  if (!userId) {
    const signIn = new URL(`${ctx.authUrl}/signin`)
    signIn.searchParams.set("callbackUrl", `${ctx.url.pathname}${ctx.url.search}`)
    return { redirect: signIn.href, headers: { ...noStore }, cookies: ctx.setCookies }
  }
  const strategy = ctx.config.sessionStrategy
  const signedInAt = await strategy.signedInAt(ctx)
  const code = await sealCode(settings.adapter, ctx.config.secrets, {
    userId,
    redirectUri,
    challenge,
    ...(signedInAt === undefined ? {} : { signedInAt }),
  })
  const target = new URL(redirectUri)
  target.searchParams.set("code", code)
  if (state !== undefined) target.searchParams.set("state", state)
  target.searchParams.set("iss", ctx.authUrl)
  return { redirect: target.href, headers: { ...noStore }, cookies: ctx.setCookies }
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
  const used = await useOneTime(settings.adapter, codeIdentifier, codePurpose, opened.codeId, ctx.config.secrets)
  if (!used || !stillValid(used)) throw invalidGrant("The code is not valid.")
  const user = await settings.adapter.getUser(opened.userId)
  if (!user) throw invalidGrant("The code is not valid.")
  const session = await storeSession(ctx, settings.adapter, user.id, { startedAt: opened.signedInAt })
  return {
    status: 200,
    body: { sessionToken: session.token, tokenType: "Bearer", expiresAt: session.expires.toISOString() },
    headers: { ...noStore },
  }
}
