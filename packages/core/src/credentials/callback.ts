/**
 * `POST callback/:credentials-provider` (the dispatcher has checked the CSRF token): asks the
 * throttle, when the provider has one, whether the attempt may go ahead; calls `authorize`, and
 * hands the user it returns to the sign-in decision.
 *
 * `authorize` receives the posted fields (without `csrfToken`) and a request rebuilt with those
 * fields as a JSON body, since the original body has been read. Returning null, or throwing
 * `CredentialsSignin`, sends the user back to the sign-in page with `error=CredentialsSignin` and
 * the error's `code`; any other throw is a server error, logged in full and shown as
 * `Configuration`, so that no detail of it reaches a URL. Each refusal (and each attempt the
 * throttle turns away, answered the same way plus `Retry-After`) sends `signInFailure`.
 *
 * @module
 */
import { signIn } from "../account/sign-in.js"
import { CallbackRouteError, CredentialsSignin, TooManyAttempts } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { emitSecurity } from "../security-events.js"
import type { InternalResponse } from "../http/response.js"
import { attemptFailed, attemptSucceeded, beginAttempt, lockoutAfterFailure, type ThrottleSubject } from "../password/throttle.js"
import type { User } from "../types.js"
import type { CredentialsProvider } from "./provider.js"

function rebuiltRequest(ctx: RequestContext, fields: Record<string, unknown>): Request {
  const headers = new Headers(ctx.request.headers)
  headers.set("content-type", "application/json")
  headers.delete("content-length")
  return new Request(ctx.request.url, { method: "POST", headers, body: JSON.stringify(fields) })
}

/** The posted value that names the account: the throttle's field, else `email` or `username`. */
function identifierOf(provider: CredentialsProvider, fields: Record<string, unknown>): string | null {
  const field = provider.throttle?.field ?? ["email", "username"].find((f) => typeof fields[f] === "string")
  const value = field === undefined ? undefined : fields[field]
  return typeof value === "string" ? value : null
}

async function refused(ctx: RequestContext, provider: CredentialsProvider, identifier: string | null, subject: ThrottleSubject | undefined, error: CredentialsSignin): Promise<never> {
  if (subject && provider.throttle) {
    await attemptFailed(provider.throttle.limits, subject)
    // The refusal that locks the account out: said once, beside this attempt's own failure.
    const lockout = await lockoutAfterFailure(provider.throttle.limits, subject)
    if (lockout !== undefined) await emitSecurity(ctx.config, ctx.headers, { type: "sign-in.throttled", userId: null, actorId: null, provider: provider.id, details: { retryAfter: lockout } })
  }
  await emit(ctx.config, "signInFailure", { provider: provider.id, identifier, reason: "credentials" })
  throw error
}

export async function credentialsCallback(ctx: RequestContext, provider: CredentialsProvider): Promise<InternalResponse> {
  // The captcha first, when it guards sign-in: before the throttle counts anything or `authorize` runs.
  const captchaRefusal = await ctx.config.hooks.formGuard?.check(ctx, "sign-in")
  if (captchaRefusal) return captchaRefusal
  const { csrfToken: _csrfToken, ...fields } = ctx.body
  const identifier = identifierOf(provider, fields)
  const { throttle } = provider
  const subject = throttle ? { account: identifier ?? "", ip: throttle.clientIp?.(ctx.request) ?? null } : undefined
  if (throttle && subject) {
    const decision = await beginAttempt(throttle.limits, subject)
    if (!decision.allowed) {
      await emit(ctx.config, "signInFailure", { provider: provider.id, identifier, reason: "throttled", retryAfter: decision.retryAfter })
      throw new TooManyAttempts(decision.retryAfter)
    }
  }
  let returned: User | null
  try {
    returned = await provider.config.authorize(fields, rebuiltRequest(ctx, fields))
  } catch (error) {
    if (error instanceof CredentialsSignin) return refused(ctx, provider, identifier, subject, error)
    throw new CallbackRouteError(`The authorize function of provider "${provider.id}" threw.`, { cause: error })
  }
  if (!returned) return refused(ctx, provider, identifier, subject, new CredentialsSignin("authorize returned no user."))
  if (typeof returned !== "object") {
    throw new CallbackRouteError(`The authorize function of provider "${provider.id}" must return a user object or null.`)
  }
  const user: User & { id: string } = { ...returned, id: returned.id != null ? String(returned.id) : crypto.randomUUID() }
  if (throttle && subject) await attemptSucceeded(throttle.limits, subject)
  return signIn(ctx, { kind: "credentials", provider, user, fields })
}
