/**
 * A signed-in user's second-factor settings: `GET two-factor/setup` shows them (a new TOTP secret
 * to scan and confirm, or the second factor in use), `POST two-factor/setup` turns one on,
 * `POST two-factor/recovery-codes` makes new recovery codes, `POST two-factor/disable` turns it
 * off.
 *
 * - Turning one on needs a recent sign-in (`step-up.ts`): a session left open must not be enough
 *   to lock its owner out. A TOTP secret is kept in a sealed cookie (`twoFactorSetup`, 10 minutes)
 *   until a first code from the app confirms it; only then is it stored, encrypted
 *   (`secret.ts`). Email codes need a confirmed address and an email provider that sends codes.
 * - New recovery codes and turning it off need a fresh code from the app (throttled as at sign-in)
 *   or, for email codes, a recent sign-in.
 * - Recovery codes are shown once, on the page that answers the POST (never in a URL), and stored
 *   hashed (`recovery.ts`).
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { AdapterTwoFactor } from "./storage.js"
import { currentAdapterUser } from "../account/passkeys.js"
import { codeSendingProvider } from "../email/code.js"
import { BadRequest } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"
import { codeCookieMaxAge, expiredCookie } from "../http/cookies.js"
import { recoveryCodesPage, setupPage, type SetupPageParams } from "./pages.js"
import { translatorFor } from "../pages/where.js"
import { recentlySignedIn } from "../session/fresh.js"
import { newRecoveryCodes, storeRecoveryCodes } from "./recovery.js"
import { fromBase32, sealTotpKey, toBase32 } from "./secret.js"
import type { ResolvedTwoFactor } from "./settings.js"
import { stepUpUrl } from "./step-up.js"
import { matchingStep, newTotpKey, totpUri } from "./totp.js"
import { goTo, signInUrl, twoFactorUrl } from "./urls.js"
import { checkSecondFactor, firstUseOfStep } from "./verify.js"
import { countRecoveryCodes, removeTwoFactor, storeTwoFactor, storedTwoFactor } from "./storage.js"

interface Me {
  twoFactor: ResolvedTwoFactor
  user: AdapterUser
  stored: AdapterTwoFactor | null
}

/** The signed-in user and their second factor; else where to send the browser. */
async function me(ctx: RequestContext): Promise<Me | InternalResponse> {
  const { twoFactor } = ctx.config
  if (!twoFactor) throw new BadRequest("Two-factor sign-in is not configured.", 404)
  const user = await currentAdapterUser(ctx)
  if (!user) return goTo(ctx, signInUrl(ctx, { callbackUrl: twoFactorUrl(ctx, "two-factor/setup") }))
  return { twoFactor, user, stored: await storedTwoFactor(twoFactor.adapter, user.id) }
}

const setupUrl = (ctx: RequestContext, query: Record<string, string | undefined> = {}) => twoFactorUrl(ctx, "two-factor/setup", query)

/** Whether codes by email may be this user's second factor. */
function emailOffered(ctx: RequestContext, twoFactor: ResolvedTwoFactor, user: AdapterUser): boolean {
  return twoFactor.email && !!codeSendingProvider(ctx.config) && !!user.email && !!user.emailVerified
}

/** The secret being set up in this browser for `user`, or a new one (its cookie queued). */
async function setupKey(ctx: RequestContext, user: AdapterUser): Promise<Uint8Array> {
  const contents = await unsealCookie(ctx, ctx.cookieOptions.twoFactorSetup.name)
  const kept = contents?.sub === user.id && typeof contents.key === "string" ? fromBase32(contents.key) : null
  if (kept) return kept
  const key = newTotpKey()
  ctx.setCookies.push(await sealedCookie(ctx, ctx.cookieOptions.twoFactorSetup, { sub: user.id, key: toBase32(key) }, codeCookieMaxAge))
  return key
}

