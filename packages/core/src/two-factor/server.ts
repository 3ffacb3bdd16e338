/**
 * The server functions of two-factor sign-in and step-up, taking the request and the
 * configuration as the other server functions do (`account/management.ts`).
 *
 * @module
 */
import { currentAdapterUser } from "../account/passkeys.js"
import { serverContext } from "../http/server-context.js"
import { checkMaxAge, freshAge, signedInRecently } from "../session/fresh.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { stepUpUrl } from "./step-up.js"
import { signInUrl, twoFactorUrl } from "./urls.js"
import { countRecoveryCodes, storedTwoFactor } from "./storage.js"

/** What `requireRecentSignIn` found: a recent sign-in, or where to send the browser for one. */
export type RecentSignIn = { recent: true } | { recent: false; reason: "NotSignedIn" | "SignInTooOld"; redirect: string }

export interface RecentSignInOptions {
  /** How recent, in seconds, the sign-in must be. Default `session.freshAge` (10 minutes). */
  maxAge?: number
  /** Where the browser comes back to once it has signed in again (a path, or a URL of the app). Default: the request's URL. */
  returnTo?: string
}

/**
 * Whether the request's session signed in recently enough for a sensitive action, or proved who
 * it is again since (step-up). When not, `redirect` is where to send the browser: the sign-in
 * page for a visitor who is not signed in; for a session that is too old, the built-in
 * re-authentication (a fresh code from the user's authenticator app, or signing in again), which
 * comes back to `returnTo`.
 *
 * @example
 * ```ts
 * const check = await requireRecentSignIn(request, config, { maxAge: 5 * 60 })
 * if (!check.recent) return Response.redirect(check.redirect, 303)
 * // …the sensitive action
 * ```
 */
export async function requireRecentSignIn(request: Request, config: AuthConfig | LazyAuthConfig, options: RecentSignInOptions = {}): Promise<RecentSignIn> {
  checkMaxAge(options.maxAge)
  const ctx = await serverContext(request, config)
  const returnTo = new URL(options.returnTo ?? request.url, ctx.origin).href
  const signedInAt = await ctx.config.sessionStrategy.signedInAt(ctx)
  if (signedInRecently(signedInAt, freshAge(ctx.config, options.maxAge))) return { recent: true }
  // No start known: not signed in, or a session whose start is unknown (only a sign-in helps either way).
  if (signedInAt === undefined && !(await ctx.config.sessionStrategy.currentUser(ctx))) {
    return { recent: false, reason: "NotSignedIn", redirect: signInUrl(ctx, { callbackUrl: returnTo }) }
  }
  return { recent: false, reason: "SignInTooOld", redirect: stepUpUrl(ctx, returnTo) }
}

/** A user's second factor, as their settings page shows it. */
export interface TwoFactorStatus {
  enabled: boolean
  method: "totp" | "email" | null
  /** Unused recovery codes. */
  recoveryCodesLeft: number
  /** The built-in page where the user turns it on or off. */
  settingsUrl: string
}

/**
 * The request user's second factor, or null when the request is not signed in or two-factor
 * sign-in is not on (the adapter does not store second factors, or `twoFactor: false`).
 *
 * @example
 * ```ts
 * const status = await twoFactorStatus(request, config)
 * // { enabled: true, method: "totp", recoveryCodesLeft: 9, settingsUrl: "https://example.com/auth/two-factor/setup" }
 * ```
 */
export async function twoFactorStatus(request: Request, config: AuthConfig | LazyAuthConfig): Promise<TwoFactorStatus | null> {
  const ctx = await serverContext(request, config)
  const { twoFactor } = ctx.config
  const user = twoFactor ? await currentAdapterUser(ctx) : null
  if (!twoFactor || !user) return null
  const stored = await storedTwoFactor(twoFactor.adapter, user.id)
  return {
    enabled: !!stored,
    method: stored?.method ?? null,
    recoveryCodesLeft: stored ? await countRecoveryCodes(twoFactor.adapter, user.id) : 0,
    settingsUrl: twoFactorUrl(ctx, "two-factor/setup"),
  }
}
