/**
 * `GET verify-request`: "check your email", after an email sign-in link was requested; with the
 * form for the one-time code when the browser holds the binding of one (`email/code.ts`).
 *
 * @module
 */
import { readBinding } from "./code.js"
import { callbackEndpoint } from "./links.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { verifyRequestPage, type CodeFormParams } from "./verify-request-page.js"
import { customPage, signInPageUrl, translatorFor } from "../pages/where.js"

/** The code form, when the request carries a valid binding for a provider that sends codes. */
async function codeForm(ctx: RequestContext): Promise<CodeFormParams | undefined> {
  const bound = await readBinding(ctx)
  const provider = bound ? ctx.config.providers.get(bound.provider) : undefined
  if (!bound || provider?.type !== "email" || provider.code === "off") return undefined
  const { token } = await ctx.csrf()
  return {
    action: callbackEndpoint(ctx, provider),
    csrfToken: token,
    callbackUrl: bound.callbackUrl,
    withLink: provider.code === "beside-link",
    error: ctx.query.error,
    signInUrl: signInPageUrl(ctx),
  }
}

export async function showVerifyRequest(ctx: RequestContext): Promise<InternalResponse> {
  const custom = customPage(ctx, "verifyRequest", ctx.query)
  if (custom) return custom
  const code = await codeForm(ctx)
  const response = verifyRequestPage({ origin: ctx.origin, theme: ctx.config.theme, ...(code ? { code } : {}) }, translatorFor(ctx))
  return { ...response, cookies: ctx.setCookies }
}
