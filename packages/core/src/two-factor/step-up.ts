/**
 * Step-up: before a sensitive action, a session whose sign-in is not recent (`session/fresh.ts`)
 * proves who it is again. `GET reauthenticate` asks a user with an authenticator app for a fresh
 * code (`pages.ts`), and sends anyone else to the sign-in page, where signing in again
 * as anyone is a fresh sign-in; `POST reauthenticate` checks the code (`verify.ts`, throttled like
 * the sign-in challenge) and renews the session's sign-in time (`SessionStrategy.refreshSignIn`:
 * a database session is replaced by a new one).
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { AdapterTwoFactor } from "./storage.js"
import { currentAdapterUser } from "../account/passkeys.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { reauthenticatePage } from "./pages.js"
import { translatorFor } from "../pages/where.js"
import { goTo, signInUrl, twoFactorUrl } from "./urls.js"
import { checkSecondFactor } from "./verify.js"
import { storedTwoFactor } from "./storage.js"

/** Where a session that must prove who it is again goes, to come back to `returnTo`. */
export function stepUpUrl(ctx: RequestContext, returnTo: string): string {
  return twoFactorUrl(ctx, "reauthenticate", { callbackUrl: returnTo })
}

/** The sign-in page, to come back to `callbackUrl`: signing in again is the step-up for everyone. */
function signInAgain(ctx: RequestContext, callbackUrl: string, user: AdapterUser | null): string {
  return signInUrl(ctx, { callbackUrl, email: user?.email || undefined })
}

/** The signed-in user, and their second factor when it is an authenticator app (the only one re-authentication takes). */
async function signedIn(ctx: RequestContext): Promise<{ user: AdapterUser | null; app: AdapterTwoFactor | null }> {
  const user = await currentAdapterUser(ctx)
  const stored = user && ctx.config.twoFactor ? await storedTwoFactor(ctx.config.twoFactor.adapter, user.id) : null
  return { user, app: stored?.method === "totp" ? stored : null }
}

/** `GET reauthenticate`. */
export async function showReauthenticate(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const { user, app } = await signedIn(ctx)
  if (!app) return goTo(ctx, signInAgain(ctx, callbackUrl, user))
  const { token } = await ctx.csrf()
  const page = reauthenticatePage(
    {
      action: twoFactorUrl(ctx, "reauthenticate"),
      csrfToken: token,
      callbackUrl,
      error: ctx.query.error,
      signInUrl: signInAgain(ctx, callbackUrl, user),
      theme: ctx.config.theme,
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** `POST reauthenticate`: a fresh code renews the session's sign-in time. */
export async function submitReauthenticate(ctx: RequestContext): Promise<InternalResponse> {
  const callbackUrl = await ctx.callbackUrl()
  const { user, app } = await signedIn(ctx)
  const twoFactor = ctx.config.twoFactor
  if (!app || !twoFactor) return goTo(ctx, signInAgain(ctx, callbackUrl, null))
  const checked = await checkSecondFactor(ctx, twoFactor, app, { code: ctx.body.code })
  if (!checked.ok) {
    const error = checked.reason === "throttled" ? "TooManyAttempts" : "InvalidCode"
    return goTo(ctx, twoFactorUrl(ctx, "reauthenticate", { callbackUrl, error }))
  }
  if (!(await ctx.config.sessionStrategy.refreshSignIn(ctx))) return goTo(ctx, signInAgain(ctx, callbackUrl, user))
  return goTo(ctx, callbackUrl)
}
