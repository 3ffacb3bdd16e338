/**
 * A failed sign-in attempt, reported once: the `sign-in.failed` security event. The one place a
 * failure of any kind's flow (OAuth, email, credentials, password, passkey, a module's own
 * provider) becomes the event, where the flow knows it was a sign-in: around the callback that
 * ends it (`actions/callback.ts`, `ModuleRequest.signIn`). The second factor reports its own
 * (`two-factor/challenge.ts`): its failures are answered by a redirect, not thrown.
 *
 * Not failures: a malformed request (`BadRequest`: nobody tried to sign in), and a storage outage
 * (nothing was decided; the browser tries again).
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import { AuthError, BadRequest, CredentialsSignin, EmailNotVerified, TooManyAttempts } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { emitSecurity, type SecurityDetail } from "../security-events.js"

/** Codes a credentials provider may give its refusals: short, and nothing else (as in a URL). */
const safeCode = /^[A-Za-z0-9_-]{1,64}$/

/** Why, as the event says it: the refusal's code, `throttled`, `unverified`, else the error's type. */
function reasonOf(error: unknown): { reason: string; details?: Record<string, SecurityDetail> } {
  if (error instanceof TooManyAttempts) return { reason: "throttled", details: { retryAfter: error.retryAfter } }
  if (error instanceof CredentialsSignin) return { reason: safeCode.test(error.code) ? error.code : "credentials" }
  if (error instanceof EmailNotVerified) return { reason: "unverified" }
  return { reason: error instanceof AuthError ? error.type : "CallbackRouteError" }
}

/** Whose account each request's failing attempt was on, when its flow knew (see {@link attemptOn}). */
const targets = new WeakMap<RequestContext, string>()

/**
 * Says whose account the attempt of this request is on (a password typed for a stored user's
 * address), so that a failure names them: the event is the app's, never the visitor's, and lets a
 * user's own log show the attempts on their account.
 */
export function attemptOn(ctx: RequestContext, userId: string): void {
  targets.set(ctx, userId)
}

/** Sends `sign-in.failed` for `error`, which ended a sign-in with `provider`, unless it is no failure (see the module comment). */
export async function reportFailedSignIn(ctx: RequestContext, provider: string, error: unknown): Promise<void> {
  if (error instanceof BadRequest || storageUnavailable(error)) return
  const { reason, details } = reasonOf(error)
  await emitSecurity(ctx.config, ctx.headers, { type: "sign-in.failed", userId: targets.get(ctx) ?? null, actorId: null, provider, reason, ...(details ? { details } : {}) })
}

/** Runs the sign-in `attempt` with `provider`; when it throws, reports the failure and throws on. */
export async function reportingFailure<T>(ctx: RequestContext, provider: string, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt()
  } catch (error) {
    await reportFailedSignIn(ctx, provider, error)
    throw error
  }
}
