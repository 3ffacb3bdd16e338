/**
 * `POST signin/:email-provider`: asking for a sign-in link (the CSRF check is done by the dispatcher).
 *
 * In order: the address is normalised (a malformed one is refused with `EmailSignin` before
 * anything else happens); the rate limit counts the request; the `signIn` callback runs with
 * `email.verificationRequest: true` and may refuse the address (`AccessDenied`, no email); a token
 * is made, its keyed hash stored with `createVerificationToken`, and the link sent; the browser is
 * sent to the verify-request page.
 *
 * A request over the rate limit gets that very same redirect and nothing is sent, so neither the
 * limit nor anything else here tells a visitor whether an address has an account. A rate-limit
 * store that fails lets the request through (and logs the failure): a broken Redis should not stop
 * every sign-in, and the limit is a brake, not an authentication check.
 *
 * @module
 */
import { checkLinkRequest } from "../account/sign-in.js"
import { EmailSignInError, InvalidProvider } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { translatorFor } from "../pages/where.js"
import { maxLinkParameterLength, signInLink, verifyRequestUrl } from "./links.js"
import { verificationEmail } from "./message.js"
import { overRateLimit } from "./rate-limit.js"
import type { EmailProvider } from "./resolve.js"
import { sendLink } from "./send.js"
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
    ctx.config.logger.error(new EmailSignInError("The rate-limit store failed; the request was let through.", { cause: error }))
    return false
  }
}

export async function requestEmailLink(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  const { config } = ctx
  const email = normalizedAddress(provider, ctx.body.email)
  const done: InternalResponse = { redirect: verifyRequestUrl(ctx, provider), cookies: ctx.setCookies }
  if (await rateLimited(ctx, provider, email)) {
    config.logger.debug(`email sign-in: over the rate limit of provider "${provider.id}"; no link sent`)
    return done
  }

  const redirect = await checkLinkRequest(ctx, { provider, email })
  if (redirect) return { redirect, cookies: ctx.setCookies }

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
  const message = verificationEmail({ url, host: new URL(ctx.origin).host, theme: config.theme }, translatorFor(ctx))
  await sendLink(ctx, provider, { identifier: email, url, expires, provider: provider.config, token, theme: config.theme, request: ctx.request, message }, hashed)
  return done
}
