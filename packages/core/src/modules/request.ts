/**
 * A module's endpoint as the dispatcher runs it: the request handed over as a `ModuleRequest`, and
 * the module's answer made an internal response, kept out of caches and on the app's own origin.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { crossSiteCookieOptions, moduleCookie } from "../http/cookies.js"
import { fixedAuthUrl } from "../http/issuer.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { startAuthorization } from "../oauth/authorize.js"
import { isLoopback } from "../oauth/http.js"
import { isSafeHtml } from "../pages/html.js"
import type { Translator } from "../pages/i18n.js"
import { page } from "../pages/layout.js"
import type { MessageKey } from "../pages/messages.js"
import { translatorFor } from "../pages/where.js"
import { checkMaxAge, recentlySignedIn } from "../session/fresh.js"
import { signedInUser, signedInUserId } from "../session/index.js"
import { endSession } from "../session/sign-out.js"
import { currentActing, startActing, stopActing } from "../session/acting.js"
import { checkPluginEvent, emitSecurity } from "../security-events.js"
import { isJson } from "../store/json.js"
import type { JsonValue } from "../store/model.js"
import { aboutUser } from "./about-user.js"
import { placeSections } from "./page-parts.js"
import { moduleSignIn } from "./identity.js"
import { moduleProvider, ownsProviderId } from "./providers.js"
import type { ResolvedRoute } from "./resolve.js"
import type { ModulePage, ModuleRequest, ModuleResponse, SesameModule } from "./types.js"

/** A module's cookie name, checked: lowercase letters, digits and hyphens. */
function cookieName(module: SesameModule, name: string): string {
  if (typeof name !== "string" || !/^[a-z0-9-]{1,32}$/.test(name)) throw new TypeError(`Plugin "${module.id}": a cookie's name is 1 to 32 lowercase letters, digits and hyphens; got ${JSON.stringify(name)}.`)
  return name
}

/**
 * The answers `signInWith`, `signIn` and `redirectToIdentityProvider` made, with the core's response they stand for: the only
 * module answers that may send the browser to another origin (the provider's authorization
 * endpoint) or start a session.
 */
const handedOver = new WeakMap<ModuleResponse, InternalResponse>()

/**
 * The request as `module` reads it. `setsCookies`: whether cookies queued on `ctx` reach the
 * browser (an endpoint's answer), which a server function's call does not.
 */
