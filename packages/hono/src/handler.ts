/**
 * `sesame(config)`: the handler of the auth routes, `app.on(["GET", "POST"], "/auth/*", …)`.
 *
 * Every request it is given goes to the core's web-standard `Auth()` as it is, whatever the action
 * (`session`, `csrf`, `signin`, `callback`, `signout`, the built-in pages…): the core decides what
 * exists and answers the rest with a 4xx, a path outside the base path too (its `400` names the
 * path, which tells a route mounted at one path and a `basePath` saying another apart from a
 * missing page).
 *
 * The request is Hono's own (`c.req.raw`), so the core reads the body itself. When a middleware
 * before it read the body through Hono (`c.req.parseBody()`, a validator), Hono keeps it, and the
 * request is remade from that copy (`cloneRawRequest`).
 *
 * @module
 */
import { Auth } from "@sesame/core"
import { setPeerAddress } from "@sesame/core/integration"
import type { Context, Env } from "hono"
import { cloneRawRequest } from "hono/request"
import { checkConfig, configFor, type SesameConfig } from "./config.js"
import { peerAddress } from "./peer.js"

/**
 * Makes the handler of the auth routes.
 *
 * @param config - the configuration, or a function of the context returning it (read once per
 *   request: `(c) => ({ secret: c.env.AUTH_SECRET, … })` on Workers). Its base path (`basePath`,
 *   else the path of `AUTH_URL`, else `/auth`) must be where the handler is mounted. A
 *   configuration that is not an object throws a `TypeError` here.
 * @returns a Hono handler answering with the core's `Response`.
 *
 * @example
 * ```ts
 * app.on(["GET", "POST"], "/auth/*", sesame(authConfig))
 * ```
 */
export function sesame<E extends Env = Env>(config: SesameConfig<E>): (c: Context<E>) => Promise<Response> {
  checkConfig(config, "sesame")
  return async (c) => {
    const { config: core } = await configFor(c, config, "sesame")
    const request = c.req.raw.bodyUsed ? await cloneRawRequest(c.req) : c.req.raw
    setPeerAddress(request, peerAddress(c))
    return Auth(request, core)
  }
}
