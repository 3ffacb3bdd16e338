/**
 * Auth.js v5 database sessions, found by the raw token and re-keyed to Sesame's form (`session.ts`
 * says when).
 *
 * Auth.js keeps the cookie's token as it is in the row's `sessionToken`; Sesame keeps its SHA-256
 * (`session/token.ts`). So an Auth.js cookie is looked up as it is (`getSessionAndUser(raw)`), and a
 * live session is replaced by a Sesame one for the same user, ending no later than the old row did
 * (Auth.js's expiry, extended from then on by Sesame's rule), its start unknown (`createdAt` null,
 * never now); the old row is deleted. Only operations of the spec's adapter contract are used:
 * `getSessionAndUser`, `createSession`, `deleteSession`.
 *
 * The new token is not random but derived from the Auth.js token (HMAC-SHA-256 keyed with the
 * secret): carrying over is then idempotent. An answer whose cookies never reach the browser (a
 * server component cannot set cookies, a server function returns none) leaves it with the Auth.js
 * cookie alone, whose row is gone; its next request derives the same token and finds the session
 * carried over, instead of being signed out. The derived token is worth no more than the Auth.js
 * token it comes from, which already was the session's credential; it stops working with the
 * session (sign-out, expiry). The stored hash of a derived token is useless without the secret.
 *
 * The danger: a raw lookup in a table that also holds Sesame's hashes. Whoever read that table (a
 * backup, a log, a read-only SQL injection) holds every Sesame session's stored value; sent as
 * Auth.js's cookie, a stored value would find its own row and become a session. Two checks stop it:
 * - A value of exactly 64 hex digits, the form of every hash Sesame stores, is never looked up, in
 *   either case (a database may compare case-insensitively). Auth.js v5's tokens are UUIDs
 *   (`crypto.randomUUID`), which never have that form; the price is that a token of 64 hex digits
 *   (Auth.js v4 on runtimes without `randomUUID`, or an app's own `generateSessionToken`) is not
 *   carried over, since no lookup could tell it from a stolen hash: those users sign in again. Nor is
 *   anything but 1 to 512 visible ASCII characters, which Auth.js never made.
 * - The row found must hold exactly the value sent: a database collation that folds case, pads
 *   trailing spaces or ignores characters could otherwise match a dressed-up hash to its row.
 *
 * @module
 */
import { backend } from "#crypto"
import type { CheckedAdapter } from "../../adapters/wrap.js"
import { base64url, encoder } from "../../crypto/encoding.js"
import type { RequestContext } from "../../http/context.js"
import { setSessionCookie, storeSession } from "../../session/database.js"
import { storedSessionLive } from "../../session/lifetime.js"
import { hashSessionToken, maxSessionTokenLength } from "../../session/token.js"
import type { CarryOver } from "./session.js"

const storedHashForm = /^[0-9a-f]{64}$/i
const visibleAscii = /^[\x21-\x7e]+$/

/** Whether `value` may be looked up as the raw token of an Auth.js session (see the module comment). */
export function mayBeAuthjsSessionToken(value: string): boolean {
  return value.length <= maxSessionTokenLength && visibleAscii.test(value) && !storedHashForm.test(value)
}

/** The Sesame token an Auth.js token `raw` is carried over to, under `secret`. */
async function carriedToken(raw: string, secret: string): Promise<string> {
  return base64url(await backend.hmacSha256(encoder.encode(secret), `sesame-authjs-session:${raw}`))
}

/**
 * The Sesame session `raw` was carried over to before, while it lives (its cookie is set again); false
 * when there is none. Each secret is tried: the app may have rotated it since.
 */
async function carriedBefore(ctx: RequestContext, adapter: CheckedAdapter, raw: string): Promise<boolean> {
  const now = Date.now()
  for (const secret of ctx.config.secrets) {
    const token = await carriedToken(raw, secret)
    const found = await adapter.getSessionAndUser(await hashSessionToken(token))
    if (!found || !storedSessionLive(ctx.config.session, found.session, now)) continue
    setSessionCookie(ctx, token, new Date(found.session.expires))
    return true
  }
  return false
}

/** Re-keys the Auth.js session whose cookie holds `raw`, when it is live, and sets Sesame's cookie for it. */
export async function carryOverStoredSession(ctx: RequestContext, adapter: CheckedAdapter, raw: string): Promise<CarryOver> {
  if (!mayBeAuthjsSessionToken(raw)) return "none"
  if (await carriedBefore(ctx, adapter, raw)) return "carried"
  const found = await adapter.getSessionAndUser(raw)
  if (!found || found.session.sessionToken !== raw) return "none"
  if (!storedSessionLive(ctx.config.session, found.session, Date.now())) {
    await adapter.deleteSession(raw)
    return "none"
  }
  let stored
  try {
    stored = await storeSession(ctx, adapter, String(found.user.id), {
      token: await carriedToken(raw, ctx.config.secrets[0]!),
      startedAt: null,
      notAfter: new Date(found.session.expires),
    })
  } catch (error) {
    // Two first requests at once derive the same token: the second's row conflicts with the first's,
    // which is this very session carried over.
    if (await carriedBefore(ctx, adapter, raw)) return "carried"
    throw error
  }
  setSessionCookie(ctx, stored.token, stored.expires)
  // The new session stands either way; a row left behind (logged) is found no more while the one
  // carried over lives (`carriedBefore` comes first), and ends when Auth.js would have ended it.
  await adapter.deleteSession(raw).catch((error: unknown) => ctx.config.logger.error(error instanceof Error ? error : new Error(String(error))))
  return "carried"
}