export function moduleRequest(ctx: RequestContext, module: SesameModule, setsCookies: boolean): ModuleRequest {
  const { store, logger, sealing, users } = ctx.config.modules.context
  let translator: Translator | undefined
  const texts = () => (translator ??= translatorFor(ctx))
  return {
    store,
    logger,
    sealing,
    publicAuthUrl: fixedAuthUrl(ctx),
    ...(users ? { users } : {}),
    method: ctx.method,
    url: new URL(`${ctx.url.pathname}${ctx.url.search}`, ctx.origin),
    authUrl: ctx.authUrl,
    headers: ctx.headers,
    query: ctx.query,
    body: ctx.body,
    user: () => signedInUser(ctx),
    async securityEvent(event) {
      const input = checkPluginEvent(event)
      // Who acts: in an acting session (an admin as the user), the actor, not the user.
      const actorId = input.actorId !== undefined ? input.actorId : ((await currentActing(ctx))?.actorId ?? (await signedInUserId(ctx)))
      await emitSecurity(ctx.config, ctx.headers, { ...input, actorId })
    },
    async sendPasswordReset(userId) {
      const send = ctx.config.hooks.sendPasswordReset
      const user = send && typeof userId === "string" ? await ctx.config.adapter?.getUser(userId) : null
      if (!send || !user?.email) return "unavailable"
      return send(ctx, { id: user.id, email: user.email })
    },
    aboutUser: (userId) => aboutUser(ctx, userId, (other) => moduleRequest(ctx, other, false)),
    sections: (place, input) => placeSections(ctx, module, place, input, (other) => moduleRequest(ctx, other, setsCookies)),
    async recentSignIn(maxAge) {
      checkMaxAge(maxAge)
      return (await signedInUserId(ctx)) !== null && recentlySignedIn(ctx, maxAge)
    },
    async setSessionPart(value) {
      if (!ctx.config.modules.keeping.has(module.id)) throw new TypeError(`Plugin "${module.id}" sets its part of the session, but does not say \`keepsSessionPart: true\`.`)
      // A JWT session changes only with its cookie, which a server function's caller never sends on.
      if (!setsCookies && ctx.config.session.strategy === "jwt") {
        throw new TypeError(`Plugin "${module.id}": with JWT sessions, its part of the session is set from one of its endpoints, which can send the re-issued cookie; a server function cannot.`)
      }
      if (value !== undefined && !isJson(value)) throw new TypeError(`Plugin "${module.id}"'s part of the session must be JSON (plain objects, arrays, strings, finite numbers, booleans, null).`)
      // The same rule as every decision made for the signed-in user: a planted second cookie is no one.
      if (!(await signedInUser(ctx))) return false
      return ctx.config.sessionStrategy.setModulePart(ctx, module.id, value)
    },
    async sessionPart() {
      // Only a module with a part has one: `session[<id>]` of another module is a key of Sesame's (`expires`).
      if (typeof module.session !== "function" || !(await signedInUser(ctx))) return undefined
      const session = (await ctx.config.sessionStrategy.read(ctx)) as Record<string, unknown> | null
      return session?.[module.id] as JsonValue | undefined
    },
    get lang() {
      return texts().lang
    },
    text: (key, vars) => texts().t(key as MessageKey, vars),
    async csrfToken() {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": a CSRF token is for a page's form, which one of its endpoints answers; a server function's caller sends no cookie on.`)
      return (await ctx.csrf()).token
    },
    callbackUrl: () => ctx.callbackUrl(),
    cookie(name) {
      const { name: full } = moduleCookie(ctx.secure, module.id, cookieName(module, name), 0)
      return ctx.cookies.repeated.has(full) ? undefined : ctx.cookies.get(full)
    },
    setCookie(name, value, { maxAge, crossSite = false }) {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": a cookie goes out with one of its endpoints' answers; a server function sends none.`)
      if (typeof value !== "string" || !/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]{0,3000}$/.test(value)) {
        throw new TypeError(`Plugin "${module.id}": a cookie's value must be up to 3,000 printable ASCII characters without spaces, quotes, commas, semicolons or backslashes.`)
      }
      if (!Number.isInteger(maxAge) || maxAge < 0) throw new TypeError(`Plugin "${module.id}": a cookie's \`maxAge\` is a whole number of seconds.`)
      const cookie = moduleCookie(ctx.secure, module.id, cookieName(module, name), maxAge)
      ctx.setCookies.push({ name: cookie.name, value, options: crossSite ? crossSiteCookieOptions(cookie.options, ctx.secure) : cookie.options })
    },
    async signOut() {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": a sign-out ends in one of its endpoints, which can clear the session cookie; a server function cannot.`)
      await endSession(ctx)
    },
    redirectToIdentityProvider(url) {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": only one of its endpoints can send the browser on.`)
      const target = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined
      if (!target || !(target.protocol === "https:" || (target.protocol === "http:" && isLoopback(target)))) {
        throw new TypeError(`Plugin "${module.id}": an identity provider's URL must be https (http on a loopback host only).`)
      }
      const answer: ModuleResponse = {}
      handedOver.set(answer, { redirect: target.href, cookies: ctx.setCookies })
      return answer
    },
    async actAs(userId, part, { endsAt }) {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": acting starts from one of its endpoints, which can send the session cookies; a server function cannot.`)
      if (!module.acting || !ctx.config.modules.keeping.has(module.id)) throw new TypeError(`Plugin "${module.id}" starts acting sessions, but does not declare \`acting\` and \`keepsSessionPart: true\`.`)
      if (!isJson(part) || !module.acting(part)) throw new TypeError(`Plugin "${module.id}": its \`acting\` must recognise the part an acting session starts with.`)
      if (!Number.isFinite(endsAt) || endsAt <= Date.now()) throw new TypeError(`Plugin "${module.id}": \`endsAt\` must be a time in the future (ms).`)
      // The actor: a planted second cookie is no one, and an acting session does not act again.
      if (!(await signedInUser(ctx)) || (await currentActing(ctx))) return false
      const user = typeof userId === "string" ? await ctx.config.adapter?.getUser(userId) : null
      if (!user) return false
      await startActing(ctx, module, user, part, endsAt)
      return true
    },
    async acting() {
      const acting = await currentActing(ctx)
      return acting && { actorId: acting.actorId, endsAt: acting.endsAt }
    },
    async stopActing() {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": acting ends in one of its endpoints, which can send the session cookies; a server function cannot.`)
      return stopActing(ctx)
    },
    async signIn(identity) {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": a sign-in ends in one of its endpoints, which can send the session cookie; a server function cannot.`)
      const answer: ModuleResponse = {}
      handedOver.set(answer, await moduleSignIn(ctx, module, identity))
      return answer
    },
    async signInWith(providerId, params = {}) {
      if (!setsCookies) throw new TypeError(`Plugin "${module.id}": a sign-in starts from one of its endpoints, which can send the check cookies; a server function cannot.`)
      if (typeof providerId !== "string" || !ownsProviderId(ctx, module, providerId)) {
        throw new TypeError(`Plugin "${module.id}" can start sign-ins with its own providers only (ids starting "${module.id}-", neither a configured provider's nor another plugin's); got ${JSON.stringify(providerId)}.`)
      }
      const provider = await moduleProvider(ctx, providerId)
      if (!provider) throw new TypeError(`Plugin "${module.id}" has no provider "${providerId}".`)
      const internal = await startAuthorization(ctx, provider, params)
      const answer: ModuleResponse = {}
      handedOver.set(answer, internal)
      return answer
    },
  }
}

