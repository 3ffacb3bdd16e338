/**
 * The second step of a sign-in: from the first factor's success to the session.
 *
 * - `askSecondFactor` (called by `account/sign-in.ts`): seals the pending sign-in (`pending.ts`),
 *   emails a code to users whose second factor is email, and sends the browser to the challenge.
 * - `GET two-factor` shows the challenge (`pages.ts`); `POST two-factor` checks a code
 *   or a recovery code (`verify.ts`) and, when it is right, completes the sign-in: once
 *   (`completePending`), for a user who still exists with the same account and password, asking
 *   the `signIn` callback then if it was not asked before, and starting the session with the
 *   factors used; `POST two-factor/email` sends a new code by email.
 *
 * Every failure to do with the pending sign-in itself (none, altered, expired, used, out of tries)
 * sends the browser back to the sign-in page: nothing is signed in without both factors.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { AdapterTwoFactor } from "./storage.js"
import type { VerifiedIdentity } from "../account/identity.js"
import { checkSignIn } from "../account/authorize.js"
import { completeSignIn } from "../account/complete.js"
import { defaultEmailCode } from "../config/defaults.js"
import { defaultTwoFactor } from "./defaults.js"
import { randomToken } from "../crypto/encoding.js"
import { codeSendingProvider, newEmailCode, sendEmailCode, storeEmailCode } from "../email/code.js"
import { BadRequest, TwoFactorError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { emitSecurity, type SecurityDetail } from "../security-events.js"
import type { InternalResponse } from "../http/response.js"
import { challengePage } from "./pages.js"
import { translatorFor, signInPageUrl } from "../pages/where.js"
import type { SignInResult } from "../session/types.js"
import type { Account, AuthFactor, Profile, SignInCallbackParams, User } from "../types.js"
import { firstFactor } from "./gate.js"
import { clearPending, completePending, readPending, savePending, updatePending, wrongCode, type PendingSignIn } from "./pending.js"
import { rememberDevice } from "./remember.js"
import type { ResolvedTwoFactor } from "./settings.js"
import { backToSignIn, goTo, twoFactorUrl } from "./urls.js"
import { checkSecondFactor } from "./verify.js"
import { storedPassword } from "../password/storage.js"
import { storedTwoFactor } from "./storage.js"

function enabled(ctx: RequestContext): ResolvedTwoFactor {
  const { twoFactor } = ctx.config
  if (!twoFactor) throw new BadRequest("Two-factor sign-in is not configured.", 404)
  return twoFactor
}

/** The posted fields the `signIn` callback will see, without what the provider declares a password. */
function withoutPasswords(identity: VerifiedIdentity, callback: SignInCallbackParams): SignInCallbackParams {
  if (identity.kind !== "credentials" || !callback.credentials) return callback
  const declared = identity.provider.config.credentials ?? {}
  const credentials = Object.fromEntries(Object.entries(callback.credentials).filter(([name]) => (declared as Record<string, { type?: string }>)[name]?.type !== "password"))
  return { ...callback, credentials }
}

/**
 * Sends the browser to the challenge for `result`'s user, whose second factor is `stored`.
 * `callback`: what the `signIn` callback is to be asked when the sign-in completes, if it has not
 * been asked yet.
 */
export async function askSecondFactor(
  ctx: RequestContext,
  identity: VerifiedIdentity,
  result: { user: User | AdapterUser; account: Account | null; profile?: Profile; isNewUser: boolean },
  stored: AdapterTwoFactor,
  callback: SignInCallbackParams | undefined,
): Promise<InternalResponse> {
  const twoFactor = enabled(ctx)
  const passwordUpdatedAt = identity.kind === "password" ? (await storedPassword(twoFactor.adapter, stored.userId))?.updatedAt : undefined
  const pending: Omit<PendingSignIn, "id"> = {
    userId: stored.userId,
    method: stored.method,
    first: firstFactor(identity),
    user: result.user,
    account: result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: result.isNewUser,
    ...(callback ? { callback: withoutPasswords(identity, callback) } : {}),
    ...(passwordUpdatedAt ? { passwordUpdatedAt: new Date(passwordUpdatedAt).getTime() } : {}),
    callbackUrl: await ctx.callbackUrl(),
  }
  if (emailCodesCount(pending)) {
    let saved = false
    const sent = await emailCode(ctx, twoFactor, stored.userId, async (codeBinding) => {
      await savePending(ctx, { ...pending, codeBinding })
      return (saved = true)
    })
    // Nothing could be sent: the sign-in waits all the same, for a recovery code or a new code.
    if (!saved) await savePending(ctx, pending)
    return goTo(ctx, twoFactorUrl(ctx, "two-factor", sent ? { sent: "1" } : { error: "SendFailed" }))
  }
  await savePending(ctx, pending)
  return goTo(ctx, twoFactorUrl(ctx, "two-factor", stored.method === "email" ? { method: "recovery" } : {}))
}

