/**
 * `sesame`: the Fastify plugin, `app.register(sesame, { config })`. Sesame's endpoints on the core's
 * Node.js handler (`toNodeHandler` of `@sesame/core/node`), which reads Node's request and writes
 * Node's response without making a web `Request` or `Response`; and `request.session`.
 *
 * Policy:
 * 1. The base path is the core's (`basePath`, else `AUTH_URL`'s path, else `/auth`), and the
 *    plugin puts the endpoints there (`<basePath>/*`, every method: nothing is filtered), whatever
 *    Fastify prefix it is registered under. A prefix the base path is not under is refused when
 *    the plugin loads (`app.ready()` rejects with a `TypeError` that names both), rather than half
 *    working: the core builds its URLs, OAuth callbacks included, on the base path.
 * 2. Bodies: see `body.ts`. Fastify's parsing is respected; what it does not parse, the core reads.
 * 3. The host and proxy rules are the core's (`AUTH_URL`, `trustHost`, `AUTH_TRUST_HOST`,
 *    `trustedProxy`): the request reaches the core with its headers as they arrived and the
 *    socket's own address, and Fastify's `trustProxy` option plays no part (see `request.ts`).
 * 4. The core writes its answer on the raw response (`reply.hijack()`), with the headers the app's
 *    hooks put on the reply before it (CORS, security headers): the core's own replace those of
 *    the same name, and the cookies add up.
 * 5. The plugin is not encapsulated (`fastify-plugin`): `request.session` is declared on the app
 *    it is registered in, `null` until a hook reads the session (`sessionHook`, `requireSession`).
 *    A `request.session` decorated already (by `@fastify/session` or `@fastify/secure-session`,
 *    which this replaces) is refused with a `TypeError`.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { basePathOf } from "@sesame/core/integration"
import { toNodeHandler } from "@sesame/core/node"
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify"
import fastifyPlugin from "fastify-plugin"
import { leaveUnparsedBodiesToTheCore, nodeRequestOf } from "./body.js"
import { checkConfig, defaultBasePath } from "./config.js"
import { endpointRoute } from "./session.js"

/** Options of the {@link sesame} plugin. */
export interface SesameOptions {
  /**
   * The configuration: the very object to give `sessionHook`, `requireSession`, `getSession`,
   * `signIn`, `signOut` and `api` too, so that the core resolves and checks it once.
   */
  config: AuthConfig
}

/** The endpoints' path below the prefix the plugin is registered under (policy 1). */
function endpointsPrefix(basePath: string, prefix: string): string {
  if (basePath === "" || basePath === "/") {
    throw new TypeError("sesame: the base path is the site's root; Sesame's endpoints need a path of their own (`basePath: \"/auth\"`).")
  }
  const within = prefix === "" || basePath.toLowerCase() === prefix.toLowerCase() || basePath.toLowerCase().startsWith(`${prefix.toLowerCase()}/`)
  if (!within) {
    throw new TypeError(
      `sesame is registered under the prefix "${prefix}", but Sesame's base path is "${basePath}". Register it outside that prefix, or set \`basePath: "${prefix}${basePath}"\` in the configuration.`,
    )
  }
  return basePath.slice(prefix.length)
}

async function plugin(fastify: FastifyInstance, options: SesameOptions): Promise<void> {
  checkConfig(options?.config, "sesame")
  const { config } = options
  const prefix = endpointsPrefix(basePathOf(config, defaultBasePath), fastify.prefix)
  if (fastify.hasRequestDecorator("session")) {
    throw new TypeError("sesame: `request.session` is decorated already (by @fastify/session or @fastify/secure-session?). Sesame's session takes its place: register only one of them.")
  }
  fastify.decorateRequest("session", null)

  const handle = toNodeHandler(config)
  async function endpoints(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // The headers hooks set on the reply go out with the core's answer (policy 4).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value)
    reply.hijack()
    await handle(nodeRequestOf(request), reply.raw)
  }

  await fastify.register(
    async (scope) => {
      leaveUnparsedBodiesToTheCore(scope)
      scope.route({ method: [...scope.supportedMethods], url: "/*", exposeHeadRoute: false, config: { [endpointRoute]: true }, handler: endpoints })
    },
    { prefix },
  )
}

/**
 * The Fastify plugin: Sesame's endpoints (sign-in pages and actions, OAuth callbacks, `session`,
 * `csrf`, `providers`, sign-out…) under the base path, for every method, and `request.session`
 * on the app. Fastify's body parsing is respected; a body it does not parse, the core reads.
 *
 * @throws `TypeError` (from `app.register`, `app.ready()`) when `options.config` is not an object,
 *   when the base path is not under the prefix the plugin is registered with, and when
 *   `request.session` is decorated already.
 *
 * @example
 * ```ts
 * const app = Fastify()
 * await app.register(sesame, { config: authConfig }) // /auth/signin, /auth/callback/…, /auth/session…
 * app.addHook("onRequest", sessionHook(authConfig)) // request.session for every route
 * ```
 */
export const sesame: FastifyPluginAsync<SesameOptions> = fastifyPlugin(plugin, { fastify: "5.x", name: "@sesame/fastify" })
