/**
 * `POST signin/:email-provider`: asking for a sign-in link, a one-time code, or both (the CSRF
 * check is done by the dispatcher).
 *
 * In order: the address is normalised (a malformed one is refused with `EmailSignin` before
 * anything else happens); with codes on (the provider's `code` option), the browser gets its
 * binding (`code.ts`): a random id in a sealed cookie; the rate limit counts the request; the
 * `signIn` callback runs with `email.verificationRequest: true` and may refuse the address
 * (`AccessDenied`, no email); a link token is made (unless the provider sends only codes) and a code
 * for the binding, their keyed hashes stored with `createVerificationToken`, and one email sent
 * with both; the browser is sent to the verify-request page, which asks for the code when the
 * request carries the binding.
 *
 * A request over the rate limit gets that very same redirect and nothing is sent, so neither the
 * limit nor anything else here tells a visitor whether an address has an account. With codes, the
 * binding cookie is set before any of these steps, so every outcome carries the same cookie; when no
 * code is stored, its binding matches nothing, and a typed code is just wrong. A rate-limit store
 * that fails lets the request through (and logs the failure): a broken Redis should not stop every
 * sign-in, and the limit is a brake, not an authentication check.
 *
 * Using the link does not use up the code, nor the code the link: each is single-use and
 * short-lived on its own, and the code works only in the browser that asked for it.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import { checkLinkRequest } from "../account/sign-in.js"
import { defaultEmailCode } from "../config/defaults.js"
import { EmailSignInError, InvalidProvider } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { translatorFor } from "../pages/where.js"
import { bindBrowser, codeEmailParams, emailCodeRecord, newEmailCode } from "./code.js"
import { maxLinkParameterLength, signInLink, verifyRequestUrl } from "./links.js"
import { verificationEmail } from "./message.js"
import { overRateLimit } from "./rate-limit.js"
import type { EmailProvider } from "./resolve.js"
import { deliver, sendLink, type StoredForEmail } from "./send.js"
import { hashVerificationToken } from "./token.js"

function normalizedAddress(provider: EmailProvider, value: unknown): string {
  let email: unknown
  try {
    if (typeof value !== "string") throw new TypeError("The email address is missing.")
    email = provider.normalize(value)
  } catch (error) {
    throw new EmailSignInError(`The email provider "${provider.id}" refused the address.`, { cause: error })
  }
  if (typeof email !== "string" || email.length === 0) {
    throw new InvalidProvider(`The \`normalizeIdentifier\` of the email provider "${provider.id}" must return a non-empty string.`)
  }
  return email
}

async function rateLimited(ctx: RequestContext, provider: EmailProvider, email: string): Promise<boolean> {
  if (!provider.rateLimit) return false
  try {
    return await overRateLimit(provider.rateLimit, provider.id, email, ctx.request)
  } catch (error) {
    // Its storage away for a moment: "try again" (a 503), rather than letting every request through.
    const unavailable = storageUnavailable(error)
    if (unavailable) throw unavailable
    ctx.config.logger.error(new EmailSignInError("The rate-limit store failed; the request was let through.", { cause: error }))
    return false
  }
}

/** A new link for `email`, its token's keyed hash stored. */
async function storedLink(ctx: RequestContext, provider: EmailProvider, email: string): Promise<{ url: string; token: string; expires: Date; stored: StoredForEmail }> {
  const token = await provider.generateToken()
  if (typeof token !== "string" || token.length === 0 || token.length > maxLinkParameterLength) {
    throw new InvalidProvider(
      `The \`generateVerificationToken\` of the email provider "${provider.id}" must return a string of 1 to ${maxLinkParameterLength} characters.`,
    )
  }
  const expires = new Date(Date.now() + provider.maxAgeMs)
  const url = signInLink(ctx, provider, { callbackUrl: await ctx.callbackUrl(), token, email })
  const hashed = await hashVerificationToken(token, provider.tokenSecrets[0]!)
  await provider.adapter.createVerificationToken({ identifier: email, token: hashed, expires })
  return { url, token, expires, stored: { identifier: email, token: hashed } }
}

/** Stores a code for `binding` (and a link, unless the provider sends only codes) and sends them in one email. */
async function sendCode(ctx: RequestContext, provider: EmailProvider, email: string, binding: string): Promise<void> {
  const code = newEmailCode()
  const expires = new Date(Date.now() + defaultEmailCode.maxAge * 1000)
  const record = await emailCodeRecord(provider.tokenSecrets[0]!, binding, code)
  await provider.adapter.createVerificationToken({ ...record, expires })
  const link = provider.code === "beside-link" ? await storedLink(ctx, provider, email) : undefined
  const params = codeEmailParams(ctx, provider, { to: email, code, expires, url: verifyRequestUrl(ctx, provider), ...(link ? { link } : {}) })
  const failure = await deliver(ctx, provider, params, link ? [record, link.stored] : [record])
  if (failure) throw failure
}

export async function requestEmailLink(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  const { config } = ctx
  // The captcha first, when it guards email sign-in: before the address is read, counted or sent to.
  const captchaRefusal = await config.hooks.formGuard?.check(ctx, "email")
  if (captchaRefusal) return captchaRefusal
  const email = normalizedAddress(provider, ctx.body.email)
  const done: InternalResponse = { redirect: verifyRequestUrl(ctx, provider), cookies: ctx.setCookies }
  // Before anything that depends on the address, so that every answer below carries it.
  const binding = provider.code === "off" ? undefined : await bindBrowser(ctx, provider, email)
  if (await rateLimited(ctx, provider, email)) {
    config.logger.debug(`email sign-in: over the rate limit of provider "${provider.id}"; nothing sent`)
    return done
  }

  const redirect = await checkLinkRequest(ctx, { provider, email })
  if (redirect) return { redirect, cookies: ctx.setCookies }

  if (binding !== undefined) {
    await sendCode(ctx, provider, email, binding)
    return done
  }
  const link = await storedLink(ctx, provider, email)
  const message = verificationEmail({ url: link.url, host: new URL(ctx.origin).host, theme: config.theme }, translatorFor(ctx))
  const params = { identifier: email, url: link.url, expires: link.expires, provider: provider.config, token: link.token, theme: config.theme, request: ctx.request, message }
  await sendLink(ctx, provider, params, link.stored.token)
  return done
}
