/**
 * A module's endpoint as the dispatcher runs it: the request handed over as a `ModuleRequest`, and
 * the module's answer made an internal response, kept out of caches and on the app's own origin.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { signedInUser } from "../session/index.js"
import type { ModuleRequest, ModuleResponse, ModuleRoute } from "./types.js"

/** The request as a module reads it. */
export function moduleRequest(ctx: RequestContext): ModuleRequest {
  const { store, logger } = ctx.config.modules.context
  return {
    store,
    logger,
    method: ctx.method,
    url: new URL(`${ctx.url.pathname}${ctx.url.search}`, ctx.origin),
    headers: ctx.headers,
    query: ctx.query,
    body: ctx.body,
    user: () => signedInUser(ctx),
  }
}

/** Runs the endpoint; its answer with the request's cookies (a CSRF cookie, a refreshed session). */
export async function runModuleRoute(ctx: RequestContext, route: ModuleRoute): Promise<InternalResponse> {
  const answer: ModuleResponse = await route.run(moduleRequest(ctx))
  // A redirect goes through `redirect`, which keeps it on the app's origin; never through headers.
  const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).filter(([name]) => name.toLowerCase() !== "location"))
  if (answer.status !== undefined && answer.status >= 300 && answer.status < 400 && answer.redirect === undefined) {
    throw new TypeError(`A module answered ${answer.status} without \`redirect\`: redirects go through \`redirect\`, which stays on the app's origin.`)
  }
  const internal: InternalResponse = {
    status: answer.status ?? 200,
    headers: { ...noStore, ...headers },
    body: answer.body,
    cookies: ctx.setCookies,
  }
  if (answer.redirect !== undefined) {
    // A module sends the browser on within the app: never to another origin (an open redirect).
    const target = new URL(answer.redirect, ctx.origin)
    if (target.origin !== ctx.origin) throw new TypeError(`A module answered with a redirect to another origin (${target.origin}).`)
    internal.redirect = target.href
  }
  return internal
}
