/**
 * The flat (method, action) dispatcher.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { BadRequest } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import { callback } from "./callback.js"
import { csrf } from "./csrf.js"
import { showError } from "./error.js"
import { providers } from "./providers.js"
import { getSession, updateSession } from "./session.js"
import { showSignIn, showSignInForProvider, signIn } from "./signin.js"
import { showSignOut, signOut } from "./signout.js"
import { showVerifyRequest } from "./verify-request.js"
import { webauthnOptions, webauthnScript } from "./webauthn.js"

export async function dispatch(ctx: RequestContext): Promise<InternalResponse> {
  if (ctx.method === "GET") {
    switch (ctx.action) {
      case "providers":
        return providers(ctx)
      case "csrf":
        return csrf(ctx)
      case "session":
        return getSession(ctx)
      case "signin":
        return ctx.providerId === undefined ? showSignIn(ctx) : showSignInForProvider(ctx)
      case "signout":
        return showSignOut(ctx)
      case "callback":
        return callback(ctx)
      case "error":
        return showError(ctx)
      case "verify-request":
        return showVerifyRequest(ctx)
      case "webauthn-options":
        return webauthnOptions(ctx)
      case "webauthn-script":
        return webauthnScript(ctx)
    }
  } else {
    switch (ctx.action) {
      case "session":
        return updateSession(ctx)
      case "signin":
        return signIn(ctx)
      case "signout":
        return signOut(ctx)
      case "callback":
        return callback(ctx)
    }
  }
  throw new BadRequest(`${ctx.method} ${ctx.action} is not supported.`)
}
