/**
 * The dispatcher: one row per (method, action), and the checks each request gets before its
 * action runs, made here and nowhere else. The rows are the core's and the built-in capabilities'
 * (each capability's `feature.ts`, gathered by `config/features.ts`), and the app's modules' (`plugins`).
 *
 * | method | endpoint                | provider                         | same origin         | CSRF token              |
 * | ------ | ----------------------- | -------------------------------- | ------------------- | ----------------------- |
 * | GET    | `providers`, `csrf`, `session`, `signin`, `signout`, `error`, `verify-request`, `webauthn-script` | none | no | no |
 * | GET    | `signin/:provider`      | unavailable refused; unknown ok  | no                  | no                      |
 * | GET    | `callback/:provider`    | must exist                       | no                  | no (`state`, PKCE, nonce; email links post back) |
 * | GET    | `webauthn-options/:p`   | must exist, a `webauthn` one     | no                  | no (changes no session) |
 * | POST   | `session`, `signout`    | none                             | yes                 | yes                     |
 * | POST   | `signin`                | none                             | yes                 | no (shows the page)     |
 * | POST   | `signin/:provider`      | must exist                       | yes                 | yes                     |
 * | POST   | `callback/:provider`    | must exist                       | yes, but `oauth`/`oidc` | `credentials`, `email`, `password` |
 * | GET    | `signup`, `forgot-password` | none (the password provider's forms) | no          | no                      |
 * | GET    | `reset-password/:p`, `verify-email/:p` | must exist, a `password` one | no   | no (a page; nothing is used) |
 * | POST   | `signup/:p`, `forgot-password/:p`, `reset-password/:p`, `verify-email/:p` | must exist, a `password` one | yes | yes |
 * | GET    | `two-factor`, `two-factor/setup`, `reauthenticate` | none                    | no                  | no (pages)              |
 * | POST   | `two-factor`, `two-factor/email`, `two-factor/setup`, `two-factor/recovery-codes`, `two-factor/disable`, `reauthenticate` | none | yes | yes |
 * | GET    | a module's endpoint (`plugins`)  | none                             | no                  | no                      |
 * | POST   | a module's endpoint              | none                             | yes                 | yes, unless its row says `csrf: false` |
 *
 * - **Rate limit** (`rate-limit/`, with `rateLimit` on): first of all, the client's count in its
 *   row's family (`limit`; a row without one: `pages` for a GET, `account` for a POST), a `429`
 *   past the limit.
 * - **Provider.** A path that names a provider must name one that exists (`404`), unless the row
 *   says otherwise; one left out for its missing settings (`config/providers.ts`) answers its
 *   `Configuration` error where the row refuses it, so that the log names the variables to set.
 *   An endpoint that needs a provider but has none in its path is a `404`.
 * - **Same origin** (`http/origin-check.ts`): every POST, refused when the browser says it comes
 *   from another origin or site, except the OAuth/OIDC callback: with `response_mode=form_post`
 *   (Apple and others) the provider's page posts it cross-site by design, and `state`, PKCE and
 *   the nonce tie it to the browser that started the sign-in. A POST added later is checked unless
 *   its row says otherwise. It runs first, before the provider is looked at.
 * - **CSRF token** (`http/csrf.ts`): a failure is `MissingCSRF`. `skipCSRFCheck` turns it off; a
 *   framework's server action that forwards the browser's headers passes the origin check as the
 *   browser's own same-origin post would. The passkey callback needs no token: its SameSite=Lax,
 *   sealed challenge cookie does the job.
 *
 * What a failure becomes (a `BadRequest`'s 4xx, a redirect to the sign-in or error page) is
 * `http/error-response.ts`'s decision.
 *
 * @module
 */
import { featureRoutes } from "../config/features.js"
import type { ResolvedProvider } from "../config/providers.js"
import { BadRequest, MissingCSRF } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { assertSameOrigin } from "../http/origin-check.js"
import { actionNames, coreActions } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import { moduleProvider } from "../modules/providers.js"
import { runModuleRoute } from "../modules/request.js"
import { defaultFamily, route, type Route, type Routes, type Run } from "../modules/route.js"
import type { ProviderType } from "../types.js"
import { callback } from "./callback.js"
import { csrf } from "./csrf.js"
import { showError } from "./error.js"
import { providers } from "./providers.js"
import { getSession, updateSession } from "./session.js"
import { backToSignInPage, showSignIn, signIn } from "./signin.js"
import { showSignOut, signOut } from "./signout.js"

const allKinds: readonly ProviderType[] = ["credentials", "oauth", "oidc", "email", "webauthn", "password"]

