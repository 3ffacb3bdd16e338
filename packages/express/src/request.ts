/**
 * An Express request as the core's integration functions read it (`RequestLike`: headers, a URL
 * and the socket's address), made once per request by the core's `requestLikeOf`, which says why
 * nothing Express derived under its `trust proxy` setting is used.
 *
 * @module
 */
import type { RequestLike } from "@sesame/core/integration"
import { requestLikeOf } from "@sesame/core/node"
import type { ExpressRequest } from "./types.js"

const requests = new WeakMap<ExpressRequest, RequestLike>()

/** `req` as the core reads it. */
export function requestOf(req: ExpressRequest): RequestLike {
  let request = requests.get(req)
  if (!request) {
    request = requestLikeOf(req)
    requests.set(req, request)
  }
  return request
}
