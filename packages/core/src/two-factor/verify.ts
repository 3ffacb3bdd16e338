/**
 * The one check of a second-factor code, for the sign-in challenge, re-authentication and the
 * settings that need a fresh code: throttled per user and per client IP (`password/throttle.ts`
 * with the two-factor limits), then an authenticator app's code, a code sent by email, or a
 * recovery code.
 *
 * An app's code is accepted once: each step's use is recorded in the counter store (atomically:
 * of two requests with one code, one wins), and a code older than one already used is refused as
 * well, as RFC 6238 §5.2 asks. A secret still sealed with a rotated-out app secret is sealed again
 * with the newest on its first use.
 *
 * @module
 */
import type { AdapterTwoFactor } from "./storage.js"
import { defaultTwoFactor } from "./defaults.js"
import { checkEmailCode } from "../email/code.js"
import { TwoFactorError } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { attemptFailed, attemptSucceeded, beginAttempt, codeSubject } from "../password/throttle.js"
import type { AuthFactor } from "../types.js"
import { useRecoveryCode } from "./recovery.js"
import { openTotpKey, sealTotpKey } from "./secret.js"
import type { ResolvedTwoFactor } from "./settings.js"
import { matchingStep, totpStep } from "./totp.js"
import { storeTwoFactor } from "./storage.js"

export type CodeCheck = { ok: true; factor: AuthFactor } | { ok: false; reason: "wrong" | "expired" | "exhausted" } | { ok: false; reason: "throttled"; retryAfter: number }

/** What the user typed: a code (app or email) or a recovery code. */
export interface TypedCode {
  code?: unknown
  recoveryCode?: unknown
}

const maxTyped = 64

function typed(value: unknown): string | undefined {
  return typeof value === "string" && value.trim().length > 0 && value.length <= maxTyped ? value : undefined
}

const usedStepKey = (userId: string, step: number) => `sesame:two-factor:totp:${userId}:${step}`

/** Whether `step`'s code may be used now for `userId`, recording it as used: once, and never after a newer one. */
export async function firstUseOfStep(twoFactor: ResolvedTwoFactor, userId: string, step: number): Promise<boolean> {
  const { counters } = twoFactor
  const newest = totpStep() + defaultTwoFactor.drift
  for (let later = step + 1; later <= newest; later++) {
    if (await counters.getCounter(usedStepKey(userId, later))) return false
  }
  // Kept until the step can no longer be accepted by anyone.
  const expires = new Date((step + defaultTwoFactor.drift + 2) * defaultTwoFactor.period * 1000)
  return (await counters.incrementCounter(usedStepKey(userId, step), expires)).count === 1
}

async function totpMatches(ctx: RequestContext, twoFactor: ResolvedTwoFactor, stored: AdapterTwoFactor, code: string): Promise<boolean> {
  if (!stored.secret) return false
  const opened = await openTotpKey(ctx.config.secrets, stored.secret)
  if (!opened) {
    ctx.config.logger.error(new TwoFactorError("A user's TOTP secret does not open with any configured secret: was a secret removed too early?", { cause: { userId: stored.userId } }))
    return false
  }
  const step = matchingStep(opened.key, code)
  if (step === null || !(await firstUseOfStep(twoFactor, stored.userId, step))) return false
  if (opened.rotated) await storeTwoFactor(twoFactor.adapter, { ...stored, secret: await sealTotpKey(ctx.config.secrets, opened.key) })
  return true
}

/**
 * Checks what the user typed against their second factor `stored`. `emailBinding` names the code
 * sent by email that may be used here (the pending sign-in's), when one was sent.
 */
export async function checkSecondFactor(
  ctx: RequestContext,
  twoFactor: ResolvedTwoFactor,
  stored: AdapterTwoFactor,
  input: TypedCode,
  emailBinding?: string,
): Promise<CodeCheck> {
  const who = codeSubject(ctx, `user:${stored.userId}`)
  const allowed = await beginAttempt(twoFactor.throttle, who)
  if (!allowed.allowed) return { ok: false, reason: "throttled", retryAfter: allowed.retryAfter }
  const recovery = typed(input.recoveryCode)
  const code = typed(input.code)
  let result: CodeCheck = { ok: false, reason: "wrong" }
  if (recovery) {
    if (await useRecoveryCode(twoFactor.adapter, ctx.config.secrets, stored.userId, recovery)) result = { ok: true, factor: "recovery-code" }
  } else if (code && stored.method === "totp") {
    if (await totpMatches(ctx, twoFactor, stored, code)) result = { ok: true, factor: "totp" }
  } else if (code && stored.method === "email" && emailBinding) {
    const checked = await checkEmailCode(twoFactor.adapter, twoFactor.counters, ctx.config.secrets, emailBinding, code)
    // Unthrottled here: this check is already counted against the user's throttle above.
    result = checked === "ok" ? { ok: true, factor: "email-code" } : { ok: false, reason: checked === "throttled" ? "wrong" : checked }
  }
  if (result.ok) await attemptSucceeded(twoFactor.throttle, who)
  else await attemptFailed(twoFactor.throttle, who)
  return result
}
