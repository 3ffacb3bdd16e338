/**
 * Bodies of the requests to Sesame's endpoints, under Fastify's content-type parsing.
 *
 * Policy:
 * 1. Fastify's own parsing is respected: a body Fastify parsed in the endpoints' scope (JSON and
 *    text, Fastify's own parsers; a form, when the app registered `@fastify/formbody` before the
 *    plugin; any parser the app added) reaches the core as Fastify left it, on `raw.body`, where
 *    the core's Node.js handler takes a parsed body (as after `express.urlencoded()`) and applies
 *    its own rules to it: a field sent twice, a nested value, a file: refused with a `4xx`. A JSON
 *    value that is no object (a string holding JSON, a number) reaches it as the JSON it was.
 *    Fastify's own refusals come first, as Fastify answers them (`400` for broken JSON, `413`
 *    over its `bodyLimit`).
 * 2. A type nobody parses in that scope (a form without `@fastify/formbody`, anything else) is not
 *    refused with Fastify's `415`: its stream is left unread, and the core reads it under its own
 *    limit, as it does for every other integration. The built-in pages post forms, so the
 *    endpoints work without any parser of the app's.
 * 3. Only in the endpoints' scope: the app's own routes keep Fastify's parsing as it is.
 *
 * @module
 */
import type { NodeRequest } from "@sesame/core/node"
import type { FastifyInstance, FastifyRequest } from "fastify"

/** The content type of the built-in pages' forms, parsed by Fastify only with a plugin such as `@fastify/formbody`. */
const formType = "application/x-www-form-urlencoded"

/** Adds, in the endpoints' scope, a parser that leaves the body unread for the types no parser reads there (policy 2, 3). */
export function leaveUnparsedBodiesToTheCore(scope: FastifyInstance): void {
  const leaveUnread = (_request: FastifyRequest, _payload: unknown, done: (error: Error | null, body?: unknown) => void) => done(null, undefined)
  if (!scope.hasContentTypeParser(formType)) scope.addContentTypeParser(formType, leaveUnread)
  if (!scope.hasContentTypeParser("*")) scope.addContentTypeParser("*", leaveUnread)
}

/** Whether the request says its body is JSON (`application/json`, any case, parameters aside). */
const jsonType = (request: FastifyRequest): boolean => /^application\/json\s*(;|$)/i.test(request.headers["content-type"] ?? "")

/**
 * `request.raw`, with what Fastify parsed on `body` for the core's Node.js handler (policy 1).
 * Fastify's JSON parser takes any JSON value, and the core takes a string body for the body's own
 * text (as `express.text()` leaves it): so a JSON value that is not an object goes to the core as
 * the JSON it was, and the core refuses it as it refuses any body that is no object, instead of
 * decoding a string that holds JSON a second time.
 */
export function nodeRequestOf(request: FastifyRequest): NodeRequest {
  const raw: NodeRequest = request.raw
  const body = request.body
  if (body === undefined) return raw
  raw.body = jsonType(request) && (typeof body !== "object" || body === null) ? JSON.stringify(body) : body
  return raw
}
