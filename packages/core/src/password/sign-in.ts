/**
 * `POST callback/:password-provider` (the dispatcher has checked the CSRF token): a sign-in with
 * an email address and a password.
 *
 * In order: the throttle decides whether the attempt may go ahead (a refusal is answered like a
 * wrong password, plus `Retry-After`); the stored hash is checked, or for an address without an
 * account or without a password the same work is done on a dummy hash, so the answer and its
 * timing are the same; a hash made with old parameters (or imported) is replaced by a current one;
 * an address not confirmed yet, where the provider requires it, gets a new confirmation link and
 * `EmailNotVerified`; then the user goes to the sign-in decision. Once the session exists, the
 * password is read again: if it changed while this sign-in ran (a change or reset that ended the
 * user's sessions), the new session is ended too.
 *
 * @module
 */
import { attemptOn } from "../account/failure.js"
import { signIn } from "../account/sign-in.js"
import { CredentialsSignin, EmailNotVerified, TooManyAttempts } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { emitSecurity } from "../security-events.js"
import type { InternalResponse } from "../http/response.js"
import { typedAddress, typedPassword } from "./input.js"
import { emailLink } from "./mail.js"
import type { PasswordProvider } from "./provider.js"
import { verifyPassword } from "./verify.js"
import { replacePasswordHash, storedPassword } from "./storage.js"

export async function passwordCallback(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  // The captcha first, when it guards sign-in: before the throttle counts anything or a hash is checked.
  const captchaRefusal = await ctx.config.hooks.formGuard?.check(ctx, "sign-in")
  if (captchaRefusal) return captchaRefusal
  const { adapter, hasher } = provider
  const email = typedAddress(provider, ctx.body.email)
  const typed = typedPassword(provider, ctx.body.password)
  const failure = async (reason: "credentials" | "unverified", error: CredentialsSignin | EmailNotVerified): Promise<never> => {
    await emit(ctx.config, "signInFailure", { provider: provider.id, identifier: email, reason })
    throw error
  }
  if (!email || typed === null) return failure("credentials", new CredentialsSignin("The email address or the password is missing or malformed."))

  const verdict = await verifyPassword(provider, email, typed, provider.clientIp?.(ctx.request) ?? null)
  if (!verdict.ok && verdict.retryAfter !== undefined) {
    await emit(ctx.config, "signInFailure", { provider: provider.id, identifier: email, reason: "throttled", retryAfter: verdict.retryAfter })
    throw new TooManyAttempts(verdict.retryAfter)
  }
  if (!verdict.ok) {
    if (verdict.userId) attemptOn(ctx, verdict.userId)
    // The attempt that locks the account out: said once, beside this attempt's own failure.
    if (verdict.lockout !== undefined) await emitSecurity(ctx.config, ctx.headers, { type: "sign-in.throttled", userId: verdict.userId ?? null, actorId: null, provider: provider.id, details: { retryAfter: verdict.lockout } })
    return failure("credentials", new CredentialsSignin("Wrong email address or password."))
  }
  const { user, stored } = verdict
  attemptOn(ctx, user.id)

  let hash = stored.hash
  if (hasher.needsRehash?.(hash)) {
    const fresh = await hasher.hash(typed)
    // Replace only the hash just verified, in one conditional update: a change of password made
    // meanwhile must not be undone (on every store, whatever its transactions' isolation).
    const replaced = await replacePasswordHash(adapter, user.id, stored.hash, fresh)
    if (!replaced) return failure("credentials", new CredentialsSignin("The password changed while this sign-in was checked."))
    hash = fresh
  }
  if (provider.config.requireEmailVerification && !user.emailVerified) {
    await emailLink(ctx, provider, "verify-email", { id: user.id, email })
    return failure("unverified", new EmailNotVerified("The address is not confirmed yet; a new confirmation link was sent."))
  }
  return signIn(ctx, {
    kind: "password",
    provider,
    user,
    isNewUser: false,
    recheck: async () => (await storedPassword(adapter, user.id))?.hash === hash,
  })
}
