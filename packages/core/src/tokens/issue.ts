/**
 * Making an API token for the request's signed-in user: a JWT (`typ: at+jwt`, RFC 9068) signed
 * with the key ring's current key, carrying `iss` (`apiTokens.issuer`, else fixed from `AUTH_URL`,
 * never from a request's host: `http/issuer.ts`), `aud`, `sub` (the user's id), `iat`, `nbf`,
 * `exp` and a random `jti`, plus the plugins' claims (`tokenClaims`) and the app's own
 * (`apiTokens.claims`), which may replace the plugins' but not those.
 *
 * The subject is the user `signedInUserId` names (a session cookie sent twice, the sign of one
 * planted by a sibling subdomain, counts as nobody), and the session read runs as for `GET session`,
 * so the token request keeps the session alive as any other read does.
 *
 * @module
 */
import { SignJWT, type JWK } from "jose"
import { currentActing } from "../session/acting.js"
import { randomToken } from "../crypto/encoding.js"
import { CallbackRouteError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { issuerOf } from "../http/issuer.js"
import { moduleTokenClaims } from "../modules/session.js"
import { signedInUserId } from "../session/index.js"
import type { ResolvedApiTokens } from "./settings.js"

/** What `GET <basePath>/token` answers to a signed-in user. */
export interface IssuedApiToken {
  /** The signed JWT, for `Authorization: Bearer <token>`. */
  token: string
  tokenType: "Bearer"
  /** When it expires, as an ISO 8601 date. */
  expiresAt: string
}

/** A token for the request's signed-in user; null when nobody is signed in. */
export async function issueApiToken(ctx: RequestContext, settings: ResolvedApiTokens): Promise<IssuedApiToken | null> {
  // First: a host the issuer cannot come from is the configuration error whoever asks, signed in or
  // not, so that the log names the fix at the first try (`http/issuer.ts`).
  const issuer = issuerOf(ctx, settings.issuer)
  const session = await ctx.config.sessionStrategy.read(ctx)
  if (!session) return null
  const userId = await signedInUserId(ctx)
  if (!userId) return null
  // The plugins' claims first (the active organization, say): the app's, then the registered ones, win over them.
  const plugins = await moduleTokenClaims(ctx.config.modules, userId, session as unknown as Record<string, unknown>)
  let extra: Record<string, unknown> = {}
  if (settings.claims) {
    try {
      extra = (await settings.claims({ userId, session })) ?? {}
    } catch (error) {
      throw new CallbackRouteError("The apiTokens.claims callback threw.", { cause: error })
    }
    if (typeof extra !== "object" || Array.isArray(extra)) throw new CallbackRouteError("The apiTokens.claims callback must return an object of claims.")
  }
  // An acting session's token says who acts (RFC 8693 `act`), whatever the app's claims say, and
  // lives no longer than the acting: an API sees an impersonation as the pages do.
  const acting = await currentActing(ctx)
  const { act: _act, ...rest } = { ...plugins, ...extra }
  extra = acting ? { ...rest, act: { sub: acting.actorId } } : rest
  const key = await settings.keys.signing()
  const now = Math.floor(Date.now() / 1000)
  const exp = Math.min(now + settings.maxAge, acting ? Math.floor(acting.endsAt / 1000) : Number.POSITIVE_INFINITY)
  // The setters below run after the app's claims are in: they replace any registered claim it set.
  const token = await new SignJWT(extra)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setAudience(settings.audience)
    .setSubject(userId)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .setJti(randomToken(16))
    .sign(key.key)
  return { token, tokenType: "Bearer", expiresAt: new Date(exp * 1000).toISOString() }
}

/** The key set verifiers fetch. */
export async function publishedKeys(settings: ResolvedApiTokens): Promise<{ keys: JWK[] }> {
  return { keys: await settings.keys.published() }
}