/**
 * Whether an emailed code can be this sign-in's second factor: the user's method is email, and
 * the first factor was not the mailbox itself (a link or a code sent there), which a second code
 * to the same mailbox would only prove again. Such a sign-in takes a recovery code.
 */
function emailCodesCount(pending: Pick<PendingSignIn, "method" | "first">): boolean {
  return pending.method === "email" && pending.first !== "email"
}

/**
 * Emails the user a new code, within the per-user limit. Each code is stored under a binding of its
 * own, which `bind` puts in the pending sign-in, so that a new code voids the older ones. False when
 * none was sent (or `bind` refused: the pending sign-in has ended).
 */
async function emailCode(ctx: RequestContext, twoFactor: ResolvedTwoFactor, userId: string, bind: (codeBinding: string) => Promise<boolean>): Promise<boolean> {
  const provider = twoFactor.email ? codeSendingProvider(ctx.config) : undefined
  const user = await twoFactor.adapter.getUser(userId)
  if (!provider || !user?.email) {
    ctx.config.logger.error(new TwoFactorError("A user's second factor is email, but no email provider with `code` is configured to send it."))
    return false
  }
  const limitKey = `sesame:two-factor:email:${userId}`
  const counted = await twoFactor.counters.incrementCounter(limitKey, new Date(Date.now() + defaultTwoFactor.emailCodeWindow * 1000))
  if (counted.count > defaultTwoFactor.emailCodesPerWindow) return false
  const codeBinding = randomToken(16)
  if (!(await bind(codeBinding))) return false
  const code = newEmailCode()
  const expires = new Date(Date.now() + defaultEmailCode.maxAge * 1000)
  await storeEmailCode(provider.adapter, ctx.config.secrets, codeBinding, code, expires)
  return sendEmailCode(ctx, provider, { to: user.email, code, expires, url: twoFactorUrl(ctx, "two-factor") })
}

