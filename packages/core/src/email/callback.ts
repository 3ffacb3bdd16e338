/**
 * `GET|POST callback/:email-provider`: following a sign-in link, or typing a one-time code.
 *
 * Opening the link (`GET`, and so `HEAD`) consumes nothing: it shows a page whose one button posts
 * the link's parameters back with a CSRF token minted for that page (see
 * `pages/confirm-email.ts` for why). Prefetches and previews get a `503` without even that page.
 * Only the `POST` (whose CSRF token the dispatcher checked) uses the token: `useVerificationToken`
 * returns and deletes it in one step, so of two confirmations of one link exactly one finds it;
 * then the expiry is checked, and the address, now proven, goes to the sign-in decision
 * (`account/sign-in.ts`), where the `signIn` callback runs again (without `verificationRequest`).
 *
 * A link that is unknown, already used, expired, for another address, or missing its parameters
 * ends on the error page with `Verification`. With secrets being rotated, a link made under an
 * older secret still works: each secret's hash is tried in turn.
 *
 * A `POST` with a `code` field is a code typed on the verify-request page (`code.ts`). The code is
 * good only with the binding the browser got when it asked for it (the sealed emailCode cookie):
 * without that cookie (another browser), or with one that is altered or expired, the answer is
 * `Verification`, as for an expired link. The right code signs in exactly as the link would; a
 * wrong one goes back to the verify-request page (`error=InvalidCode`) while tries remain; an
 * expired code, or the fifth wrong try, ends the binding and goes to the sign-in page with
 * `error=Verification`, to ask for a new one.
 *
 * @module
 */
import { signIn } from "../account/sign-in.js"
import { stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import type { VerificationToken } from "../adapters/types.js"
import { Verification } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { useAuthjsLink } from "../migrate/authjs/email-link.js"
import { confirmEmailPage } from "../pages/confirm-email.js"
import { signInPageUrl, translatorFor } from "../pages/where.js"
import { counterStoreFor } from "../password/counters.js"
import { codeSubject, emailCodeThrottle } from "../password/throttle.js"
import { checkEmailCode, clearBinding, readBinding } from "./code.js"
import { callbackEndpoint, maxLinkParameterLength, verifyRequestUrl } from "./links.js"
import { isPrefetch } from "./prefetch.js"
import type { EmailProvider } from "./resolve.js"
import { emailTokenPurpose } from "./token.js"

interface LinkParameters {
  token: string
  email: string
}

function linkParameters(source: Readonly<Record<string, unknown>>): LinkParameters {
  const { token, email } = source
  const usable = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= maxLinkParameterLength
  if (!usable(token) || !usable(email)) throw new Verification("The sign-in link is missing its token or email, or they are malformed.")
  return { token, email }
}

function prefetchAnswer(): InternalResponse {
  return {
    status: 503,
    headers: { ...noStore, "Content-Type": "text/plain; charset=utf-8" },
    body: "Sign-in links are not prefetched. Open the link to continue.",
  }
}

async function showConfirmation(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  if (isPrefetch(ctx)) return prefetchAnswer()
  const { token, email } = linkParameters(ctx.query)
  const { token: csrfToken } = await ctx.csrf()
  const page = confirmEmailPage(
    {
      action: callbackEndpoint(ctx, provider),
      csrfToken,
      token,
      email,
      callbackUrl: await ctx.callbackUrl(),
      origin: ctx.origin,
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/**
 * Uses (and so deletes) the stored token, trying the hash under each secret; then, with
 * `migrateFrom: "authjs"`, the hash of a link Auth.js sent before the switch (`migrate/authjs/`).
 */
async function useToken(ctx: RequestContext, provider: EmailProvider, { token, email }: LinkParameters): Promise<VerificationToken | null> {
  const stored = await useOneTime(provider.adapter, email, emailTokenPurpose, token, provider.tokenSecrets, ctx.spentOneTime)
  if (stored || ctx.config.migrateFrom !== "authjs") return stored
  return useAuthjsLink(provider.adapter, email, token, provider.tokenSecrets, ctx.spentOneTime)
}

async function confirm(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  const link = linkParameters(ctx.body)
  const stored = await useToken(ctx, provider, link)
  if (!stored) throw new Verification("The sign-in link is unknown, already used, or for another address.")
  if (!stillValid(stored)) throw new Verification("The sign-in link has expired.")
  return signIn(ctx, { kind: "email", provider, email: link.email })
}

/** The sign-in page with `error=Verification`: the code cannot be used any more, a new one must be asked for. */
async function askForNewCode(ctx: RequestContext): Promise<InternalResponse> {
  const url = new URL(signInPageUrl(ctx))
  const callbackUrl = await ctx.callbackUrl()
  if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  url.searchParams.set("error", "Verification")
  return { redirect: url.href, cookies: ctx.setCookies }
}

/** The verify-request page's code form again, with `error`. */
function backToCodeForm(ctx: RequestContext, provider: EmailProvider, error: "InvalidCode" | "TooManyAttempts"): InternalResponse {
  const url = new URL(verifyRequestUrl(ctx, provider))
  url.searchParams.set("error", error)
  return { redirect: url.href, cookies: ctx.setCookies }
}

async function confirmCode(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  const bound = await readBinding(ctx)
  if (!bound || bound.provider !== provider.id) {
    clearBinding(ctx)
    throw new Verification("A sign-in code came without the cookie of the browser that asked for it, or with one that is altered, expired or for another provider.")
  }
  const typed = typeof ctx.body.code === "string" ? ctx.body.code : ""
  const counters = counterStoreFor(undefined, provider.adapter)
  // Wrong codes are counted per address too, across every code sent to it: each code's own five
  // tries would otherwise allow five more guesses per code an attacker has sent.
  const throttled = { throttle: emailCodeThrottle(counters), subject: codeSubject(ctx, bound.email) }
  const result = await checkEmailCode(provider.adapter, counters, provider.tokenSecrets, bound.binding, typed, throttled, ctx.spentOneTime)
  if (result === "ok") {
    clearBinding(ctx)
    return signIn(ctx, { kind: "email", provider, email: bound.email })
  }
  if (result === "wrong" || result === "throttled") return backToCodeForm(ctx, provider, result === "wrong" ? "InvalidCode" : "TooManyAttempts")
  clearBinding(ctx)
  ctx.config.logger.debug(`email sign-in: a code of provider "${provider.id}" was ${result === "expired" ? "used after it expired" : "tried too many times"}`)
  return askForNewCode(ctx)
}

export function emailCallback(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  if (ctx.method !== "POST") return showConfirmation(ctx, provider)
  return ctx.body.code === undefined ? confirm(ctx, provider) : confirmCode(ctx, provider)
}
