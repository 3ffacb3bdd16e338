/**
 * `GET|POST callback/:email-provider`: following a sign-in link.
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
 * @module
 */
import { signIn } from "../account/sign-in.js"
import { stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import type { VerificationToken } from "../adapters/types.js"
import { Verification } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { confirmEmailPage } from "../pages/confirm-email.js"
import { translatorFor } from "../pages/where.js"
import { callbackEndpoint, maxLinkParameterLength } from "./links.js"
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
  if (isPrefetch(ctx.request)) return prefetchAnswer()
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

/** Uses (and so deletes) the stored token, trying the hash under each secret. */
function useToken(provider: EmailProvider, { token, email }: LinkParameters): Promise<VerificationToken | null> {
  return useOneTime(provider.adapter, email, emailTokenPurpose, token, provider.tokenSecrets)
}

async function confirm(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  const link = linkParameters(ctx.body)
  const stored = await useToken(provider, link)
  if (!stored) throw new Verification("The sign-in link is unknown, already used, or for another address.")
  if (!stillValid(stored)) throw new Verification("The sign-in link has expired.")
  return signIn(ctx, { kind: "email", provider, email: link.email })
}

export function emailCallback(ctx: RequestContext, provider: EmailProvider): Promise<InternalResponse> {
  return ctx.method === "POST" ? confirm(ctx, provider) : showConfirmation(ctx, provider)
}