/** `GET two-factor/setup`. */
export async function showSetup(ctx: RequestContext): Promise<InternalResponse> {
  const found = await me(ctx)
  if (!("user" in found)) return found
  const { twoFactor, user, stored } = found
  let state: SetupPageParams["state"]
  if (stored) {
    state = {
      kind: "enabled",
      method: stored.method,
      enabledAt: new Date(stored.enabledAt),
      recoveryCodesLeft: await countRecoveryCodes(twoFactor.adapter, user.id),
      regenerateAction: twoFactorUrl(ctx, "two-factor/recovery-codes"),
      disableAction: twoFactorUrl(ctx, "two-factor/disable"),
      codeNeeded: stored.method === "totp",
    }
  } else {
    if (!(await recentlySignedIn(ctx))) return goTo(ctx, stepUpUrl(ctx, setupUrl(ctx)))
    const key = await setupKey(ctx, user)
    const issuer = twoFactor.issuer ?? new URL(ctx.origin).hostname
    state = {
      kind: "new",
      action: setupUrl(ctx),
      secret: toBase32(key).replace(/(.{4})(?=.)/g, "$1 "),
      uri: totpUri(issuer, user.email, key),
      emailOffered: emailOffered(ctx, twoFactor, user),
    }
  }
  const { token } = await ctx.csrf()
  const page = setupPage(
    { csrfToken: token, theme: ctx.config.theme, error: ctx.query.error, notice: ctx.query.notice, backUrl: `${ctx.origin}/`, state },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** Stores new recovery codes for `user` and shows them, once. */
async function showNewCodes(ctx: RequestContext, twoFactor: ResolvedTwoFactor, user: AdapterUser): Promise<InternalResponse> {
  const codes = newRecoveryCodes()
  await storeRecoveryCodes(twoFactor.adapter, ctx.config.secrets, user.id, codes)
  const page = recoveryCodesPage({ codes, continueUrl: setupUrl(ctx), theme: ctx.config.theme }, translatorFor(ctx))
  return { ...page, cookies: ctx.setCookies }
}

/** `POST two-factor/setup`: turns on an authenticator app (with its first code) or email codes. */
export async function submitSetup(ctx: RequestContext): Promise<InternalResponse> {
  const found = await me(ctx)
  if (!("user" in found)) return found
  const { twoFactor, user, stored } = found
  if (stored) return goTo(ctx, setupUrl(ctx))
  if (!(await recentlySignedIn(ctx))) return goTo(ctx, stepUpUrl(ctx, setupUrl(ctx)))
  let enabled: AdapterTwoFactor
  if (ctx.body.method === "email") {
    if (!emailOffered(ctx, twoFactor, user)) throw new BadRequest("Codes by email cannot be this user's second factor.")
    enabled = { userId: user.id, method: "email", secret: null, enabledAt: new Date(), devicesRevokedAt: null }
  } else {
    const contents = await unsealCookie(ctx, ctx.cookieOptions.twoFactorSetup.name)
    const key = contents?.sub === user.id && typeof contents.key === "string" ? fromBase32(contents.key) : null
    // The setup expired (or was made for someone else): show a new secret.
    if (!key) return goTo(ctx, setupUrl(ctx, { error: "SetupExpired" }))
    const code = typeof ctx.body.code === "string" ? ctx.body.code : ""
    const step = matchingStep(key, code)
    // Recorded as used: the code that confirmed the app must not sign anyone in afterwards.
    if (step === null || !(await firstUseOfStep(twoFactor, user.id, step))) return goTo(ctx, setupUrl(ctx, { error: "InvalidCode" }))
    enabled = { userId: user.id, method: "totp", secret: await sealTotpKey(ctx.config.secrets, key), enabledAt: new Date(), devicesRevokedAt: null }
    ctx.setCookies.push(expiredCookie(ctx.cookieOptions.twoFactorSetup.name, ctx.cookieOptions.twoFactorSetup.options))
  }
  await storeTwoFactor(twoFactor.adapter, enabled)
  await emit(ctx.config, "twoFactorChange", { user, change: "enabled", method: enabled.method })
  await emitSecurity(ctx.config, ctx.headers, { type: "two-factor.changed", userId: user.id, details: { change: "enabled", method: enabled.method } })
  return showNewCodes(ctx, twoFactor, user)
}

/**
 * Whether the request proves the user again for a change to `stored`: a fresh code from the app
 * (or a recovery code), or a recent sign-in for email codes. Else where to send the browser.
 */
async function proven(ctx: RequestContext, twoFactor: ResolvedTwoFactor, stored: AdapterTwoFactor): Promise<InternalResponse | null> {
  if (stored.method === "email") return (await recentlySignedIn(ctx)) ? null : goTo(ctx, stepUpUrl(ctx, setupUrl(ctx)))
  const checked = await checkSecondFactor(ctx, twoFactor, stored, { code: ctx.body.code })
  if (checked.ok) return null
  return goTo(ctx, setupUrl(ctx, { error: checked.reason === "throttled" ? "TooManyAttempts" : "InvalidCode" }))
}

/**
 * Runs `change` for the signed-in user's second factor once the request has proven the user again
 * (`proven`); otherwise answers where to go.
 */
async function provenChange(ctx: RequestContext, change: (me: Me & { stored: AdapterTwoFactor }) => Promise<InternalResponse>): Promise<InternalResponse> {
  const found = await me(ctx)
  if (!("user" in found)) return found
  const { twoFactor, stored } = found
  if (!stored) return goTo(ctx, setupUrl(ctx))
  return (await proven(ctx, twoFactor, stored)) ?? change({ ...found, stored })
}

/** `POST two-factor/recovery-codes`. */
export function regenerateRecoveryCodes(ctx: RequestContext): Promise<InternalResponse> {
  return provenChange(ctx, async ({ twoFactor, user, stored }) => {
    await emit(ctx.config, "twoFactorChange", { user, change: "recovery-codes", method: stored.method })
    await emitSecurity(ctx.config, ctx.headers, { type: "two-factor.changed", userId: user.id, details: { change: "recovery-codes", method: stored.method } })
    return showNewCodes(ctx, twoFactor, user)
  })
}

/** `POST two-factor/disable`. */
export function disableTwoFactor(ctx: RequestContext): Promise<InternalResponse> {
  return provenChange(ctx, async ({ twoFactor, user, stored }) => {
    await removeTwoFactor(twoFactor.adapter, user.id)
    await emit(ctx.config, "twoFactorChange", { user, change: "disabled", method: stored.method })
    await emitSecurity(ctx.config, ctx.headers, { type: "two-factor.changed", userId: user.id, details: { change: "disabled", method: stored.method } })
    return goTo(ctx, setupUrl(ctx, { notice: "disabled" }))
  })
}
