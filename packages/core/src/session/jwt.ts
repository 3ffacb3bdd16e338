/**
 * JWT sessions.
 *
 * Policy: the session lives in an encrypted token (JWE) in the session cookie, chunked when large.
 * Every read re-encrypts it with a new expiry (sliding `maxAge`), so an active user stays signed
 * in and an idle one is signed out after `maxAge`. A token that does not decrypt, has expired, or
 * whose `jwt` callback returns null ends the session: the cookie is cleared and the answer is
 * `null`, never an error. There is nothing to revoke on the server; sign-out clears the cookie.
 *
 * A read without a session cookie returns at once: no cryptography, no cookie.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import { JWTSessionError } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js"
import type { JWT } from "../jwt/index.js"
import type { Session, User } from "../types.js"
import type { SessionStrategy } from "./types.js"

async function decodeCookie(ctx: RequestContext): Promise<{ present: boolean; token: JWT | null }> {
  const { name } = ctx.cookieOptions.sessionToken
  const raw = readChunkedCookie(ctx.cookies as Map<string, string>, name)
  if (!raw) return { present: false, token: null }
  try {
    const token = await ctx.config.jwt.decode({ token: raw, secret: ctx.config.secrets as string[], salt: name })
    return { present: true, token }
  } catch (error) {
    // A custom decoder that throws is treated like an invalid token.
    ctx.config.logger.debug("session token did not decode", { error: error instanceof Error ? error.name : "unknown" })
    return { present: true, token: null }
  }
}

function clearSessionCookie(ctx: RequestContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.setCookies.push(...clearChunkedCookie(name, options, ctx.cookies as Map<string, string>))
}

async function writeSessionCookie(ctx: RequestContext, token: JWT, expires: Date): Promise<void> {
  const { config } = ctx
  const { name, options } = ctx.cookieOptions.sessionToken
  const encoded = await config.jwt.encode({ token, secret: config.secrets as string[], salt: name, maxAge: config.jwt.maxAge })
  ctx.setCookies.push(...writeChunkedCookie(name, encoded, { ...options, expires }, ctx.cookies as Map<string, string>))
}

function newExpiry(ctx: RequestContext): Date {
  return new Date(Date.now() + ctx.config.session.maxAge * 1000)
}

export const jwtStrategy: SessionStrategy = {
  async read(ctx, update) {
    const { config } = ctx
    const { present, token } = await decodeCookie(ctx)
    if (!present) return null
    if (!token) {
      clearSessionCookie(ctx)
      return null
    }
    try {
      const next = await config.callbacks.jwt(update ? { token, trigger: "update", session: update.data } : { token })
      if (!next) {
        clearSessionCookie(ctx)
        return null
      }
      const expires = newExpiry(ctx)
      const defaults: Session = {
        user: { name: next.name ?? null, email: next.email ?? null, image: next.picture ?? null },
        expires: expires.toISOString(),
      }
      const session = (await config.callbacks.session(
        update ? { session: defaults, token: next, trigger: "update", newSession: update.data } : { session: defaults, token: next },
      )) as Session
      // Written last, so that a callback that throws leaves no half-updated cookie behind.
      await writeSessionCookie(ctx, next, expires)
      await emit(config, "session", { session, token: next })
      return session
    } catch (error) {
      // A callback failed: fail closed (signed out) and say why in the log.
      config.logger.error(new JWTSessionError("Reading the JWT session failed.", { cause: error }))
      clearSessionCookie(ctx)
      return null
    }
  },

  async start(ctx, { user, account, profile, isNewUser }) {
    const { config } = ctx
    const initial: JWT = {
      name: user.name ?? null,
      email: user.email ?? null,
      picture: user.image ?? null,
      ...(user.id !== undefined ? { sub: String(user.id) } : {}),
    }
    const token = await config.callbacks.jwt({
      token: initial,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    })
    if (token === null) {
      clearSessionCookie(ctx)
      return
    }
    await writeSessionCookie(ctx, token, newExpiry(ctx))
  },

  async end(ctx) {
    const { token } = await decodeCookie(ctx)
    await emit(ctx.config, "signOut", { token })
    clearSessionCookie(ctx)
  },

  async currentUser(ctx): Promise<User | AdapterUser | null> {
    const { token } = await decodeCookie(ctx)
    if (!token?.sub) return null
    const { adapter } = ctx.config
    if (adapter) return adapter.getUser(token.sub)
    return { id: token.sub, name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null }
  },
}
