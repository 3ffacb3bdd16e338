/**
 * The URLs of the email flow: the link in the email, where its confirmation form posts, and the
 * "check your email" page.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { EmailConfig } from "./types.js"

/** The longest `token` or `email` a link may carry; longer values are refused before any lookup. */
export const maxLinkParameterLength = 512

/** `callback/:provider`: the link's path, and where the confirmation page posts. */
export function callbackEndpoint(ctx: RequestContext, provider: Pick<EmailConfig, "id">): string {
  return `${ctx.authUrl}/callback/${encodeURIComponent(provider.id)}`
}

/** The link sent by email (the parameters of Auth.js: `callbackUrl`, `token`, `email`). */
export function signInLink(ctx: RequestContext, provider: Pick<EmailConfig, "id">, params: { callbackUrl: string; token: string; email: string }): string {
  return `${callbackEndpoint(ctx, provider)}?${new URLSearchParams(params)}`
}

/** Where every link request ends, sent or not: `verify-request?provider=<id>&type=email`. */
export function verifyRequestUrl(ctx: RequestContext, provider: Pick<EmailConfig, "id">): string {
  return `${ctx.authUrl}/verify-request?${new URLSearchParams({ provider: provider.id, type: "email" })}`
}