/** The core's own rows, keyed `METHOD action` or `METHOD action/:provider`: the actions of `coreActions`. */
const coreRoutes: Routes = {
  "GET providers": route({ limit: "session", run: providers }),
  "GET csrf": route({ limit: "session", run: csrf }),
  "GET session": route({ limit: "session", run: getSession }),
  "GET signin": route({ run: showSignIn }),
  "GET signin/:provider": route<ResolvedProvider | undefined>({ provider: { unknown: "allowed" }, refuseUnavailable: true, run: backToSignInPage }),
  "GET signout": route({ run: showSignOut }),
  "GET callback/:provider": route<ResolvedProvider>({ limit: "callback", provider: {}, refuseUnavailable: true, run: callback }),
  "GET error": route({ run: (ctx) => showError(ctx) }),
  "POST session": route({ limit: "session", csrf: true, run: updateSession }),
  "POST signin": route({ limit: "pages", run: backToSignInPage }),
  "POST signin/:provider": route<ResolvedProvider>({ limit: "sign-in", provider: {}, refuseUnavailable: true, csrf: true, run: signIn }),
  "POST signout": route({ csrf: true, run: signOut }),
  "POST callback/:provider": route<ResolvedProvider>({
    limit: "sign-in",
    provider: {},
    refuseUnavailable: true,
    csrf: ["credentials", "email", "password"],
    crossSite: ["oauth", "oidc"],
    run: callback,
  }),
}

// The router knows the core's actions from `coreActions` (below this layer): the two lists are one decision.
const names = actionNames(Object.keys(coreRoutes))
if (names.actions.size !== Object.keys(coreActions).length || [...names.withProvider].some((action) => !coreActions[action])) {
  throw new Error("The core's rows and `coreActions` (http/request.ts) disagree.")
}

/** Every row's key (`"POST callback/:provider"`), the core's and the built-in capabilities': for the endpoint documentation's check (`test/docs/endpoints.test.ts`). */
export function routeKeys(): string[] {
  return [...Object.keys(coreRoutes), ...Object.keys(featureRoutes())]
}

/** The row of `key`: the core's, or a built-in capability's. */
function rowOf(key: string): Route | undefined {
  if (Object.hasOwn(coreRoutes, key)) return coreRoutes[key]
  const features = featureRoutes()
  return Object.hasOwn(features, key) ? features[key] : undefined
}

/**
 * A module's endpoint as a row: a POST is same-origin checked, and needs the CSRF token unless the
 * module's row says `csrf: false`.
 */
function moduleRow(ctx: RequestContext): Route | undefined {
  const found = ctx.config.modules.routes.get(`${ctx.method} ${ctx.modulePath}`)
  if (!found) return undefined
  return {
    limit: found.route.rateLimit,
    csrf: ctx.method === "POST" && found.route.csrf !== false ? true : undefined,
    crossSite: ctx.method === "POST" && found.route.crossSite === true ? true : undefined,
    run: ((c: RequestContext) => runModuleRoute(c, found)) as Run<never>,
  }
}

/** Why a request has no row: an endpoint that needs a provider got none (404), or the method is not served there. */
function noRoute(ctx: RequestContext): BadRequest {
  if (ctx.action === "module") return new BadRequest(`${ctx.method} ${ctx.modulePath} is not supported.`)
  if (ctx.providerId === undefined && rowOf(`${ctx.method} ${ctx.action}/:provider`)) {
    return new BadRequest(`The ${ctx.action} endpoint needs a provider.`, 404)
  }
  return new BadRequest(`${ctx.method} ${ctx.action} is not supported.`)
}

function has(list: true | readonly ProviderType[] | undefined, provider: ResolvedProvider | undefined): boolean {
  return list === true || (!!list && !!provider && list.includes(provider.type))
}

/** Runs the request's action after the checks its row asks for. */
export async function dispatch(ctx: RequestContext): Promise<InternalResponse> {
  const { config, providerId } = ctx
  const row = ctx.action === "module" ? moduleRow(ctx) : rowOf(`${ctx.method} ${ctx.action}${providerId === undefined ? "" : "/:provider"}`)
  // Before any other work (a module's provider may be looked up in the store): a client over its
  // limit is refused at the cost of a counter.
  const { limiter } = config.hooks
  if (limiter) {
    const limited = await limiter.request(ctx, row?.limit ?? defaultFamily(ctx.method))
    if (limited) return limited
  }
  const provider = providerId === undefined ? undefined : (config.providers.get(providerId) ?? (await moduleProvider(ctx, providerId)))
  if (ctx.method === "POST" && !has(row?.crossSite, provider)) assertSameOrigin(ctx)
  if (!row) throw noRoute(ctx)
  if (row.provider && providerId !== undefined) {
    const unavailable = row.refuseUnavailable ? config.unavailableProviders.get(providerId) : undefined
    if (unavailable) throw unavailable
    if (!provider && row.provider.unknown !== "allowed") throw new BadRequest(`There is no provider "${providerId}".`, 404)
    const kinds = row.provider.kinds ?? allKinds
    if (provider && !kinds.includes(provider.type)) throw new BadRequest(`Provider "${provider.id}" does not serve the ${ctx.action} endpoint.`)
  }
  // A bearer session's request (a read or an end of the session: http/bearer.ts) carries its token
  // in a header no other site can make a browser send, so it needs no CSRF token.
  if (has(row.csrf, provider) && !config.skipCSRFCheck && !ctx.bearer && !(await ctx.csrf()).verified) {
    throw new MissingCSRF("The CSRF token is missing or does not match.")
  }
  return (row.run as Run<ResolvedProvider | undefined>)(ctx, provider)
}
