/**
 * Password management for the signed-in user, as server functions beside the account and session
 * ones: whether they have a password (`hasPassword`), changing it (`changePassword`, which needs
 * the current one), and setting a first one on an account made with a provider or an email link
 * (`setPassword`, which needs a recent sign-in instead).
 *
 * A change ends every other database session of the user (whoever knew the old password is
 * signed out; this browser stays signed in); JWT sessions cannot be ended before they expire, so
 * use database sessions where that matters. Wrong current passwords count against the sign-in
 * throttle of the account, so this form is no way around it.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import { currentAdapterUser } from "../account/passkeys.js"
import { checkMaxAge, freshAge, signedInRecently } from "../session/fresh.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { InvalidProvider } from "../errors.js"
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import { signedInFor, type ServerUser } from "../http/server-context.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { checkNewPassword, type PasswordProblem } from "./policy.js"
import type { PasswordProvider } from "./provider.js"
import { typedPassword } from "./input.js"
import { replacePassword } from "./store.js"
import { currentActing } from "../session/acting.js"
import { verifyPassword } from "./verify.js"
import { storedPassword } from "./storage.js"

export type PasswordChangeRefusal = "NotSignedIn" | "Acting" | "NoPassword" | "WrongPassword" | "TooManyAttempts" | PasswordProblem

export type PasswordChanging =
  | { changed: true; sessionsEnded: number }
  | { changed: false; reason: PasswordChangeRefusal; /** With `TooManyAttempts`: seconds to wait. */ retryAfter?: number }

export type PasswordSetRefusal = "NotSignedIn" | "HasPassword" | "SignInTooOld" | PasswordProblem

export type PasswordSetting = { set: true } | { set: false; reason: PasswordSetRefusal }

export interface SetPasswordOptions {
  /** How recent, in seconds, the session's sign-in must be. Default 600 (10 minutes). */
  maxSignInAge?: number
}

type Me = ServerUser<{ user: AdapterUser; provider: PasswordProvider; ctx: RequestContext }>

function passwordProviderOf(config: ResolvedConfig): PasswordProvider | InvalidProvider {
  for (const provider of config.providers.values()) if (provider.type === "password") return provider
  return new InvalidProvider("Password management needs a password provider (`Password()` from `@sesame/core/providers/password`).")
}

async function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<Me | null> {
  let provider: PasswordProvider | undefined
  return signedInFor(
    request,
    configOrLazy,
    (config) => {
      const found = passwordProviderOf(config)
      if (found instanceof InvalidProvider) return found
      provider = found
      return found.adapter
    },
    async (ctx) => {
      const user = await currentAdapterUser(ctx)
      return user && provider ? { user, provider, ctx } : null
    },
  )
}

/**
 * Whether the request's user has a password, or null when the request is not signed in.
 *
 * @example
 * ```ts
 * if (await hasPassword(request, config)) showChangePasswordForm()
 * else showSetPasswordForm()
 * ```
 */
export async function hasPassword(request: Request, config: AuthConfig | LazyAuthConfig): Promise<boolean | null> {
  const me = await signedIn(request, config)
  if (!me) return null
  return (await storedPassword(me.adapter, me.user.id)) !== null
}

/**
 * Changes the request user's password: `currentPassword` must match (attempts count against the
 * sign-in throttle), `newPassword` must pass the provider's policy; never from a session acting on
 * the user's behalf (`Acting`). Ends the user's other database
 * sessions and sends `passwordChange` (`how: "changed"`).
 *
 * @example
 * ```ts
 * const result = await changePassword(request, config, { currentPassword, newPassword })
 * if (!result.changed) showError(result.reason) // "WrongPassword", "too-short", "breached", …
 * ```
 */
export async function changePassword(
  request: Request,
  config: AuthConfig | LazyAuthConfig,
  passwords: { currentPassword: string; newPassword: string },
): Promise<PasswordChanging> {
  const me = await signedIn(request, config)
  if (!me) return { changed: false, reason: "NotSignedIn" }
  const { provider, user } = me
  // Whoever acts for the user (an admin impersonating them) never changes their way in, even
  // knowing the current password: it would sign the user out and be recorded as the user's own.
  if (await currentActing(me.ctx)) return { changed: false, reason: "Acting" }
  const stored = await storedPassword(me.adapter, user.id)
  if (!stored) return { changed: false, reason: "NoPassword" }
  const typed = typedPassword(provider, passwords?.currentPassword)
  const verdict = await verifyPassword(provider, user.email, typed, provider.clientIp?.(request) ?? null, { user, stored })
  if (!verdict.ok) return verdict.retryAfter === undefined ? { changed: false, reason: "WrongPassword" } : { changed: false, reason: "TooManyAttempts", retryAfter: verdict.retryAfter }
  const changed = await storeNew(me, passwords.newPassword, "changed")
  return "reason" in changed ? { changed: false, reason: changed.reason } : { changed: true, sessionsEnded: changed.sessionsEnded }
}

/**
 * Checks `newPassword` against the policy, then stores it, ending the user's other database
 * sessions, and sends `passwordChange`.
 */
async function storeNew(me: Me, newPassword: unknown, how: "changed" | "set"): Promise<{ sessionsEnded: number } | { reason: PasswordProblem }> {
  const { provider, user, ctx } = me
  const check = await checkNewPassword(typeof newPassword === "string" ? newPassword : "", provider.policy, { email: user.email, logger: me.config.logger })
  if (!check.ok) return { reason: check.reason }
  const hash = await provider.hasher.hash(check.password)
  const { user: updated, sessionsEnded } = await replacePassword(me.config, provider, user, hash, { keepSession: await ctx.config.sessionStrategy.currentId(ctx) })
  await emit(me.config, "passwordChange", { user: updated, how, sessionsEnded })
  await emitSecurity(me.config, ctx.headers, { type: "password.changed", userId: updated.id, provider: provider.id, details: { how, sessionsEnded } })
  return { sessionsEnded }
}

/**
 * Sets a first password for the request's user (one who signed up with a provider, an email link
 * or a passkey), when their session's sign-in is recent (`maxSignInAge`): a session left open must
 * not be enough to add a way in. Refused when they already have one (`changePassword` needs the
 * current one). Ends the user's other database sessions and sends `passwordChange` (`how: "set"`).
 */
export async function setPassword(
  request: Request,
  config: AuthConfig | LazyAuthConfig,
  password: { newPassword: string },
  options: SetPasswordOptions = {},
): Promise<PasswordSetting> {
  checkMaxAge(options.maxSignInAge, "maxSignInAge")
  const me = await signedIn(request, config)
  if (!me) return { set: false, reason: "NotSignedIn" }
  const { user, ctx } = me
  if (await storedPassword(me.adapter, user.id)) return { set: false, reason: "HasPassword" }
  if (!signedInRecently(await me.config.sessionStrategy.signedInAt(ctx), freshAge(me.config, options.maxSignInAge))) {
    return { set: false, reason: "SignInTooOld" }
  }
  const stored = await storeNew(me, password?.newPassword, "set")
  return "reason" in stored ? { set: false, reason: stored.reason } : { set: true }
}
