/**
 * "Remember this device": after a second factor, a user may let this browser skip it for
 * `twoFactor.rememberDevice` seconds. The cookie is sealed (the browser can neither read nor forge
 * it) and names the user and when it was issued. It counts only for that user, and only while it
 * is newer than both the user's second factor (turning it off and on again forgets every device)
 * and the last time their sessions were ended everywhere (`devicesRevokedAt`).
 *
 * @module
 */
import type { AdapterTwoFactor } from "./storage.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { RequestContext } from "../http/context.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"
import type { ResolvedTwoFactor } from "./settings.js"
import { storeTwoFactor, storedTwoFactor } from "./storage.js"

/** Queues the cookie that remembers this browser for `userId`. */
export async function rememberDevice(ctx: RequestContext, twoFactor: ResolvedTwoFactor, userId: string): Promise<void> {
  if (!twoFactor.rememberDevice) return
  const { name, options } = ctx.cookieOptions.rememberedDevice
  const cookie = await sealedCookie(ctx, { name, options: { ...options, maxAge: twoFactor.rememberDevice } }, { sub: userId, at: Date.now() }, twoFactor.rememberDevice)
  ctx.setCookies.push(cookie)
}

/** Whether the request's browser is remembered for the user whose second factor is `stored`. */
export async function isRememberedDevice(ctx: RequestContext, twoFactor: ResolvedTwoFactor, stored: AdapterTwoFactor): Promise<boolean> {
  if (!twoFactor.rememberDevice) return false
  const contents = await unsealCookie(ctx, ctx.cookieOptions.rememberedDevice.name)
  if (!contents || contents.sub !== stored.userId || typeof contents.at !== "number") return false
  const since = Math.max(new Date(stored.enabledAt).getTime(), stored.devicesRevokedAt ? new Date(stored.devicesRevokedAt).getTime() : 0)
  return contents.at > since
}

/**
 * Forgets every device remembered for `userId`, when their sessions are ended everywhere (other
 * sessions revoked, the password changed or reset). Nothing when the adapter stores no second factors.
 */
export async function forgetDevices(adapter: CheckedAdapter, userId: string): Promise<void> {
  if (!adapter.store) return
  const stored = await storedTwoFactor(adapter, userId)
  if (stored) await storeTwoFactor(adapter, { ...stored, devicesRevokedAt: new Date() })
}