/** `GET two-factor`: the challenge of the request's pending sign-in. */
export async function showChallenge(ctx: RequestContext): Promise<InternalResponse> {
  const twoFactor = enabled(ctx)
  const pending = await readPending(ctx, twoFactor)
  if (!pending) return backToSignIn(ctx, "TwoFactorExpired")
  const { token } = await ctx.csrf()
  const page = challengePage(
    {
      action: twoFactorUrl(ctx, "two-factor"),
      csrfToken: token,
      method: pending.method,
      mode: ctx.query.method === "recovery" || (pending.method === "email" && !emailCodesCount(pending)) ? "recovery" : "code",
      codeUrl: twoFactorUrl(ctx, "two-factor"),
      recoveryUrl: twoFactorUrl(ctx, "two-factor", { method: "recovery" }),
      ...(emailCodesCount(pending) ? { resendAction: twoFactorUrl(ctx, "two-factor/email") } : {}),
      sent: ctx.query.sent === "1",
      ...(twoFactor.rememberDevice ? { rememberFor: twoFactor.rememberDevice } : {}),
      error: ctx.query.error,
      ...(ctx.query.retryAfter && /^\d{1,6}$/.test(ctx.query.retryAfter) ? { retryAfter: Number(ctx.query.retryAfter) } : {}),
      signInUrl: signInPageUrl(ctx),
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** `POST two-factor/email`: a new code by email for the pending sign-in. */
export async function resendChallengeCode(ctx: RequestContext): Promise<InternalResponse> {
  const twoFactor = enabled(ctx)
  const pending = await readPending(ctx, twoFactor)
  if (!pending) return backToSignIn(ctx, "TwoFactorExpired")
  if (!emailCodesCount(pending)) throw new BadRequest("This sign-in's second factor is not a code sent by email.")
  const sent = await emailCode(ctx, twoFactor, pending.userId, (codeBinding) => updatePending(ctx, pending, { codeBinding }))
  return goTo(ctx, twoFactorUrl(ctx, "two-factor", sent ? { sent: "1" } : { error: "SendFailed" }))
}

/** Whether what the first factor verified still holds: the user, their account, their password. */
async function stillValid(twoFactor: ResolvedTwoFactor, pending: PendingSignIn): Promise<AdapterUser | null> {
  const { adapter } = twoFactor
  const user = await adapter.getUser(pending.userId)
  if (!user) return null
  const account = pending.account
  if (account && (account.type === "oauth" || account.type === "oidc" || account.type === "webauthn")) {
    const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    if (linked?.id !== user.id) return null
  }
  if (pending.passwordUpdatedAt !== undefined) {
    const password = adapter.store ? await storedPassword(adapter, user.id) : null
    if (!password || new Date(password.updatedAt).getTime() !== pending.passwordUpdatedAt) return null
  }
  return user
}

/** `POST two-factor`: checks the code and, when it is right, completes the pending sign-in. */
export async function submitChallenge(ctx: RequestContext): Promise<InternalResponse> {
  const twoFactor = enabled(ctx)
  const pending = await readPending(ctx, twoFactor)
  if (!pending) return backToSignIn(ctx, "TwoFactorExpired")
  const stored = await storedTwoFactor(twoFactor.adapter, pending.userId)
  if (!stored || stored.method !== pending.method) {
    clearPending(ctx)
    return backToSignIn(ctx, "TwoFactorExpired")
  }
  const mode = typeof ctx.body.recoveryCode === "string" ? { method: "recovery" } : {}
  const checked = await checkSecondFactor(ctx, twoFactor, stored, { code: ctx.body.code, recoveryCode: ctx.body.recoveryCode }, emailCodesCount(pending) ? pending.codeBinding : undefined)
  if (!checked.ok) {
    // One failed attempt, one `sign-in.failed`: the user is known here, the actor is not yet.
    const failed = (reason: string, details: Record<string, SecurityDetail> = {}) =>
      emitSecurity(ctx.config, ctx.headers, { type: "sign-in.failed", userId: pending.userId, actorId: null, provider: pending.account?.provider ?? pending.first, reason, details: { step: "second-factor", method: pending.method, ...details } })
    if (checked.reason === "throttled") {
      await failed("throttled", { retryAfter: checked.retryAfter })
      return goTo(ctx, twoFactorUrl(ctx, "two-factor", { ...mode, error: "TooManyAttempts", retryAfter: String(checked.retryAfter) }))
    }
    if (checked.reason === "exhausted" || (await wrongCode(twoFactor, pending))) {
      await failed("TwoFactorLocked")
      clearPending(ctx)
      return backToSignIn(ctx, "TwoFactorLocked")
    }
    const reason = checked.reason === "expired" ? "CodeExpired" : "InvalidCode"
    await failed(reason)
    return goTo(ctx, twoFactorUrl(ctx, "two-factor", { ...mode, error: reason }))
  }
  if (!(await completePending(twoFactor, pending))) return backToSignIn(ctx, "TwoFactorExpired")
  clearPending(ctx)
  const user = await stillValid(twoFactor, pending)
  if (!user) return backToSignIn(ctx, "TwoFactorExpired")
  return finish(ctx, twoFactor, pending, user, checked.factor)
}

async function finish(ctx: RequestContext, twoFactor: ResolvedTwoFactor, pending: PendingSignIn, user: AdapterUser, second: AuthFactor): Promise<InternalResponse> {
  if (pending.callback) {
    const redirect = await checkSignIn(ctx, { ...pending.callback, user })
    if (redirect) return goTo(ctx, redirect)
  }
  if (ctx.body.remember === "1") await rememberDevice(ctx, twoFactor, user.id)
  const result: SignInResult = {
    // The stored user as it is now; a credentials user is as `authorize` returned it.
    user: pending.first === "credentials" ? pending.user : user,
    account: pending.account,
    ...(pending.profile ? { profile: pending.profile } : {}),
    isNewUser: pending.isNewUser,
    factors: [pending.first, second],
  }
  // The sign-in completes where it was headed when the first factor passed.
  return completeSignIn(ctx, result, pending.callbackUrl)
}
