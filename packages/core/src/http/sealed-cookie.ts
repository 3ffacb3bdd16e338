/**
 * Sealed cookies: values the server hands the browser to bring back on a later request of the
 * same flow (the OAuth check values, the passkey challenge), that the browser can neither read nor
 * change.
 *
 * A sealed value is a session-style JWE (`jwt/`) under the app's secrets, with the cookie's name
 * as salt, so that one cookie's value is worthless in another; it expires on its own, whatever the
 * cookie's lifetime. It is made with the newest secret and read with each secret in turn, so a
 * flow started before a rotation still completes. What the contents mean, and which of them bind
 * the value to a provider or a ceremony, is for the module that seals them to check.
 *
 * @module
 */
import { decode, encode } from "../jwt/index.js"
import type { RequestContext } from "./context.js"
import type { CookieOption, ResponseCookie } from "./cookies.js"

/** The cookie that carries `contents`, sealed, for `maxAge` seconds at most. */
export async function sealedCookie<Contents extends object>(
  ctx: RequestContext,
  { name, options }: CookieOption,
  contents: Contents,
  maxAge: number,
): Promise<ResponseCookie> {
  const value = await encode<Contents>({ token: contents, secret: [...ctx.config.secrets], salt: name, maxAge })
  return { name, value, options }
}

/**
 * The contents of the request's sealed cookie `name`: `undefined` when the request has no such
 * cookie, `null` when it does not unseal (altered, made with another secret or for another
 * cookie, or expired). The contents are as sealed but unchecked: `unknown` field by field.
 */
export async function unsealCookie(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null | undefined> {
  const raw = ctx.cookies.get(name)
  if (!raw) return undefined
  return decode<Record<string, unknown>>({ token: raw, secret: [...ctx.config.secrets], salt: name })
}