/**
 * A module's page in the built-in pages' document, with their headers (CSP, no framing, no cache):
 * the module chooses only the title and the body's markup, which `html` escaped.
 */
function pageOf(ctx: RequestContext, module: SesameModule, lang: string, answer: ModulePage, status = 200): InternalResponse {
  if (typeof answer.title !== "string" || !isSafeHtml(answer.body)) {
    throw new TypeError(`Plugin "${module.id}" answered a page without a \`title\` string or a \`body\` made with \`html\`.`)
  }
  return page({ lang, title: answer.title, theme: ctx.config.theme, body: answer.body, status, wide: answer.width === "wide" })
}

/** Runs the endpoint; its answer with the request's cookies (a CSRF cookie, a refreshed session). */
export async function runModuleRoute(ctx: RequestContext, { module, route }: ResolvedRoute): Promise<InternalResponse> {
  const request = moduleRequest(ctx, module, true)
  const answer: ModuleResponse = await route.run(request)
  const signIn = handedOver.get(answer)
  if (signIn) return signIn
  // A redirect goes through `redirect`, which keeps it on the app's origin; never through headers.
  const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).filter(([name]) => name.toLowerCase() !== "location"))
  if (answer.status !== undefined && answer.status >= 300 && answer.status < 400 && answer.redirect === undefined) {
    throw new TypeError(`A module answered ${answer.status} without \`redirect\`: redirects go through \`redirect\`, which stays on the app's origin.`)
  }
  const internal: InternalResponse = answer.page
    ? { ...pageOf(ctx, module, request.lang, answer.page, answer.status), cookies: ctx.setCookies }
    : { status: answer.status ?? 200, headers: { ...noStore, ...headers }, body: answer.body, cookies: ctx.setCookies }
  if (answer.redirect !== undefined) {
    // A module sends the browser on within the app: never to another origin (an open redirect).
    const target = new URL(answer.redirect, ctx.origin)
    if (target.origin !== ctx.origin) throw new TypeError(`A module answered with a redirect to another origin (${target.origin}).`)
    internal.redirect = target.href
  }
  return internal
}
