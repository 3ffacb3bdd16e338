/**
 * The flat (method, action) dispatcher, and the checks each request gets:
 *
 * | method | action                   | same origin (here)          | CSRF token (in the action)      |
 * | ------ | ------------------------ | --------------------------- | ------------------------------- |
 * | GET    | `callback/:oauth`/`oidc` | no: the provider's redirect | no: `state`, PKCE, nonce        |
 * | GET    | every other              | no: changes nothing         | no                              |
 * | POST   | `signin/:provider`       | yes                         | yes                             |
 * | POST   | `signout`                | yes                         | yes                             |
 * | POST   | `session`                | yes                         | yes                             |
 * | POST   | `callback/:credentials`  | yes                         | yes                             |
 * | POST   | `callback/:email`        | yes                         | yes                             |
 * | POST   | `callback/:webauthn`     | yes                         | no: the sealed challenge cookie |
 * | POST   | `callback/:oauth`/`oidc` | no: `form_post`             | no: `state`, PKCE, nonce        |
 *
 * "Same origin" is `http/origin-check.ts`: refused when the browser says the request comes from
 * another origin or site. Every POST gets it except those in {@link crossSitePosts}, so a POST
 * added later is checked unless someone decides otherwise here. `skipCSRFCheck` turns off the CSRF
 * token only; a framework's server action that forwards the browser's headers passes the origin
 * check as the browser's own same-origin post would.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { assertSameOrigin } from "../http/origin-check.js"
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

/**
 * The POSTs a browser may send from another site, as `action provider-type`. The OAuth and OIDC
 * callbacks: with `response_mode=form_post` (Apple and others) the provider's page posts the
 * response cross-site by design, and `state`, PKCE and the nonce tie it to the browser that
 * started the sign-in.
 */
const crossSitePosts: ReadonlySet<string> = new Set(["callback oauth", "callback oidc"])

function mustBeSameOrigin(ctx: RequestContext): boolean {
  return !crossSitePosts.has(ctx.provider ? `${ctx.action} ${ctx.provider.type}` : ctx.action)
}

export async function dispatch(ctx: RequestContext): Promise<InternalResponse> {
  if (ctx.method === "POST" && mustBeSameOrigin(ctx)) assertSameOrigin(ctx)
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
