/**
 * A Fastify request as the core's integration functions read it (`RequestLike`: headers, a URL
 * and the socket's address), made once per request by the core's `requestLikeOf` from the raw
 * request: its headers as they arrived and the target the client sent, nothing Fastify derived
 * under its `trustProxy` option (`request.host`, `request.protocol`, `request.ip`), a second rule
 * the core does not know.
 *
 * @module
 */
import type { RequestLike } from "@sesame/core/integration"
import { requestLikeOf } from "@sesame/core/node"
import type { FastifyRequest } from "fastify"

const requests = new WeakMap<FastifyRequest, RequestLike>()

/** `request` as the core reads it. */
export function requestOf(request: FastifyRequest): RequestLike {
  let found = requests.get(request)
  if (!found) {
    found = requestLikeOf(request.raw)
    requests.set(request, found)
  }
  return found
}
